package io.cairn.store.file;

import java.nio.file.Path;

/**
 * Where a reader's blocks come from: the one seam between the block file format and storage. The
 * file-backed source reads, verifies the CRC32C and decompresses on every call; {@link
 * CachingBlockSource} wraps it and keeps the decompressed (still encoded) blocks in the block
 * cache, keyed by file and offset. {@link CachePolicy#NO_CACHE} (NO_CACHE scans, compactions) still
 * takes blocks from the cache but does not add data blocks read from disk. Thread-safe.
 */
interface BlockSource extends AutoCloseable {
  /**
   * Reads the block that starts at {@code offset} and takes {@code onDiskSize} bytes on disk
   * (header, payload and checksum). The caller must {@link Block#release()} the result.
   *
   * @throws io.cairn.core.error.CairnException DATA_CORRUPTED when the bytes fail a check
   *     (checksum, type, lengths, decompression), IO_ERROR when they cannot be read
   */
  Block readBlock(long offset, int onDiskSize, BlockType expectedType, CachePolicy policy);

  /** As above, caching a block read from disk where its kind is cached. */
  default Block readBlock(long offset, int onDiskSize, BlockType expectedType) {
    return readBlock(offset, onDiskSize, expectedType, CachePolicy.CACHE);
  }

  /** The file, for error messages. */
  Path path();

  @Override
  void close();
}
