package io.cairn.server.cache;

import java.nio.ByteBuffer;

/** Reference-counted read-only bytes of one block; shared between threads. */
public interface BlockBuffer {
  /**
   * The bytes at [0, length()) of a view created once: use absolute gets only; never change its
   * position or limit (it is shared). Valid while the caller holds a reference.
   */
  ByteBuffer buffer();

  int length();

  /** Adds a reference; throws IllegalStateException if already freed. */
  BlockBuffer retain();

  /** Drops a reference; true when this call freed it; throws when over-released. */
  boolean release();
}
