package io.cairn.kv;

/**
 * How far a write goes before it is acknowledged. A table has a default (table option {@code
 * DURABILITY}); a connection may override it per batch.
 */
public enum Durability {
  /** Not logged at all: lost on any crash until its region is flushed. Fastest. */
  SKIP,
  /** Logged in the background: acknowledged before it is written; a crash may lose the last ms. */
  ASYNC,
  /** Written to the operating system before acknowledging: survives a process crash. Default. */
  SYNC,
  /** Forced to the device (fsync) before acknowledging: survives a power loss. */
  FSYNC;

  /** The stronger of two durabilities. */
  public Durability max(Durability other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
