package io.cairn.store.io;

import java.nio.ByteBuffer;

/**
 * A reading position over a slice of a {@link ByteBuffer} (heap or direct), reused across blocks
 * via {@link #reset}. Reads are absolute, so the buffer's own position and limit are never changed
 * and the buffer may be shared with other readers. Every read checks the slice's limit and throws
 * {@link IllegalArgumentException} past it, so a decoder never reads bytes of a neighbouring
 * record; callers turn that into a corruption error.
 */
public final class ByteBufferInput {
  private static final ByteBuffer NONE = ByteBuffer.allocate(0);

  private ByteBuffer data = NONE;
  private int position;
  private int limit;

  /** Reads {@code data} from {@code offset} up to {@code limit} (exclusive, absolute indexes). */
  public void reset(ByteBuffer data, int offset, int limit) {
    if (offset < 0 || limit > data.limit() || offset > limit) {
      throw new IllegalArgumentException(
          "Slice [" + offset + ", " + limit + ") outside a buffer of [" + data.limit() + "]");
    }
    this.data = data;
    this.position = offset;
    this.limit = limit;
  }

  public ByteBuffer buffer() {
    return data;
  }

  public int position() {
    return position;
  }

  public void position(int position) {
    if (position < 0 || position > limit) {
      throw new IllegalArgumentException(
          "Position [" + position + "] outside the slice ending at [" + limit + "]");
    }
    this.position = position;
  }

  public int limit() {
    return limit;
  }

  public boolean hasRemaining() {
    return position < limit;
  }

  public int readUnsignedByte() {
    if (position >= limit) {
      throw new IllegalArgumentException("Read past the end of the slice at [" + limit + "]");
    }
    return data.get(position++) & 0xFF;
  }

  public long readVarint() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position >= limit) {
        throw new IllegalArgumentException("Varint runs past the end of the slice");
      }
      byte b = data.get(position++);
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("Varint longer than 10 bytes");
  }

  /** A varint that must fit in [0, Integer.MAX_VALUE]. */
  public int readVarintInt() {
    long value = readVarint();
    if (value < 0 || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Varint out of int range: [" + value + "]");
    }
    return (int) value;
  }

  /** Checks that {@code length} bytes remain, then skips them; returns their start. */
  public int skip(int length) {
    require(length);
    int start = position;
    position += length;
    return start;
  }

  private void require(int length) {
    if (length < 0 || length > limit - position) {
      throw new IllegalArgumentException(
          "[" + length + "] bytes wanted at [" + position + "], slice ends at [" + limit + "]");
    }
  }

  /**
   * Compares {@code buffer[offset, offset + length)} with {@code target}, unsigned, as {@link
   * java.util.Arrays#compareUnsigned(byte[], byte[])} does; absolute reads only.
   */
  public static int compareUnsigned(ByteBuffer buffer, int offset, int length, byte[] target) {
    int n = Math.min(length, target.length);
    for (int i = 0; i < n; i++) {
      int a = buffer.get(offset + i) & 0xFF;
      int b = target[i] & 0xFF;
      if (a != b) {
        return a - b;
      }
    }
    return length - target.length;
  }
}
