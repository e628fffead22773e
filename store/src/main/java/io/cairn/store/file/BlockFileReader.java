package io.cairn.store.file;

import static io.cairn.store.file.BlockFileFormat.HEADER_SIZE;
import static io.cairn.store.file.BlockFileFormat.TRAILER_SIZE;
import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.io.BigEndian;
import io.cairn.store.io.ByteBufferInput;
import io.cairn.store.io.Checksums;
import io.cairn.store.io.FileErrors;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a block file: validates header, trailer, file info, root index and bloom index at open
 * (kept on the heap for the reader's life), then serves cursors and bloom checks. Thread-safe after
 * open: cursors read blocks concurrently through one {@link CachingBlockSource} (positional reads
 * on a FileChannel into pooled buffers, through the block cache).
 */
public final class BlockFileReader implements AutoCloseable {
  private final Path path;
  private static final AtomicLong CACHE_IDS = new AtomicLong();

  private final CachingBlockSource source;
  private final FileInfo info;
  private final IndexBlock rootIndex;
  private final int indexLevels;
  private final IndexBlock bloomIndex;
  private final FileSeal seal;
  private final VectorCache vectors;

  private BlockFileReader(
      Path path,
      CachingBlockSource source,
      FileInfo info,
      IndexBlock rootIndex,
      int indexLevels,
      IndexBlock bloomIndex,
      FileSeal seal,
      VectorCache vectors) {
    this.path = path;
    this.vectors = vectors;
    this.seal = seal;
    this.source = source;
    this.info = info;
    this.rootIndex = rootIndex;
    this.indexLevels = indexLevels;
    this.bloomIndex = bloomIndex;
  }

  /** The file's length and trailer checksum, which the table manifest records. */
  public FileSeal seal() {
    return seal;
  }

  /**
   * Opens and validates header, trailer, file info, root index and bloom; throws CairnException
   * DATA_CORRUPTED / UNSUPPORTED_FORMAT_VERSION / IO_ERROR naming the path (and offset).
   */
  public static BlockFileReader open(Path path) {
    return open(path, ReadContext.uncached());
  }

  /** As {@link #open(Path)}, reading through {@code context}'s pool and cache. */
  public static BlockFileReader open(Path path, ReadContext context) {
    return open(path, context, -1);
  }

  /**
   * As {@link #open(Path, ReadContext)}, checking also that the file id in the header and trailer
   * is {@code expectedFileId} (the id the store lists the file under): a valid file in the wrong
   * place (copied over another, restored from elsewhere) is DATA_CORRUPTED naming both ids.
   *
   * @param expectedFileId the id the file must carry, or -1 for any
   */
  public static BlockFileReader open(Path path, ReadContext context, long expectedFileId) {
    return open(path, context, expectedFileId, null);
  }

  /**
   * As {@link #open(Path, ReadContext, long)}, checking also that the file's length and trailer
   * checksum are {@code expectedSeal} (what the manifest recorded when the file was written): a
   * valid file with the right id that is not that file (one of another table, an older copy) is
   * DATA_CORRUPTED naming both.
   *
   * @param expectedSeal the seal the file must have, or null for any
   */
  public static BlockFileReader open(
      Path path, ReadContext context, long expectedFileId, FileSeal expectedSeal) {
    requireNonNull(path, "path is null");
    requireNonNull(context, "context is null");
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ);
    } catch (IOException e) {
      throw FileErrors.ioError(path, "open", e);
    }
    try {
      return open(path, channel, context, expectedFileId, expectedSeal);
    } catch (RuntimeException e) {
      try {
        channel.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static BlockFileReader open(
      Path path,
      FileChannel channel,
      ReadContext context,
      long expectedFileId,
      FileSeal expectedSeal) {
    long size;
    try {
      size = channel.size();
    } catch (IOException e) {
      throw FileErrors.ioError(path, "read", e);
    }
    if (size < HEADER_SIZE + TRAILER_SIZE) {
      throw FileErrors.corrupted(
          path,
          size,
          "file of ["
              + size
              + "] bytes is shorter than a header and a trailer ["
              + (HEADER_SIZE + TRAILER_SIZE)
              + "]");
    }
    long trailerStart = size - TRAILER_SIZE;
    FileBlockSource fileSource = new FileBlockSource(path, channel, trailerStart, context.pool());
    byte[] header = readHeader(path, fileSource);
    int headerVersion = BigEndian.getInt(header, BlockFileFormat.HEADER_VERSION_OFFSET);
    long fileId = BigEndian.getLong(header, BlockFileFormat.HEADER_VERSION_OFFSET + 4);

    byte[] trailer = new byte[TRAILER_SIZE];
    fileSource.readFully(trailerStart, trailer);
    int magic = BigEndian.getInt(trailer, 52);
    if (magic != BlockFileFormat.TRAILER_MAGIC) {
      throw FileErrors.corrupted(
          path,
          trailerStart + 52,
          "trailer magic: expected ["
              + Integer.toHexString(BlockFileFormat.TRAILER_MAGIC)
              + "], found ["
              + Integer.toHexString(magic)
              + "] (truncated file?)");
    }
    int version = BigEndian.getInt(trailer, BlockFileFormat.TRAILER_VERSION_OFFSET);
    checkVersion(path, version);
    if (version != headerVersion) {
      throw FileErrors.corrupted(
          path,
          trailerStart + BlockFileFormat.TRAILER_VERSION_OFFSET,
          "format version: header says [" + headerVersion + "], trailer says [" + version + "]");
    }
    checkCrc(path, trailer, TRAILER_SIZE - 4, trailerStart, "trailer");
    long fileInfoOffset = BigEndian.getLong(trailer, 0);
    int fileInfoSize = BigEndian.getInt(trailer, 8);
    long rootOffset = BigEndian.getLong(trailer, 12);
    int rootSize = BigEndian.getInt(trailer, 20);
    int levels = BigEndian.getInt(trailer, 24);
    long bloomOffset = BigEndian.getLong(trailer, 28);
    int bloomSize = BigEndian.getInt(trailer, 36);
    long trailerFileId = BigEndian.getLong(trailer, 40);
    if (trailerFileId != fileId) {
      throw FileErrors.corrupted(
          path,
          trailerStart + 40,
          "file id: header says [" + fileId + "], trailer says [" + trailerFileId + "]");
    }
    if (expectedFileId >= 0 && fileId != expectedFileId) {
      throw FileErrors.corrupted(
          path,
          HEADER_SIZE - 12, // the header's file id
          "file id: expected ["
              + expectedFileId
              + "] (the id the store lists this file under), found ["
              + fileId
              + "] in its header and trailer: another block file was copied or restored here");
    }
    FileSeal seal = new FileSeal(size, BigEndian.getInt(trailer, TRAILER_SIZE - 4));
    if (expectedSeal != null && !expectedSeal.equals(seal)) {
      throw FileErrors.corrupted(
          path,
          trailerStart,
          "not the file its table manifest lists: expected ["
              + expectedSeal
              + "], found ["
              + seal
              + "]: a block file of another table, or an older one, was copied or restored here");
    }
    if (fileInfoOffset + fileInfoSize != trailerStart
        || fileInfoOffset < HEADER_SIZE
        || rootOffset < HEADER_SIZE
        || rootOffset + rootSize > fileInfoOffset
        || levels < 1
        || levels > BlockFileFormat.MAX_INDEX_LEVELS
        || bloomOffset < 0
        || bloomSize < 0
        || bloomOffset + bloomSize > rootOffset) {
      throw FileErrors.corrupted(path, trailerStart, "trailer fields out of range");
    }

    FileInfo info;
    Block fileInfoBlock = fileSource.readBlock(fileInfoOffset, fileInfoSize, BlockType.FILE_INFO);
    try {
      info = parseFileInfo(fileInfoBlock, fileId, headerVersion, size);
    } catch (RuntimeException e) {
      throw corruptedBlock(path, fileInfoOffset, e);
    } finally {
      fileInfoBlock.release();
    }
    if (info.options().rowBloom() != (bloomSize != 0)) {
      throw FileErrors.corrupted(
          path, trailerStart + 28, "bloom index presence contradicts file info");
    }
    IndexBlock root =
        readIndex(path, fileSource, rootOffset, rootSize, BlockType.ROOT_INDEX, trailerStart);
    if ((root.count() == 0) != (info.cellCount() == 0)) {
      throw FileErrors.corrupted(path, rootOffset, "root index entry count contradicts cell count");
    }
    IndexBlock bloom = null;
    if (bloomSize != 0) {
      bloom =
          readIndex(path, fileSource, bloomOffset, bloomSize, BlockType.BLOOM_INDEX, trailerStart);
    }
    CachingBlockSource source =
        new CachingBlockSource(fileSource, context.cache(), CACHE_IDS.incrementAndGet());
    return new BlockFileReader(path, source, info, root, levels, bloom, seal, context.vectors());
  }

  private static IndexBlock readIndex(
      Path path, BlockSource source, long offset, int size, BlockType type, long dataEnd) {
    Block block = heapCopy(source.readBlock(offset, size, type));
    try {
      IndexBlock index = new IndexBlock(block);
      index.validate(dataEnd);
      return index;
    } catch (RuntimeException e) {
      throw corruptedBlock(path, offset, e);
    }
  }

  /** A heap copy of {@code block}, which is released. */
  private static Block heapCopy(Block block) {
    try {
      return block.copyToHeap();
    } finally {
      block.release();
    }
  }

  /** The header, checked (magic, name, a readable version, checksum). */
  private static byte[] readHeader(Path path, FileBlockSource source) {
    byte[] header = new byte[HEADER_SIZE];
    source.readFully(0, header);
    int magic = BigEndian.getInt(header, 0);
    if (magic != BlockFileFormat.HEADER_MAGIC) {
      throw FileErrors.corrupted(
          path,
          0,
          "magic: expected ["
              + Integer.toHexString(BlockFileFormat.HEADER_MAGIC)
              + "], found ["
              + Integer.toHexString(magic)
              + "] (not a block file?)");
    }
    byte[] name = BlockFileFormat.FORMAT_NAME_BYTES;
    if ((header[4] & 0xFF) != name.length
        || !Arrays.equals(header, 5, 5 + name.length, name, 0, name.length)) {
      throw FileErrors.corrupted(
          path, 4, "format name: expected [" + BlockFileFormat.FORMAT_NAME + "]");
    }
    int version = BigEndian.getInt(header, BlockFileFormat.HEADER_VERSION_OFFSET);
    checkVersion(path, version);
    checkCrc(path, header, HEADER_SIZE - 4, 0, "header");
    return header;
  }

  private static void checkVersion(Path path, int version) {
    if (version < BlockFileFormat.OLDEST_READABLE_VERSION || version > BlockFileFormat.VERSION) {
      throw FileErrors.unsupportedVersion(
          path,
          BlockFileFormat.FORMAT_NAME,
          BlockFileFormat.OLDEST_READABLE_VERSION,
          BlockFileFormat.VERSION,
          version);
    }
  }

  private static void checkCrc(Path path, byte[] bytes, int length, long fileOffset, String what) {
    int stored = BigEndian.getInt(bytes, length);
    int actual = Checksums.crc32c(bytes, 0, length);
    if (stored != actual) {
      throw FileErrors.corrupted(
          path,
          fileOffset + length,
          what
              + " checksum mismatch: expected ["
              + Integer.toHexString(stored)
              + "], found ["
              + Integer.toHexString(actual)
              + "]");
    }
  }

  private static FileInfo parseFileInfo(
      Block block, long fileId, int formatVersion, long fileBytes) {
    ByteBufferInput in = new ByteBufferInput();
    in.reset(block.buffer(), block.start(), block.start() + block.length());
    DataBlockEncoding encoding = DataBlockEncoding.fromId(in.readUnsignedByte());
    Compression compression = Compression.fromId(in.readUnsignedByte());
    int blockSize = in.readVarintInt();
    int bloom = in.readUnsignedByte();
    if (bloom > 1) {
      throw new IllegalArgumentException("Bloom flag [" + bloom + "]");
    }
    long guidePostWidth = in.readVarint();
    BlockFileOptions options =
        new BlockFileOptions(encoding, compression, blockSize, bloom == 1, guidePostWidth);
    Bytes firstRow = readBytes(in);
    Bytes lastRow = readBytes(in);
    long maxSequenceId = nonNegative(in.readVarint());
    long cellCount = nonNegative(in.readVarint());
    long deleteCount = nonNegative(in.readVarint());
    long rawBytes = nonNegative(in.readVarint());
    int postCount = in.readVarintInt();
    if (postCount > block.length()) {
      throw new IllegalArgumentException("Guide post count [" + postCount + "]");
    }
    List<Bytes> posts = new ArrayList<>(postCount);
    for (int i = 0; i < postCount; i++) {
      posts.add(readBytes(in));
    }
    if (in.hasRemaining()) {
      throw new IllegalArgumentException("Trailing bytes in file info");
    }
    if (deleteCount > cellCount || firstRow.compareTo(lastRow) > 0) {
      throw new IllegalArgumentException("Inconsistent file info");
    }
    return new FileInfo(
        fileId,
        formatVersion,
        options,
        firstRow,
        lastRow,
        maxSequenceId,
        cellCount,
        deleteCount,
        rawBytes,
        fileBytes,
        posts);
  }

  private static Bytes readBytes(ByteBufferInput in) {
    int length = in.readVarintInt();
    int start = in.skip(length);
    byte[] bytes = new byte[length];
    in.buffer().get(start, bytes);
    return Bytes.wrap(bytes);
  }

  private static long nonNegative(long value) {
    if (value < 0) {
      throw new IllegalArgumentException("Negative count [" + value + "]");
    }
    return value;
  }

  static CairnException corruptedBlock(Path path, long offset, RuntimeException e) {
    if (e instanceof CairnException cairn) {
      return cairn;
    }
    return FileErrors.corrupted(path, offset, "malformed block: " + e.getMessage(), e);
  }

  /** Levels of the block index, the root included (1: the root points at data blocks). */
  int indexLevels() {
    return indexLevels;
  }

  public FileInfo info() {
    return info;
  }

  public Path path() {
    return path;
  }

  /** False only when the file certainly holds no cell of this row (bloom filter, key range). */
  public boolean mightContainRow(Bytes row) {
    requireNonNull(row, "row is null");
    if (info.cellCount() == 0
        || row.compareTo(info.firstRow()) < 0
        || row.compareTo(info.lastRow()) > 0) {
      return false;
    }
    if (bloomIndex == null) {
      return true;
    }
    byte[] key = row.peekArray();
    int chunk;
    long offset = bloomIndex.block().offset();
    try {
      chunk = bloomIndex.floor(key);
      if (chunk < 0) {
        return true;
      }
      offset = bloomIndex.childOffset(chunk);
      int size = bloomIndex.childOnDiskSize(chunk);
      long[] hash = new long[2];
      Murmur3.hash128(key, 0, key.length, hash);
      Block block = source.readBlock(offset, size, BlockType.BLOOM_CHUNK);
      try {
        return BloomChunk.mightContain(block, hash[0], hash[1]);
      } finally {
        block.release();
      }
    } catch (RuntimeException e) {
      throw corruptedBlock(path, offset, e);
    }
  }

  /**
   * A new cursor (implements io.cairn.store.cell.CellCursor); not positioned until seek(). Uses the
   * multi-level index to seek without scanning.
   */
  public CellCursor cursor() {
    return cursor(CachePolicy.CACHE);
  }

  /**
   * As {@link #cursor()}, treating data blocks missing from the block cache by {@code policy}
   * (NO_CACHE: read into pooled buffers, not added to the cache).
   */
  public CellCursor cursor(CachePolicy policy) {
    return new BlockFileCursor(
        path,
        source,
        rootIndex,
        indexLevels,
        info.options().encoding(),
        policy,
        vectors,
        source.cacheId());
  }

  /** Closes the file and drops its blocks from the cache (cursors must be closed first). */
  @Override
  public void close() {
    vectors.evictFile(source.cacheId());
    source.evict();
    source.close();
  }
}
