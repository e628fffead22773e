package io.cairn.store.file;

import static io.cairn.store.file.BlockFileFormat.BLOCK_HEADER_SIZE;
import static io.cairn.store.file.BlockFileFormat.BLOOM_BITS_PER_ROW;
import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.io.ByteArrayOutput;
import io.cairn.store.io.Checksums;
import io.cairn.store.io.FileErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes one immutable block file (docs/format-blockfile.md): cells in order into data blocks of
 * about {@code blockSize} uncompressed bytes, leaf index and bloom chunks inline as they fill, then
 * the bloom index, the upper index levels, the file info and the trailer. Memory stays bounded by a
 * few blocks plus one entry per leaf index block. Not thread-safe.
 */
public final class BlockFileWriter implements AutoCloseable {
  private enum State {
    OPEN,
    FINISHED,
    ABORTED,
    FAILED
  }

  private record Entry(byte[] key, long offset, int onDiskSize) {}

  private final Path path;
  private final long fileId;
  private final BlockFileOptions options;
  private final BlockCompressor compressor;
  private FileChannel channel;
  private State state = State.OPEN;
  private long position;

  private final DataBlockEncoder encoder;
  private final ByteArrayOutput blockOut = new ByteArrayOutput(64 * 1024);
  private final ByteArrayOutput payloadOut = new ByteArrayOutput(1024);

  private final IndexBlockWriter leaf = new IndexBlockWriter();
  private final List<Entry> leafEntries = new ArrayList<>();

  private final int bloomCapacity;
  private long[] bloomH1 = new long[64];
  private long[] bloomH2 = new long[64];
  private int bloomCount;
  private byte[] bloomFirstRow;
  private final List<Entry> bloomEntries = new ArrayList<>();
  private final long[] hash = new long[2];

  private byte[] firstRow;
  private byte[] lastRow = new byte[64];
  private int lastRowLength;
  private long lastSequenceId;
  private long maxSequenceId;
  private long cellCount;
  private long deleteCount;
  private long rawBytes;
  private long rawSinceGuidePost;
  private final List<Bytes> guidePosts = new ArrayList<>();

  private BlockFileWriter(Path path, long fileId, BlockFileOptions options, FileChannel channel) {
    this.path = path;
    this.fileId = fileId;
    this.options = options;
    this.channel = channel;
    this.compressor = BlockCompressor.of(options.compression());
    this.encoder = options.encoding().newEncoder();
    this.bloomCapacity =
        (int) Math.max(1, Math.min(1 << 17, (long) options.blockSize() * 8 / BLOOM_BITS_PER_ROW));
  }

  /** Creates the file at path (must not exist). */
  public static BlockFileWriter create(Path path, long fileId, BlockFileOptions options) {
    requireNonNull(path, "path is null");
    requireNonNull(options, "options is null");
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw FileErrors.ioError(path, "create", e);
    }
    BlockFileWriter writer = new BlockFileWriter(path, fileId, options, channel);
    try {
      writer.writeHeader();
    } catch (RuntimeException e) {
      writer.abort();
      throw e;
    }
    return writer;
  }

  /**
   * Appends a cell; cells must come in strictly increasing (row asc, seq desc) order, else
   * IllegalArgumentException. A delete's value must be empty.
   */
  public void append(Bytes row, long sequenceId, boolean delete, Bytes value) {
    requireNonNull(row, "row is null");
    requireNonNull(value, "value is null");
    append(
        row.peekArray(), 0, row.length(), sequenceId, delete, value.peekArray(), 0, value.length());
  }

  /**
   * Appends a cell given as slices of arrays the caller may reuse once this returns (the writer
   * copies what it keeps); the same order and rules as {@link #append(Bytes, long, boolean,
   * Bytes)}.
   */
  public void append(
      byte[] row,
      int rowOffset,
      int rowLength,
      long sequenceId,
      boolean delete,
      byte[] value,
      int valueOffset,
      int valueLength) {
    checkOpen();
    if (sequenceId < 0) {
      throw new IllegalArgumentException("Negative sequence id [" + sequenceId + "]");
    }
    if (delete && valueLength != 0) {
      throw new IllegalArgumentException(
          "A delete has an empty value, found ["
              + Bytes.copyOf(value, valueOffset, valueLength)
              + "]");
    }
    boolean newRow = true;
    if (cellCount > 0) {
      int c =
          Arrays.compareUnsigned(row, rowOffset, rowOffset + rowLength, lastRow, 0, lastRowLength);
      if (c < 0 || (c == 0 && sequenceId >= lastSequenceId)) {
        throw new IllegalArgumentException(
            "Cells out of order: ["
                + Bytes.copyOf(row, rowOffset, rowLength)
                + "] seq ["
                + sequenceId
                + "] after ["
                + Bytes.copyOf(lastRow, 0, lastRowLength)
                + "] seq ["
                + lastSequenceId
                + "]");
      }
      newRow = c != 0;
    }
    try {
      if (encoder.cellCount > 0 && encoder.size() >= options.blockSize()) {
        flushDataBlock(
            IndexBlockWriter.separator(lastRow, lastRowLength, row, rowOffset, rowLength));
      }
      encoder.add(row, rowOffset, rowLength, sequenceId, delete, value, valueOffset, valueLength);
      if (newRow && options.rowBloom()) {
        addToBloom(row, rowOffset, rowLength);
      }
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
    if (firstRow == null) {
      firstRow = Arrays.copyOfRange(row, rowOffset, rowOffset + rowLength);
    }
    if (newRow) {
      lastRow = DataBlockEncoder.keep(lastRow, row, rowOffset, rowLength);
      lastRowLength = rowLength;
    }
    lastSequenceId = sequenceId;
    maxSequenceId = Math.max(maxSequenceId, sequenceId);
    cellCount++;
    if (delete) {
      deleteCount++;
    }
    int raw = rowLength + valueLength;
    rawBytes += raw;
    rawSinceGuidePost += raw;
    if (rawSinceGuidePost >= options.guidePostWidth()) {
      if (guidePosts.isEmpty() || !guidePosts.get(guidePosts.size() - 1).equals(lastRow())) {
        guidePosts.add(lastRow());
      }
      rawSinceGuidePost = 0;
    }
  }

  /** A copy of the last row appended (empty before the first). */
  private Bytes lastRow() {
    return Bytes.copyOf(lastRow, 0, lastRowLength);
  }

  /** Bytes written so far (approximate, for size-based roll decisions). */
  public long bytesWritten() {
    return position + encoder.size();
  }

  /** Writes index, bloom, file info, trailer; fsyncs the file; closes; returns the file info. */
  public FileInfo finish() {
    checkOpen();
    try {
      if (encoder.cellCount > 0) {
        flushDataBlock(Arrays.copyOf(lastRow, lastRowLength));
      }
      long bloomIndexOffset = 0;
      int bloomIndexSize = 0;
      if (options.rowBloom()) {
        flushBloomChunk();
        IndexBlockWriter bloomIndex = new IndexBlockWriter();
        for (Entry entry : bloomEntries) {
          bloomIndex.add(entry.key, entry.offset, entry.onDiskSize);
        }
        bloomIndex.finish(payloadOut);
        bloomIndexOffset = position;
        bloomIndexSize = writeBlock(BlockType.BLOOM_INDEX, payloadOut, true);
      }
      // Index: a root over the data blocks, or leaf blocks under as many levels as needed.
      int levels = 1;
      BlockType rootType = BlockType.ROOT_INDEX;
      IndexBlockWriter root;
      if (leafEntries.isEmpty()) {
        root = leaf;
      } else {
        if (leaf.count() > 0) {
          flushLeaf();
        }
        List<Entry> level = leafEntries;
        levels = 2;
        while (level.size() > 1 && serializedSize(level) > options.blockSize()) {
          level = writeIntermediateLevel(level);
          levels++;
        }
        root = new IndexBlockWriter();
        for (Entry entry : level) {
          root.add(entry.key, entry.offset, entry.onDiskSize);
        }
      }
      root.finish(payloadOut);
      long rootOffset = position;
      int rootSize = writeBlock(rootType, payloadOut, true);

      writeFileInfo(payloadOut);
      long fileInfoOffset = position;
      int fileInfoSize = writeBlock(BlockType.FILE_INFO, payloadOut, false);

      blockOut.reset();
      blockOut.writeLong(fileInfoOffset);
      blockOut.writeInt(fileInfoSize);
      blockOut.writeLong(rootOffset);
      blockOut.writeInt(rootSize);
      blockOut.writeInt(levels);
      blockOut.writeLong(bloomIndexOffset);
      blockOut.writeInt(bloomIndexSize);
      blockOut.writeLong(fileId);
      blockOut.writeInt(BlockFileFormat.VERSION);
      blockOut.writeInt(BlockFileFormat.TRAILER_MAGIC);
      blockOut.writeInt(Checksums.crc32c(blockOut.peekArray(), 0, blockOut.size()));
      write(blockOut);
      channel.force(true);
      channel.close();
      channel = null;
    } catch (IOException e) {
      state = State.FAILED;
      throw FileErrors.ioError(path, "write", e);
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
    state = State.FINISHED;
    return info(position);
  }

  /**
   * Closes (if open) and deletes the partial file; idempotent; close() without finish() = abort().
   */
  public void abort() {
    if (state == State.FINISHED || state == State.ABORTED) {
      return;
    }
    state = State.ABORTED;
    try {
      if (channel != null) {
        channel.close();
        channel = null;
      }
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw FileErrors.ioError(path, "delete", e);
    }
  }

  @Override
  public void close() {
    abort();
  }

  private FileInfo info(long fileBytes) {
    return new FileInfo(
        fileId,
        BlockFileFormat.VERSION,
        options,
        firstRow == null ? Bytes.EMPTY : Bytes.wrap(firstRow),
        lastRow(),
        maxSequenceId,
        cellCount,
        deleteCount,
        rawBytes,
        fileBytes,
        guidePosts);
  }

  private void checkOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("Writer of [" + path + "] is " + state);
    }
  }

  private void writeHeader() {
    blockOut.reset();
    blockOut.writeInt(BlockFileFormat.HEADER_MAGIC);
    blockOut.writeByte(BlockFileFormat.FORMAT_NAME_BYTES.length);
    blockOut.writeBytes(
        BlockFileFormat.FORMAT_NAME_BYTES, 0, BlockFileFormat.FORMAT_NAME_BYTES.length);
    blockOut.writeInt(BlockFileFormat.VERSION);
    blockOut.writeLong(fileId);
    blockOut.writeInt(Checksums.crc32c(blockOut.peekArray(), 0, blockOut.size()));
    try {
      write(blockOut);
    } catch (IOException e) {
      state = State.FAILED;
      throw FileErrors.ioError(path, "write", e);
    }
  }

  private void flushDataBlock(byte[] indexKey) {
    encoder.finishBlock();
    long offset = position;
    int size;
    try {
      size = writeBlock(BlockType.DATA, encoder.out, true);
    } catch (IOException e) {
      state = State.FAILED;
      throw FileErrors.ioError(path, "write", e);
    }
    encoder.reset();
    leaf.add(indexKey, offset, size);
    if (leaf.count() >= 2 && leaf.size() >= options.blockSize()) {
      flushLeaf();
    }
  }

  private void flushLeaf() {
    leaf.finish(payloadOut);
    long offset = position;
    try {
      int size = writeBlock(BlockType.LEAF_INDEX, payloadOut, true);
      leafEntries.add(new Entry(leaf.lastKey(), offset, size));
    } catch (IOException e) {
      state = State.FAILED;
      throw FileErrors.ioError(path, "write", e);
    }
    leaf.reset();
  }

  private List<Entry> writeIntermediateLevel(List<Entry> level) throws IOException {
    List<Entry> parents = new ArrayList<>();
    IndexBlockWriter block = new IndexBlockWriter();
    for (int i = 0; i < level.size(); i++) {
      Entry entry = level.get(i);
      block.add(entry.key, entry.offset, entry.onDiskSize);
      boolean last = i == level.size() - 1;
      // At least two entries a block (so each level halves), and no single-entry tail block.
      boolean full =
          block.count() >= 2 && block.size() >= options.blockSize() && i < level.size() - 2;
      if (full || last) {
        block.finish(payloadOut);
        long offset = position;
        int size = writeBlock(BlockType.INTERMEDIATE_INDEX, payloadOut, true);
        parents.add(new Entry(block.lastKey(), offset, size));
        block.reset();
      }
    }
    return parents;
  }

  private static long serializedSize(List<Entry> level) {
    long size = 4;
    for (Entry entry : level) {
      size += 4 + 3 * 10 + entry.key.length;
    }
    return size;
  }

  private void addToBloom(byte[] row, int offset, int length) {
    if (bloomCount == 0) {
      bloomFirstRow = Arrays.copyOfRange(row, offset, offset + length);
    }
    Murmur3.hash128(row, offset, length, hash);
    if (bloomCount == bloomH1.length) {
      int capacity = Math.min(bloomCapacity, bloomCount * 2);
      bloomH1 = Arrays.copyOf(bloomH1, capacity);
      bloomH2 = Arrays.copyOf(bloomH2, capacity);
    }
    bloomH1[bloomCount] = hash[0];
    bloomH2[bloomCount] = hash[1];
    bloomCount++;
    if (bloomCount == bloomCapacity) {
      flushBloomChunk();
    }
  }

  private void flushBloomChunk() {
    if (bloomCount == 0) {
      return;
    }
    BloomChunk.build(bloomH1, bloomH2, bloomCount, payloadOut);
    long offset = position;
    try {
      int size = writeBlock(BlockType.BLOOM_CHUNK, payloadOut, false);
      bloomEntries.add(new Entry(bloomFirstRow, offset, size));
    } catch (IOException e) {
      state = State.FAILED;
      throw FileErrors.ioError(path, "write", e);
    }
    bloomCount = 0;
    bloomFirstRow = null;
  }

  private void writeFileInfo(ByteArrayOutput out) {
    out.reset();
    out.writeByte(options.encoding().id());
    out.writeByte(options.compression().id());
    out.writeVarint(options.blockSize());
    out.writeByte(options.rowBloom() ? 1 : 0);
    out.writeVarint(options.guidePostWidth());
    byte[] first = firstRow == null ? new byte[0] : firstRow;
    byte[] last = Arrays.copyOf(lastRow, lastRowLength);
    out.writeVarint(first.length);
    out.writeBytes(first, 0, first.length);
    out.writeVarint(last.length);
    out.writeBytes(last, 0, last.length);
    out.writeVarint(maxSequenceId);
    out.writeVarint(cellCount);
    out.writeVarint(deleteCount);
    out.writeVarint(rawBytes);
    out.writeVarint(guidePosts.size());
    for (Bytes post : guidePosts) {
      out.writeVarint(post.length());
      out.writeBytes(post.peekArray(), 0, post.length());
    }
  }

  /**
   * Writes a block (header, payload compressed with the file's compression when {@code compress}
   * and that makes it smaller, crc32c); returns its on-disk size.
   */
  private int writeBlock(BlockType type, ByteArrayOutput payload, boolean compress)
      throws IOException {
    int length = payload.size();
    Compression compression = compress ? options.compression() : Compression.NONE;
    blockOut.reset();
    blockOut.writeByte(type.id());
    blockOut.writeByte(Compression.NONE.id());
    blockOut.writeInt(length);
    blockOut.writeInt(length);
    int stored = length;
    if (compression != Compression.NONE) {
      blockOut.ensureCapacity(compressor.maxCompressedLength(length) + 4);
      int compressed =
          compressor.compress(
              payload.peekArray(), 0, length, blockOut.peekArray(), BLOCK_HEADER_SIZE);
      if (compressed < length) {
        stored = compressed;
        blockOut.skip(compressed);
        blockOut.peekArray()[1] = (byte) compression.id();
        blockOut.setInt(6, compressed);
      }
    }
    if (stored == length) {
      blockOut.writeBytes(payload.peekArray(), 0, length);
    }
    blockOut.writeInt(Checksums.crc32c(blockOut.peekArray(), 0, blockOut.size()));
    int size = blockOut.size();
    write(blockOut);
    return size;
  }

  private void write(ByteArrayOutput out) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(out.peekArray(), 0, out.size());
    while (buffer.hasRemaining()) {
      position += channel.write(buffer);
    }
  }
}
