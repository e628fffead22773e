package io.cairn.store.file;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Constants of the block file format; docs/format-blockfile.md explains each. */
public final class BlockFileFormat {
  private BlockFileFormat() {}

  /** How the name of a block file ends. */
  public static final String FILE_SUFFIX = ".cbf";

  /** The name of the block file {@code fileId}: the id in 12 digits, then {@value #FILE_SUFFIX}. */
  public static String fileName(long fileId) {
    return String.format(Locale.ROOT, "%012d%s", fileId, FILE_SUFFIX);
  }

  /**
   * The version writers write. 2: FAST_DIFF data blocks end with restart points (version 1 blocks
   * have none).
   */
  static final int VERSION = 2;

  /** The oldest version readers still read. */
  static final int OLDEST_READABLE_VERSION = 1;

  static final String FORMAT_NAME = "cairn.blockfile";
  static final byte[] FORMAT_NAME_BYTES = FORMAT_NAME.getBytes(StandardCharsets.US_ASCII);

  /** First 4 bytes of every block file. */
  static final int HEADER_MAGIC = 0xCAB1F11E;

  /** Magic of the trailer: the last 4 bytes before the trailer's checksum. */
  static final int TRAILER_MAGIC = 0x1EF1B1CA;

  /** magic(4) + name length(1) + name + version(4) + file id(8) + crc32c(4). */
  static final int HEADER_SIZE = 4 + 1 + FORMAT_NAME_BYTES.length + 4 + 8 + 4;

  static final int HEADER_VERSION_OFFSET = 5 + FORMAT_NAME_BYTES.length;

  /**
   * file info offset(8) + size(4), root index offset(8) + size(4), index levels(4), bloom index
   * offset(8) + size(4), file id(8), version(4), magic(4), crc32c(4).
   */
  static final int TRAILER_SIZE = 8 + 4 + 8 + 4 + 4 + 8 + 4 + 8 + 4 + 4 + 4;

  /** Offset of the version field within the trailer. */
  static final int TRAILER_VERSION_OFFSET = 48;

  /** Block header: type(1), compression(1), uncompressed length(4), stored length(4). */
  static final int BLOCK_HEADER_SIZE = 10;

  /** Block header plus the crc32c after the payload. */
  static final int BLOCK_OVERHEAD = BLOCK_HEADER_SIZE + 4;

  /** More index levels than this cannot come from a sane writer (each level at least halves). */
  static final int MAX_INDEX_LEVELS = 40;

  /** Largest decompressed block payload a reader accepts. */
  static final int MAX_BLOCK_PAYLOAD = 1 << 30;

  /** Bloom filter: bits per distinct row (about 0.8% false positives with 7 hashes). */
  static final int BLOOM_BITS_PER_ROW = 10;

  static final int BLOOM_HASH_COUNT = 7;
}
