package io.cairn.store.file;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.expr.NumberVector;
import io.cairn.store.cell.BlockRun;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A cursor over a block file. It keeps the path from the root index down to the current data block
 * (one index block and entry per level), so that moving to the next block and seeking both go
 * through the index and the {@link BlockSource}, never by scanning. Cells are decoded without
 * allocation: the row into the decoder's reusable array, the value viewed in the block itself
 * (NONE, PREFIX, ROW_INDEX) or rebuilt in the decoder when {@link #valueBuffer()} asks for it
 * (FAST_DIFF). Each data block is copied to a heap array of the cursor and released as soon as it
 * is read, so values are views of that array. The cursor holds the index blocks on its path,
 * releasing each as it moves past it and all of them at close, on error paths too. Not thread-safe.
 */
final class BlockFileCursor implements CellCursor {
  private final Path path;
  private final BlockSource source;
  private final int levels;
  private final IndexBlock[] indexPath;
  private final int[] entryPath;
  private final DataBlockDecoder decoder;
  private final CachePolicy policy;
  private final boolean decoderKnowsSameRow;
  private final DataBlockEncoding encoding;

  /** The store's vectors of data blocks, and this file's key there. */
  private final VectorCache vectors;

  private final long fileKey;

  /** The current data block's offset in the file, or NO_BLOCK. */
  private long dataOffset = NO_BLOCK;

  private static final long NO_BLOCK = -1;
  private boolean positioned;

  /** Not on a cell: before the first seek, at the end, after an error or close. */
  private boolean exhausted = true;

  private boolean closed;
  private byte[] currentRow = new byte[64];

  /**
   * Arrays of closed cursors for the copies of new ones (a chunked scan opens a cursor per chunk):
   * a few, of at most {@value #MAX_SPARE_BYTES} bytes each.
   */
  private static final ArrayBlockingQueue<byte[]> SPARE_SCRATCH = new ArrayBlockingQueue<>(16);

  private static final int MAX_SPARE_BYTES = 1 << 20;

  private static final byte[] NO_BYTES = new byte[0];
  private static final ByteBuffer NO_BUFFER = ByteBuffer.wrap(NO_BYTES).asReadOnlyBuffer();

  /** A copy of the current data block's payload; reused from block to block. */
  private byte[] scratch = NO_BYTES;

  private ByteBuffer scratchView = NO_BUFFER;

  BlockFileCursor(
      Path path,
      BlockSource source,
      IndexBlock root,
      int levels,
      DataBlockEncoding encoding,
      CachePolicy policy,
      VectorCache vectors,
      long fileKey) {
    this.path = path;
    this.encoding = encoding;
    this.vectors = vectors;
    this.fileKey = fileKey;
    this.source = source;
    this.levels = levels;
    this.indexPath = new IndexBlock[levels];
    this.entryPath = new int[levels];
    this.indexPath[0] = root;
    this.decoder = encoding.newDecoder();
    this.decoderKnowsSameRow = decoder.knowsSameRow();
    this.policy = policy;
  }

  @Override
  public boolean seek(Bytes target) {
    checkNotClosed();
    positioned = true;
    exhausted = true;
    byte[] key = target.peekArray();
    long offset = indexPath[0].block().offset();
    try {
      IndexBlock index = indexPath[0];
      int entry = index.ceiling(key);
      if (entry == index.count()) {
        return false;
      }
      entryPath[0] = entry;
      for (int depth = 1; depth < levels; depth++) {
        offset = index.childOffset(entry);
        index = replaceIndex(depth, index.childOffset(entry), index.childOnDiskSize(entry));
        entry = index.ceiling(key);
        if (entry == index.count()) {
          throw new IllegalArgumentException(
              "Index block's last key is below its parent's key for the same block");
        }
        entryPath[depth] = entry;
      }
      offset = index.childOffset(entry);
      loadDataBlock(offset, index.childOnDiskSize(entry));
      offset = dataOffset;
      if (decoder.seek(key)) {
        exhausted = false;
        return true;
      }
      return nextCellInLaterBlock();
    } catch (RuntimeException e) {
      exhausted = true;
      throw BlockFileReader.corruptedBlock(path, currentOffset(offset), e);
    }
  }

  @Override
  public boolean advance() {
    if (exhausted) {
      checkNotClosed();
      if (!positioned) {
        throw new IllegalStateException("advance() before seek()");
      }
      return false;
    }
    try {
      if (decoder.next()) {
        return true;
      }
      return nextCellInLaterBlock();
    } catch (RuntimeException e) {
      exhausted = true;
      throw BlockFileReader.corruptedBlock(path, currentOffset(-1), e);
    }
  }

  /** Moves to the following data blocks until one has a cell. */
  private boolean nextCellInLaterBlock() {
    while (nextDataBlock()) {
      if (decoder.next()) {
        exhausted = false;
        return true;
      }
    }
    exhausted = true;
    return false;
  }

  private boolean nextDataBlock() {
    int depth = levels - 1;
    while (depth >= 0) {
      entryPath[depth]++;
      if (entryPath[depth] < indexPath[depth].count()) {
        break;
      }
      depth--;
    }
    if (depth < 0) {
      return false;
    }
    for (int d = depth + 1; d < levels; d++) {
      IndexBlock parent = indexPath[d - 1];
      int entry = entryPath[d - 1];
      IndexBlock child = replaceIndex(d, parent.childOffset(entry), parent.childOnDiskSize(entry));
      if (child.count() == 0) {
        throw new IllegalArgumentException("Empty index block below the root");
      }
      entryPath[d] = 0;
    }
    IndexBlock leaf = indexPath[levels - 1];
    int entry = entryPath[levels - 1];
    loadDataBlock(leaf.childOffset(entry), leaf.childOnDiskSize(entry));
    return true;
  }

  private IndexBlock replaceIndex(int depth, long offset, int size) {
    BlockType type = depth == levels - 1 ? BlockType.LEAF_INDEX : BlockType.INTERMEDIATE_INDEX;
    IndexBlock old = indexPath[depth];
    if (old != null) {
      indexPath[depth] = null;
      old.block().release();
    }
    Block block = source.readBlock(offset, size, type);
    IndexBlock index;
    try {
      index = new IndexBlock(block);
    } catch (RuntimeException e) {
      block.release();
      throw BlockFileReader.corruptedBlock(path, offset, e);
    }
    indexPath[depth] = index;
    return index;
  }

  @Override
  public boolean peekBlock(BlockRun run) {
    if (exhausted || closed || !vectors.enabled() || decoder.hasMoreCells()) {
      return false;
    }
    IndexBlock leaf = indexPath[levels - 1];
    int next = entryPath[levels - 1] + 1;
    if (next >= leaf.count()) {
      return false; // the next block is under another index block: read it row by row
    }
    long offset = leaf.childOffset(next);
    BlockVectors block = vectors.get(fileKey, offset);
    int[] missing = missing(block, run);
    if (missing.length > 0 || block == null) {
      if (policy == CachePolicy.NO_CACHE || !vectors.admits()) {
        return false; // read as rows
      }
      BlockVectors built;
      Block read = source.readBlock(offset, leaf.childOnDiskSize(next), BlockType.DATA, policy);
      try {
        int length = read.length();
        byte[] data = new byte[length];
        read.buffer().get(read.start(), data, 0, length);
        built = BlockVectorBuilder.build(data, length, encoding, run, missing);
      } catch (RuntimeException e) {
        throw BlockFileReader.corruptedBlock(path, offset, e);
      } finally {
        read.release();
      }
      block = vectors.put(fileKey, offset, built);
    }
    run.describe(
        block.rows,
        block.plain,
        block.minSequenceId,
        block.maxSequenceId,
        block.firstRow,
        block.lastRow);
    if (block.plain) {
      for (int i = 0; i < run.columnCount(); i++) {
        NumberVector v = block.find(run.key(i));
        if (v == null) {
          return false; // evicted meanwhile
        }
        run.vector(i, v);
      }
    }
    return true;
  }

  /** The indexes of {@code run}'s columns that {@code block} (null: none) lacks. */
  private static int[] missing(BlockVectors block, BlockRun run) {
    int n = run.columnCount();
    if (block == null) {
      int[] all = new int[n];
      for (int i = 0; i < n; i++) {
        all[i] = i;
      }
      return all;
    }
    if (!block.plain) {
      return NONE_MISSING;
    }
    int[] missing = new int[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (block.find(run.key(i)) == null) {
        missing[count++] = i;
      }
    }
    return count == 0 ? NONE_MISSING : Arrays.copyOf(missing, count);
  }

  /** {@link #missing} of a block that lacks nothing (the common case: no allocation per block). */
  private static final int[] NONE_MISSING = new int[0];

  @Override
  public void skipBlock() {
    if (exhausted || decoder.hasMoreCells()) {
      throw new IllegalStateException("skipBlock() without a block peeked");
    }
    int next = entryPath[levels - 1] + 1;
    if (next >= indexPath[levels - 1].count()) {
      throw new IllegalStateException("skipBlock() past the index block");
    }
    // the decoder stays at the last cell of the block before: the next advance() reads the block
    // after the skipped one
    entryPath[levels - 1] = next;
  }

  /**
   * Makes the data block at {@code offset} current: its payload is copied into the cursor's heap
   * array and the block released at once, so decoding reads a plain array (no buffer bounds or
   * bulk-copy stubs per cell) and the cursor holds no cache memory between calls.
   */
  private void loadDataBlock(long offset, int size) {
    dataOffset = NO_BLOCK;
    Block block = source.readBlock(offset, size, BlockType.DATA, policy);
    int length = block.length();
    try {
      ensureScratch(length);
      block.buffer().get(block.start(), scratch, 0, length);
      dataOffset = block.offset();
    } finally {
      block.release();
    }
    decoder.reset(scratch, scratchView, 0, length);
  }

  /**
   * Makes {@link #scratch} hold at least {@code length} bytes: a spare array of a closed cursor, or
   * a new one with room to spare.
   */
  private void ensureScratch(int length) {
    if (scratch.length < length) {
      byte[] spare = SPARE_SCRATCH.poll();
      scratch =
          spare != null && spare.length >= length
              ? spare
              : new byte[Math.max((length + (length >> 2) + 4095) & ~4095, 2 * scratch.length)];
      scratchView = ByteBuffer.wrap(scratch);
    }
  }

  private long currentOffset(long fallback) {
    return dataOffset != NO_BLOCK ? dataOffset : fallback;
  }

  @Override
  public byte[] rowArray() {
    checkCell();
    return decoder.rowArray;
  }

  @Override
  public int rowOffset() {
    checkCell();
    return decoder.rowOffset;
  }

  @Override
  public int rowLength() {
    checkCell();
    return decoder.rowLength;
  }

  @Override
  public long sequenceId() {
    checkCell();
    return decoder.sequenceId;
  }

  @Override
  public boolean isDelete() {
    checkCell();
    return decoder.delete;
  }

  @Override
  public ByteBuffer valueBuffer() {
    checkCell();
    return decoder.valueBuffer();
  }

  @Override
  public int valueOffset() {
    checkCell();
    return decoder.valueOffset;
  }

  @Override
  public int valueLength() {
    checkCell();
    return decoder.valueLength;
  }

  @Override
  public boolean nextRow() {
    if (exhausted) {
      checkNotClosed();
      if (!positioned) {
        throw new IllegalStateException("nextRow() before seek()");
      }
      return false;
    }
    if (decoderKnowsSameRow) {
      // the decoder compares each row with the one before it, across blocks too
      while (advance()) {
        if (!decoder.sameRowAsPrevious) {
          return true;
        }
      }
      return false;
    }
    // Compares decoded rows in place rather than making a Bytes of each version's row.
    int length = decoder.rowLength;
    if (currentRow.length < length) {
      currentRow = new byte[Math.max(length, currentRow.length * 2)];
    }
    System.arraycopy(decoder.rowArray, decoder.rowOffset, currentRow, 0, length);
    while (advance()) {
      if (!decoder.sameRowAsPrevious
          && !Arrays.equals(
              decoder.rowArray,
              decoder.rowOffset,
              decoder.rowOffset + decoder.rowLength,
              currentRow,
              0,
              length)) {
        return true;
      }
    }
    return false;
  }

  private void checkCell() {
    if (exhausted) {
      throw new IllegalStateException("Cursor is not on a cell");
    }
  }

  private void checkNotClosed() {
    if (closed) {
      throw new IllegalStateException("Cursor is closed");
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    exhausted = true;
    dataOffset = NO_BLOCK;
    if (scratch.length > 0 && scratch.length <= MAX_SPARE_BYTES) {
      SPARE_SCRATCH.offer(scratch); // dropped when enough are kept
    }
    scratch = NO_BYTES;
    scratchView = NO_BUFFER;
    for (int depth = 1; depth < levels; depth++) {
      if (indexPath[depth] != null) {
        indexPath[depth].block().release();
        indexPath[depth] = null;
      }
    }
  }
}
