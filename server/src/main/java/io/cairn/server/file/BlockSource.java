package io.cairn.server.file;

import java.nio.file.Path;

/**
 * Where a reader's blocks come from: the one seam between the block file format and storage. The
 * file-backed source reads, verifies the CRC32C and decompresses on every call; a block cache wraps
 * a source and keeps the decompressed (still encoded) blocks, keyed by file and offset.
 * Thread-safe.
 */
interface BlockSource extends AutoCloseable {
  /**
   * Reads the block that starts at {@code offset} and takes {@code onDiskSize} bytes on disk
   * (header, payload and checksum). The caller must {@link Block#release()} the result.
   *
   * @throws io.cairn.core.error.CairnException DATA_CORRUPTED when the bytes fail a check
   *     (checksum, type, lengths, decompression), IO_ERROR when they cannot be read
   */
  Block readBlock(long offset, int onDiskSize, BlockType expectedType);

  /** The file, for error messages. */
  Path path();

  @Override
  void close();
}
