package io.cairn.store.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A reading position over a slice of a byte array, reused across blocks via {@link #reset}: the
 * heap twin of {@link ByteBufferInput} for the decoders of data blocks, which read a block's copy
 * in a plain array (no buffer bounds, views or bulk-copy stubs per cell). Every read checks the
 * slice's limit and throws {@link IllegalArgumentException} past it, so a decoder never reads bytes
 * of a neighbouring record (or stale bytes of a reused array); callers turn that into a corruption
 * error.
 */
public final class ByteArrayInput {
  private static final byte[] NONE = new byte[0];

  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private byte[] data = NONE;
  private int position;
  private int limit;

  /** Reads {@code data} from {@code offset} up to {@code limit} (exclusive, absolute indexes). */
  public void reset(byte[] data, int offset, int limit) {
    if (offset < 0 || limit > data.length || offset > limit) {
      throw new IllegalArgumentException(
          "Slice [" + offset + ", " + limit + ") outside an array of [" + data.length + "]");
    }
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

  public long readVarint() {
    int at = position;
    if (at < limit) {
      byte first = data[at];
      if (first >= 0) {
        position = at + 1;
        return first;
      }
    }
    return readLongVarint();
  }

  private long readLongVarint() {
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
    int at = position;
    if (at < limit) {
      byte first = data[at];
      if (first >= 0) {
        position = at + 1;
        return first;
      }
    }
    long value = readLongVarint();
    if (value < 0 || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Varint out of int range: [" + value + "]");
    }
    return (int) value;
  }

  /** Checks that {@code length} bytes remain, then skips them; returns their start. */
  public int skip(int length) {
    if (length < 0 || length > limit - position) {
      throw new IllegalArgumentException(
          "[" + length + "] bytes wanted at [" + position + "], slice ends at [" + limit + "]");
    }
    int start = position;
    position += length;
    return start;
  }

  /** The big-endian int at absolute index {@code at} of the array (a block's trailer). */
  public int intAt(int at) {
    return (int) INT_BE.get(data, at);
  }

  /**
   * Compares {@code array[offset, offset + length)} with {@code target}, unsigned, as {@link
   * Arrays#compareUnsigned(byte[], byte[])} does.
   */
  public int compareUnsigned(int offset, int length, byte[] target) {
    return Arrays.compareUnsigned(data, offset, offset + length, target, 0, target.length);
  }
}
