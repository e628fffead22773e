package io.cairn.server.file;

import static io.cairn.server.file.BlockFileFormat.BLOCK_HEADER_SIZE;
import static io.cairn.server.file.BlockFileFormat.BLOCK_OVERHEAD;
import static io.cairn.server.file.BlockFileFormat.MAX_BLOCK_PAYLOAD;
import static java.util.Objects.requireNonNull;

import io.cairn.server.io.BigEndian;
import io.cairn.server.io.Checksums;
import io.cairn.server.io.FileErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads blocks from a file with positional reads (thread-safe), checks the CRC32C on every read,
 * then the header's type and lengths, and decompresses. An uncompressed block's payload is returned
 * in place, without a copy.
 */
final class FileBlockSource implements BlockSource {
  private final Path path;
  private final FileChannel channel;
  private final long dataEnd;

  /**
   * @param dataEnd where the trailer starts: no block may reach past it
   */
  FileBlockSource(Path path, FileChannel channel, long dataEnd) {
    this.path = requireNonNull(path, "path is null");
    this.channel = requireNonNull(channel, "channel is null");
    this.dataEnd = dataEnd;
  }

  @Override
  public Path path() {
    return path;
  }

  @Override
  public Block readBlock(long offset, int onDiskSize, BlockType expectedType) {
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
    byte[] raw = new byte[onDiskSize];
    readFully(offset, raw);
    int storedCrc = BigEndian.getInt(raw, onDiskSize - 4);
    int actualCrc = Checksums.crc32c(raw, 0, onDiskSize - 4);
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
    BlockType type = BlockType.fromId(raw[0] & 0xFF);
    if (type != expectedType) {
      throw FileErrors.corrupted(
          path, offset, "block type: expected [" + expectedType + "], found [" + raw[0] + "]");
    }
    int compressionId = raw[1] & 0xFF;
    int uncompressedLength = BigEndian.getInt(raw, 2);
    int storedLength = BigEndian.getInt(raw, 6);
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
      return new Block(type, offset, onDiskSize, raw, BLOCK_HEADER_SIZE, storedLength);
    }
    byte[] payload = new byte[uncompressedLength];
    try {
      BlockCompressor.of(compression)
          .decompress(raw, BLOCK_HEADER_SIZE, storedLength, payload, 0, uncompressedLength);
    } catch (IllegalArgumentException e) {
      throw FileErrors.corrupted(
          path, offset, compression + " block does not decompress: " + e.getMessage(), e);
    }
    return new Block(type, offset, onDiskSize, payload, 0, uncompressedLength);
  }

  /** Reads {@code into.length} bytes at {@code offset}; a short file is corruption. */
  void readFully(long offset, byte[] into) {
    ByteBuffer buffer = ByteBuffer.wrap(into);
    try {
      while (buffer.hasRemaining()) {
        int n = channel.read(buffer, offset + buffer.position());
        if (n < 0) {
          throw FileErrors.corrupted(
              path,
              offset + buffer.position(),
              "file ends inside a structure of [" + into.length + "] bytes at [" + offset + "]");
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
