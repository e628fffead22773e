package io.cairn.store.file;

import static io.cairn.store.file.BlockFileFormat.BLOCK_HEADER_SIZE;
import static io.cairn.store.file.BlockFileFormat.BLOCK_OVERHEAD;
import static io.cairn.store.file.BlockFileFormat.MAX_BLOCK_PAYLOAD;
import static java.util.Objects.requireNonNull;

import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.PooledBuffer;
import io.cairn.store.io.Checksums;
import io.cairn.store.io.FileErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads blocks from a file with positional reads (thread-safe) into buffers of a {@link BufferPool}
 * (pooled direct memory; the heap when the pool cannot serve), checks the CRC32C on every read,
 * then the header's type and lengths, and decompresses into a second pooled buffer. An uncompressed
 * block's payload is returned in place, without a copy. The buffer that is not returned is released
 * at once, on error paths too.
 */
final class FileBlockSource implements BlockSource {
  private final Path path;
  private final FileChannel channel;
  private final long dataEnd;
  private final BufferPool pool;

  /**
   * @param dataEnd where the trailer starts: no block may reach past it
   */
  FileBlockSource(Path path, FileChannel channel, long dataEnd, BufferPool pool) {
    this.path = requireNonNull(path, "path is null");
    this.channel = requireNonNull(channel, "channel is null");
    this.dataEnd = dataEnd;
    this.pool = requireNonNull(pool, "pool is null");
  }

  @Override
  public Path path() {
    return path;
  }

  @Override
  public Block readBlock(long offset, int onDiskSize, BlockType expectedType, CachePolicy policy) {
    if (offset < 0 || onDiskSize < BLOCK_OVERHEAD || offset > dataEnd - onDiskSize) {
      throw FileErrors.corrupted(
          path,
          offset,
          "block of ["
              + onDiskSize
              + "] bytes does not fit between the header and the trailer at ["
              + dataEnd
              + "]");
    }
    PooledBuffer raw = pool.allocate(onDiskSize);
    boolean returned = false;
    try {
      ByteBuffer bytes = raw.buffer();
      readFully(offset, bytes, onDiskSize);
      int storedCrc = bytes.getInt(onDiskSize - 4);
      int actualCrc = Checksums.crc32c(bytes, 0, onDiskSize - 4);
      if (storedCrc != actualCrc) {
        throw FileErrors.corrupted(
            path,
            offset,
            "block checksum mismatch: expected ["
                + Integer.toHexString(storedCrc)
                + "], found ["
                + Integer.toHexString(actualCrc)
                + "]");
      }
      BlockType type = BlockType.fromId(bytes.get(0) & 0xFF);
      if (type != expectedType) {
        throw FileErrors.corrupted(
            path,
            offset,
            "block type: expected [" + expectedType + "], found [" + bytes.get(0) + "]");
      }
      int compressionId = bytes.get(1) & 0xFF;
      int uncompressedLength = bytes.getInt(2);
      int storedLength = bytes.getInt(6);
      if (storedLength != onDiskSize - BLOCK_OVERHEAD) {
        throw FileErrors.corrupted(
            path,
            offset,
            "block length: expected ["
                + (onDiskSize - BLOCK_OVERHEAD)
                + "], found ["
                + storedLength
                + "]");
      }
      if (uncompressedLength < 0 || uncompressedLength > MAX_BLOCK_PAYLOAD) {
        throw FileErrors.corrupted(
            path, offset, "uncompressed block length out of range: [" + uncompressedLength + "]");
      }
      Compression compression;
      try {
        compression = Compression.fromId(compressionId);
      } catch (IllegalArgumentException e) {
        throw FileErrors.corrupted(path, offset, e.getMessage(), e);
      }
      if (compression == Compression.NONE) {
        if (uncompressedLength != storedLength) {
          throw FileErrors.corrupted(
              path,
              offset,
              "uncompressed block length: expected ["
                  + storedLength
                  + "], found ["
                  + uncompressedLength
                  + "]");
        }
        Block block =
            new Block(type, offset, onDiskSize, bytes, BLOCK_HEADER_SIZE, storedLength, raw);
        returned = true;
        return block;
      }
      PooledBuffer payload = pool.allocate(uncompressedLength);
      try {
        BlockCompressor.of(compression)
            .decompress(
                bytes, BLOCK_HEADER_SIZE, storedLength, payload.buffer(), 0, uncompressedLength);
      } catch (IllegalArgumentException e) {
        payload.release();
        throw FileErrors.corrupted(
            path, offset, compression + " block does not decompress: " + e.getMessage(), e);
      } catch (RuntimeException | Error e) {
        payload.release();
        throw e;
      }
      return new Block(type, offset, onDiskSize, payload.buffer(), 0, uncompressedLength, payload);
    } finally {
      if (!returned) {
        raw.release();
      }
    }
  }

  /** Reads {@code into.length} bytes at {@code offset}; a short file is corruption. */
  void readFully(long offset, byte[] into) {
    readFully(offset, ByteBuffer.wrap(into), into.length);
  }

  /** Reads {@code length} bytes at {@code offset} into {@code into} from index 0. */
  private void readFully(long offset, ByteBuffer into, int length) {
    ByteBuffer buffer = into.duplicate().limit(length).position(0);
    try {
      while (buffer.hasRemaining()) {
        int n = channel.read(buffer, offset + buffer.position());
        if (n < 0) {
          throw FileErrors.corrupted(
              path,
              offset + buffer.position(),
              "file ends inside a structure of [" + length + "] bytes at [" + offset + "]");
        }
      }
    } catch (IOException e) {
      throw FileErrors.ioError(path, "read", e);
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw FileErrors.ioError(path, "close", e);
    }
  }
}
