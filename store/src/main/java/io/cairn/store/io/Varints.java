package io.cairn.store.io;

import java.nio.ByteBuffer;

/**
 * Unsigned LEB128 varints (7 bits a byte, low group first, high bit = more), as in protobuf. A long
 * takes 1 to 10 bytes; values below 128 take one.
 */
public final class Varints {
  private Varints() {}

  /** Bytes {@code value} takes as a varint. */
  public static int size(long value) {
    int n = 1;
    while ((value & ~0x7FL) != 0) {
      value >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code value} at {@code offset} of {@code out}; returns the offset after it. */
  public static int put(byte[] out, int offset, long value) {
    while ((value & ~0x7FL) != 0) {
      out[offset++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[offset++] = (byte) value;
    return offset;
  }

  /** Writes {@code value} at the buffer's position, advancing it. */
  public static void put(ByteBuffer out, long value) {
    while ((value & ~0x7FL) != 0) {
      out.put((byte) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.put((byte) value);
  }

  /**
   * Reads a varint at the buffer's position, advancing it.
   *
   * @throws IllegalArgumentException when it runs past 10 bytes or the buffer's limit
   */
  public static long get(ByteBuffer in) {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!in.hasRemaining()) {
        throw new IllegalArgumentException("Varint runs past the end of the buffer");
      }
      byte b = in.get();
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("Varint longer than 10 bytes");
  }

  /** Reads a varint that must fit an int in [0, Integer.MAX_VALUE]. */
  public static int getInt(ByteBuffer in) {
    long v = get(in);
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Varint out of int range: " + v);
    }
    return (int) v;
  }
}
