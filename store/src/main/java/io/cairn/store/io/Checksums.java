package io.cairn.store.io;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/** CRC32C (Castagnoli) checksums, as stored by every file of the store. */
public final class Checksums {
  private Checksums() {}

  /** The CRC32C of {@code length} bytes of {@code data} from {@code offset}, as an int. */
  public static int crc32c(byte[] data, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, offset, length);
    return (int) crc.getValue();
  }

  /**
   * The CRC32C of {@code length} bytes of {@code data} (heap or direct) from {@code offset}, as an
   * int; the buffer's position and limit are not changed.
   */
  public static int crc32c(ByteBuffer data, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data.duplicate().limit(offset + length).position(offset));
    return (int) crc.getValue();
  }
}
