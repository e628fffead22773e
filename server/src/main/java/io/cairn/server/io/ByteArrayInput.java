package io.cairn.server.io;

/**
 * A reading position over a slice of a byte array, reused across blocks via {@link #reset}. Every
 * read checks the slice's limit and throws {@link IllegalArgumentException} past it, so a decoder
 * never reads bytes of a neighbouring record; callers turn that into a corruption error.
 */
public final class ByteArrayInput {
  private byte[] data = new byte[0];
  private int position;
  private int limit;

  public void reset(byte[] data, int offset, int limit) {
    this.data = data;
    this.position = offset;
    this.limit = limit;
  }

  public byte[] array() {
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
    return data[position++] & 0xFF;
  }

  public int readInt() {
    require(4);
    int value = BigEndian.getInt(data, position);
    position += 4;
    return value;
  }

  public long readLong() {
    require(8);
    long value = BigEndian.getLong(data, position);
    position += 8;
    return value;
  }

  public long readVarint() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position >= limit) {
        throw new IllegalArgumentException("Varint runs past the end of the slice");
      }
      byte b = data[position++];
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
}
