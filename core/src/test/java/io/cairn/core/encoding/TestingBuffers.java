package io.cairn.core.encoding;

import io.cairn.core.bytes.Bytes;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Places encoded rows inside larger arrays and buffers, at non-zero offsets and with junk around
 * them, the way a row cursor hands out views of a block or a memstore cell.
 */
public final class TestingBuffers {
  /** Where a value cell lives. */
  public enum Kind {
    HEAP,
    READ_ONLY_HEAP,
    DIRECT
  }

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
    byte[] embedded = embed(bytes, offset);
    ByteBuffer buffer =
        kind == Kind.DIRECT
            ? ByteBuffer.allocateDirect(embedded.length + 2)
            : ByteBuffer.allocate(embedded.length + 2);
    buffer.put(embedded);
    buffer.put(JUNK).put(JUNK);
    buffer.limit(embedded.length + 1).position(1);
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
