package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.cache.BlockCacheConfig;
import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.BufferPoolConfig;
import io.cairn.store.cache.CombinedBlockCache;
import io.cairn.store.cell.CellCursor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Truncation at every length and a bit flip at every byte of small files, sampled positions of a
 * bigger one: opening and reading everything (scan, seek to every row, bloom check of every row)
 * must fail with DATA_CORRUPTED naming the file and an offset, or UNSUPPORTED_FORMAT_VERSION when a
 * version field was hit; never a wrong answer or another exception. Reads go through pooled direct
 * buffers and a block cache, and every buffer must be back in the pool after each failure.
 */
class TestBlockFileCorruption {
  @TempDir Path directory;
  private final BufferPool pool =
      new BufferPool("corruption test reads", new BufferPoolConfig(70 * 1024, 0, 4));
  private final ReadContext context =
      new ReadContext(
          pool,
          new CombinedBlockCache(
              BlockCacheConfig.defaults().withL1Bytes(64 << 10).withL2Bytes(520 << 10),
              pool.config().poolBytes()));

  @AfterEach
  void everyBufferIsBack() {
    context.cache().close();
    assertThat(pool.stats().usedBuffers()).as("pooled buffers still out").isZero();
    assertThat(pool.checkLeaks()).isEmpty();
    pool.close();
  }

  @Test
  void everyTruncationAndEveryBitFlipOfSmallFiles() throws IOException {
    for (DataBlockEncoding encoding : DataBlockEncoding.values()) {
      Compression compression =
          encoding == DataBlockEncoding.FAST_DIFF ? Compression.LZ4 : Compression.NONE;
      List<TestingCell> cells = TestingCell.random(new Random(encoding.id()), 16);
      byte[] file = writeFile(new BlockFileOptions(encoding, compression, 64, true, 50), cells);
      for (int length = 0; length < file.length; length++) {
        checkDamaged(java.util.Arrays.copyOf(file, length), cells, -1, "truncated to " + length);
      }
      for (int position = 0; position < file.length; position++) {
        byte[] damaged = file.clone();
        damaged[position] ^= (byte) (1 << (position % 8));
        checkDamaged(damaged, cells, position, "bit flipped at " + position);
      }
    }
  }

  @Test
  void sampledDamageOfABiggerFile() throws IOException {
    List<TestingCell> cells = TestingCell.random(new Random(99), 5000);
    byte[] file =
        writeFile(
            new BlockFileOptions(DataBlockEncoding.FAST_DIFF, Compression.ZSTD, 512, true, 1000),
            cells);
    Random random = new Random(5);
    for (int i = 0; i < 150; i++) {
      int position = random.nextInt(file.length);
      byte[] damaged = file.clone();
      damaged[position] ^= (byte) (1 + random.nextInt(255));
      checkDamaged(damaged, cells, position, "byte changed at " + position);
      int length = random.nextInt(file.length);
      checkDamaged(java.util.Arrays.copyOf(file, length), cells, -1, "truncated to " + length);
    }
  }

  @Test
  void newerVersionIsUnsupported() throws IOException {
    List<TestingCell> cells = TestingCell.random(new Random(1), 10);
    byte[] file = writeFile(BlockFileOptions.DEFAULT, cells);
    file[BlockFileFormat.HEADER_VERSION_OFFSET + 3] = BlockFileFormat.VERSION + 1;
    Path path = directory.resolve("newer.blk");
    Files.write(path, file);
    try {
      BlockFileReader.open(path).close();
      fail("opened a file of a newer version");
    } catch (CairnException e) {
      assertThat(e.errorCode()).isEqualTo(ErrorCode.UNSUPPORTED_FORMAT_VERSION);
      assertThat(e.getMessage())
          .contains(path.toString())
          .contains("expected [1] to [2], found [3]");
    }
  }

  @Test
  void missingFileIsAnIoError() {
    Path path = directory.resolve("missing.blk");
    try {
      BlockFileReader.open(path).close();
      fail("opened a missing file");
    } catch (CairnException e) {
      assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR);
      assertThat(e.getMessage()).contains(path.toString());
    }
  }

  private byte[] writeFile(BlockFileOptions options, List<TestingCell> cells) throws IOException {
    Path path = directory.resolve("original.blk");
    Files.deleteIfExists(path);
    TestingCell.write(path, options, cells);
    return Files.readAllBytes(path);
  }

  private void checkDamaged(byte[] bytes, List<TestingCell> cells, int position, String what)
      throws IOException {
    Path path = directory.resolve("damaged.blk");
    Files.write(path, bytes);
    try {
      readEverything(path, cells);
      fail("no error for a file " + what);
    } catch (CairnException e) {
      boolean versionField =
          position >= 0
              && ((position >= BlockFileFormat.HEADER_VERSION_OFFSET
                      && position < BlockFileFormat.HEADER_VERSION_OFFSET + 4)
                  || (position >= bytes.length - BlockFileFormat.TRAILER_SIZE + 48
                      && position < bytes.length - BlockFileFormat.TRAILER_SIZE + 52));
      ErrorCode expected =
          versionField ? ErrorCode.UNSUPPORTED_FORMAT_VERSION : ErrorCode.DATA_CORRUPTED;
      assertThat(e.errorCode()).as("file %s: %s", what, e.getMessage()).isEqualTo(expected);
      assertThat(e.getMessage()).as(what).contains(path.toString());
      if (expected == ErrorCode.DATA_CORRUPTED) {
        assertThat(e.getMessage()).as(what).contains("at offset [");
      }
    } catch (RuntimeException e) {
      throw new AssertionError("file " + what + " threw " + e, e);
    }
  }

  /** Reads every byte of the file through the API; fails on any wrong answer. */
  private void readEverything(Path path, List<TestingCell> cells) {
    try (BlockFileReader reader = BlockFileReader.open(path, context);
        CellCursor cursor = reader.cursor()) {
      List<TestingCell> scanned = TestingCell.drain(cursor, cursor.seek(Bytes.EMPTY));
      assertThat(scanned).isEqualTo(cells);
      List<Bytes> rows = new ArrayList<>();
      for (TestingCell cell : cells) {
        rows.add(cell.row());
      }
      for (Bytes row : rows) {
        assertThat(cursor.seek(row)).isTrue();
        assertThat(cursor.row()).isEqualTo(row);
        assertThat(reader.mightContainRow(row)).isTrue();
      }
    }
  }
}
