package io.cairn.core.error;

/** Who is at fault for an error; the driver maps it (with the code) to an SQLState class. */
public enum ErrorType {
  /** The statement or its data is wrong; retrying the same thing fails again. */
  USER_ERROR,
  /** A bug or broken invariant inside Cairn. */
  INTERNAL_ERROR,
  /** A limit (memory, time, size) was reached. */
  INSUFFICIENT_RESOURCES,
  /** Something outside Cairn failed: disk, network, the operating system. */
  EXTERNAL
}
