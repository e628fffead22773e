package io.cairn.core.encoding;

import io.cairn.core.error.CairnException;

/**
 * Reads bytes from an array with a position. With {@link #setInverted(boolean)} every byte read is
 * bit-inverted first, which is how DESC key components decode. Not thread-safe.
 */
public final class ByteReader {
  private final byte[] data;
  private final int limit;
  private int position;
  private int mask;

  public ByteReader(byte[] data) {
    this(data, 0, data.length);
  }

  public ByteReader(byte[] data, int offset, int length) {
    this.data = data;
    this.position = offset;
    this.limit = offset + length;
  }

  public int position() {
    return position;
  }

  public void position(int newPosition) {
    position = newPosition;
  }

  public int limit() {
    return limit;
  }

  public boolean hasRemaining() {
    return position < limit;
  }

  public int remaining() {
    return limit - position;
  }

  /** When true, every byte read is bit-inverted. */
  public void setInverted(boolean inverted) {
    mask = inverted ? 0xFF : 0;
  }

  /** The next byte as 0..255. */
  public int read() {
    if (position >= limit) {
      throw CairnException.internal(
          "Truncated encoding: expected a byte at offset [" + position + "], found end");
    }
    return (data[position++] ^ mask) & 0xFF;
  }

  /** The next byte as 0..255 without consuming it. */
  public int peek() {
    if (position >= limit) {
      throw CairnException.internal(
          "Truncated encoding: expected a byte at offset [" + position + "], found end");
    }
    return (data[position] ^ mask) & 0xFF;
  }

  public long readBigEndian(int byteCount) {
    long value = 0;
    for (int i = 0; i < byteCount; i++) {
      value = (value << 8) | read();
    }
    return value;
  }

  public byte[] readBytes(int count) {
    if (count < 0 || count > remaining()) {
      throw CairnException.internal(
          "Truncated encoding: expected [" + count + "] bytes, found [" + remaining() + "]");
    }
    byte[] out = new byte[count];
    for (int i = 0; i < count; i++) {
      out[i] = (byte) read();
    }
    return out;
  }

  public long readVarint() {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = read();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw CairnException.internal("Malformed varint ending at offset [" + position + "]");
  }
}
