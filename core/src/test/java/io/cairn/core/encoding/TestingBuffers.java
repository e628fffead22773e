package io.cairn.core.encoding;

import io.cairn.core.bytes.Bytes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Places encoded rows inside larger arrays and buffers, at non-zero offsets and with junk around
 * them, the way a row cursor hands out views of a block or a memstore cell, or alone at the end of
 * an array, the way a block decoder rebuilds a value.
 */
public final class TestingBuffers {
  /** Where a value cell lives. */
  public enum Kind {
    HEAP,
    /** A heap buffer whose array has more before it: a slice, arrayOffset() > 0. */
    SLICED_HEAP,
    /** A heap buffer whose array ends with the row's bytes (nothing to read past them). */
    TIGHT_HEAP,
    /** No accessible array: hasArray() is false. */
    READ_ONLY_HEAP,
    DIRECT,
    /** A direct buffer whose byte order is little-endian (the reader must not rely on it). */
    DIRECT_LITTLE_ENDIAN
  }

  /** Bytes of a SLICED_HEAP buffer's array before the buffer's index 0. */
  private static final int SLICE_OFFSET = 5;

  private static final byte JUNK = (byte) 0xA5;

  private TestingBuffers() {}

  /** {@code bytes} at {@code [offset, offset + length)} of a larger array. */
  public static byte[] embed(Bytes bytes, int offset) {
    byte[] out = new byte[offset + bytes.length() + 3];
    Arrays.fill(out, JUNK);
    System.arraycopy(bytes.peekArray(), 0, out, offset, bytes.length());
    return out;
  }

  /**
   * A buffer holding {@code bytes} at absolute index {@code offset}, with junk around them and a
   * position and limit that a reader must neither rely on nor change.
   */
  public static ByteBuffer buffer(Bytes bytes, int offset, Kind kind) {
    if (kind == Kind.TIGHT_HEAP) {
      byte[] tight = Arrays.copyOf(embed(bytes, offset), offset + bytes.length());
      return ByteBuffer.wrap(tight).position(Math.min(1, tight.length));
    }
    byte[] embedded = embed(bytes, offset);
    int capacity = embedded.length + 2;
    ByteBuffer buffer =
        switch (kind) {
          case DIRECT, DIRECT_LITTLE_ENDIAN -> ByteBuffer.allocateDirect(capacity);
          case SLICED_HEAP -> {
            byte[] array = new byte[SLICE_OFFSET + capacity];
            Arrays.fill(array, JUNK);
            yield ByteBuffer.wrap(array).position(SLICE_OFFSET).slice();
          }
          default -> ByteBuffer.allocate(capacity);
        };
    buffer.put(embedded);
    buffer.put(JUNK).put(JUNK);
    buffer.limit(embedded.length + 1).position(1);
    if (kind == Kind.SLICED_HEAP || kind == Kind.DIRECT_LITTLE_ENDIAN) {
      buffer.order(ByteOrder.LITTLE_ENDIAN);
    }
    return kind == Kind.READ_ONLY_HEAP ? buffer.asReadOnlyBuffer() : buffer;
  }

  /**
   * Points {@code reader} at an encoded row placed at {@code offset} in a buffer of {@code kind}.
   */
  public static ByteBuffer reset(RowReader reader, Bytes key, Bytes value, int offset, Kind kind) {
    byte[] keyArray = embed(key, offset + 1);
    ByteBuffer buffer = buffer(value, offset, kind);
    reader.reset(keyArray, offset + 1, key.length(), buffer, offset, value.length());
    return buffer;
  }
}
