package io.cairn.store.file;

import static io.cairn.store.file.TestingCell.bytes;
import static io.cairn.store.file.TestingCell.delete;
import static io.cairn.store.file.TestingCell.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.io.FileTrees;
import io.cairn.store.cache.BlockCacheConfig;
import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.BufferPoolConfig;
import io.cairn.store.cache.CombinedBlockCache;
import io.cairn.store.cell.CellCursor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every data block encoding (and compression) meets: subclasses name the encoding and
 * compression, the tests write files with several block sizes and read them back against a sorted
 * list of cells.
 */
abstract class BaseBlockFileTest {
  private Path directory;
  private int fileNumber;
  private BufferPool pool;
  private ReadContext context;

  abstract DataBlockEncoding encoding();

  Compression compression() {
    return Compression.NONE;
  }

  BlockFileOptions options(int blockSize) {
    return new BlockFileOptions(encoding(), compression(), blockSize, true, 100);
  }

  @BeforeEach
  void createDirectory() throws IOException {
    directory = Files.createTempDirectory("blockfile");
    // a few pooled direct buffers (every block size is pooled) and heap buffers past them
    pool = new BufferPool("test reads", new BufferPoolConfig(70 * 1024, 0, 4));
    context =
        new ReadContext(
            pool,
            new CombinedBlockCache(
                BlockCacheConfig.defaults().withL1Bytes(64 << 10).withL2Bytes(520 << 10),
                pool.config().poolBytes()));
  }

  /** Opens a reader that reads through the test's pool (direct memory) and cache. */
  BlockFileReader open(Path path) {
    return BlockFileReader.open(path, context);
  }

  @AfterEach
  void deleteDirectory() throws IOException {
    if (pool != null) {
      context.cache().close();
      assertThat(pool.stats().usedBuffers()).as("pooled buffers still out").isZero();
      assertThat(pool.checkLeaks()).isEmpty();
      pool.close();
      pool = null;
    }
    if (directory != null) {
      FileTrees.deleteRecursively(directory);
      directory = null;
    }
  }

  Path newPath() {
    return directory.resolve("file-" + fileNumber++ + ".blk");
  }

  @Property(tries = 60)
  void roundTripsRandomCells(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 600) int count,
      @ForAll @IntRange(min = 0, max = 3) int blockSizeChoice)
      throws IOException {
    int blockSize = new int[] {1, 48, 512, 64 * 1024}[blockSizeChoice];
    createDirectory();
    try {
      List<TestingCell> cells = TestingCell.random(new Random(seed), count);
      checkFile(cells, options(blockSize));
    } finally {
      deleteDirectory();
    }
  }

  @Test
  void versionsDeletesAndEmptyValues() {
    List<TestingCell> cells =
        List.of(
            put("", 3, "empty row"),
            put("a", 9, ""),
            delete("a", 8),
            put("a", 7, "v7"),
            put("a", 0, "v0"),
            delete("b", 5),
            put("b", 4, ""),
            put("b\u0000", 1, "x"),
            put("c", Long.MAX_VALUE, "max"),
            put("c", 1L << 40, "big"),
            put("c", 0, "zero"));
    for (int blockSize : new int[] {1, 20, 64 * 1024}) {
      checkFile(cells, options(blockSize));
    }
  }

  @Test
  void longKeysAndValuesLargerThanTheBlock() {
    Random random = new Random(7);
    List<TestingCell> cells = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      byte[] row = new byte[300 + random.nextInt(3000)];
      random.nextBytes(row);
      byte[] value = new byte[random.nextInt(5000)];
      random.nextBytes(value);
      cells.add(new TestingCell(Bytes.wrap(row), i, false, Bytes.wrap(value)));
    }
    checkFile(TestingCell.dedupe(cells), options(256));
  }

  @Test
  void manySmallBlocksBuildSeveralIndexLevels() {
    List<TestingCell> cells = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      cells.add(put(String.format(java.util.Locale.ROOT, "row%06d", i), 0, "v" + i));
    }
    Path path = checkFile(cells, options(64));
    try (BlockFileReader reader = open(path)) {
      assertThat(reader.indexLevels()).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void emptyFile() {
    Path path = newPath();
    FileInfo info = TestingCell.write(path, options(64), List.of());
    assertThat(info.cellCount()).isZero();
    assertThat(info.firstRow()).isEqualTo(Bytes.EMPTY);
    try (BlockFileReader reader = open(path);
        CellCursor cursor = reader.cursor()) {
      assertThat(reader.info()).isEqualTo(info);
      assertThat(cursor.seek(Bytes.EMPTY)).isFalse();
      assertThat(cursor.advance()).isFalse();
      assertThat(reader.mightContainRow(Bytes.EMPTY)).isFalse();
    }
  }

  @Test
  void fileInfo() {
    List<TestingCell> cells =
        List.of(put("a", 5, "12345"), delete("b", 9), put("c", 2, "1234567890"));
    Path path = newPath();
    FileInfo written =
        TestingCell.write(
            path, new BlockFileOptions(encoding(), compression(), 64, false, 6), cells);
    try (BlockFileReader reader = open(path)) {
      FileInfo info = reader.info();
      assertThat(info).isEqualTo(written);
      assertThat(info.fileId()).isEqualTo(42);
      assertThat(info.formatVersion()).isEqualTo(BlockFileFormat.VERSION);
      assertThat(info.options().rowBloom()).isFalse();
      assertThat(info.firstRow()).isEqualTo(bytes("a"));
      assertThat(info.lastRow()).isEqualTo(bytes("c"));
      assertThat(info.maxSequenceId()).isEqualTo(9);
      assertThat(info.cellCount()).isEqualTo(3);
      assertThat(info.deleteCount()).isEqualTo(1);
      assertThat(info.rawBytes()).isEqualTo(1 + 5 + 1 + 1 + 10);
      assertThat(info.fileBytes()).isEqualTo(Files.size(path));
      // 6 raw bytes reached at "a", then "b" (1 byte) + "c" (11 bytes).
      assertThat(info.guidePosts()).containsExactly(bytes("a"), bytes("c"));
      assertThat(reader.mightContainRow(bytes("b"))).isTrue();
      assertThat(reader.mightContainRow(bytes("0"))).isFalse();
      assertThat(reader.mightContainRow(bytes("d"))).isFalse();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void rejectsCellsOutOfOrder() {
    Path path = newPath();
    try (BlockFileWriter writer = BlockFileWriter.create(path, 1, options(64))) {
      writer.append(bytes("b"), 5, false, bytes("x"));
      assertThatThrownBy(() -> writer.append(bytes("a"), 9, false, bytes("x")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> writer.append(bytes("b"), 5, false, bytes("x")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> writer.append(bytes("b"), 6, false, bytes("x")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> writer.append(bytes("c"), -1, false, bytes("x")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> writer.append(bytes("c"), 1, true, bytes("x")))
          .isInstanceOf(IllegalArgumentException.class);
      writer.append(bytes("b"), 4, true, Bytes.EMPTY);
      assertThat(writer.bytesWritten()).isPositive();
    }
    // close() without finish() deletes the partial file
    assertThat(Files.exists(path)).isFalse();
  }

  @Test
  void abortIsIdempotentAndCreateRefusesAnExistingFile() throws IOException {
    Path path = newPath();
    BlockFileWriter writer = BlockFileWriter.create(path, 1, options(64));
    writer.append(bytes("a"), 1, false, bytes("x"));
    writer.abort();
    writer.abort();
    writer.close();
    assertThat(Files.exists(path)).isFalse();
    Files.write(path, new byte[] {1});
    assertThatThrownBy(() -> BlockFileWriter.create(path, 1, options(64)))
        .hasMessageContaining(path.toString());
  }

  @Test
  void cursorReuseAfterSeekingBackwards() {
    List<TestingCell> cells = TestingCell.random(new Random(3), 400);
    Path path = checkFile(cells, options(128));
    Random random = new Random(11);
    try (BlockFileReader reader = open(path);
        CellCursor cursor = reader.cursor()) {
      for (int i = 0; i < 300; i++) {
        TestingCell target = cells.get(random.nextInt(cells.size()));
        int expected = TestingCell.lowerBound(cells, target.row());
        assertThat(cursor.seek(target.row())).isTrue();
        int steps = random.nextInt(20);
        for (int s = 0; s <= steps && expected + s < cells.size(); s++) {
          assertThat(TestingCell.current(cursor)).isEqualTo(cells.get(expected + s));
          assertThat(cursor.advance()).isEqualTo(expected + s + 1 < cells.size());
        }
      }
    }
  }

  @Test
  void nextRowSkipsVersions() {
    List<TestingCell> cells = TestingCell.random(new Random(5), 500);
    Path path = checkFile(cells, options(100));
    List<Bytes> rows = cells.stream().map(TestingCell::row).distinct().toList();
    try (BlockFileReader reader = open(path);
        CellCursor cursor = reader.cursor()) {
      List<Bytes> seen = new ArrayList<>();
      if (cursor.seek(Bytes.EMPTY)) {
        do {
          seen.add(cursor.row());
        } while (cursor.nextRow());
      }
      assertThat(seen).isEqualTo(rows);
    }
  }

  @Test
  void concurrentCursors() throws Exception {
    List<TestingCell> cells = TestingCell.random(new Random(9), 2000);
    Path path = checkFile(cells, options(256));
    ExecutorService executor = Executors.newFixedThreadPool(4);
    try (BlockFileReader reader = open(path)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long seed = t;
        futures.add(
            executor.submit(
                () -> {
                  Random random = new Random(seed);
                  try (CellCursor cursor = reader.cursor()) {
                    for (int i = 0; i < 200; i++) {
                      TestingCell target = cells.get(random.nextInt(cells.size()));
                      int expected = TestingCell.lowerBound(cells, target.row());
                      assertThat(cursor.seek(target.row())).isTrue();
                      for (int s = 0; s < 30 && expected + s < cells.size(); s++) {
                        assertThat(TestingCell.current(cursor)).isEqualTo(cells.get(expected + s));
                        cursor.advance();
                      }
                      assertThat(reader.mightContainRow(target.row())).isTrue();
                    }
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void bloomFilterRejectsMostAbsentRows() {
    List<TestingCell> cells = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      cells.add(put(String.format(java.util.Locale.ROOT, "k%07d", i * 2), 0, "v"));
    }
    Path path = newPath();
    TestingCell.write(path, options(4096), cells);
    try (BlockFileReader reader = open(path)) {
      int falsePositives = 0;
      for (int i = 0; i < 5000; i++) {
        assertThat(reader.mightContainRow(cells.get(i).row())).isTrue();
        if (reader.mightContainRow(
            bytes(String.format(java.util.Locale.ROOT, "k%07d", i * 2 + 1)))) {
          falsePositives++;
        }
      }
      assertThat(falsePositives).isLessThan(5000 * 3 / 100);
    }
  }

  /** Writes, then checks a full scan, seeks to every row and around it, and the bloom filter. */
  Path checkFile(List<TestingCell> cells, BlockFileOptions options) {
    Path path = newPath();
    FileInfo written = TestingCell.write(path, options, cells);
    assertThat(written.cellCount()).isEqualTo(cells.size());
    try (BlockFileReader reader = open(path);
        CellCursor cursor = reader.cursor()) {
      assertThat(reader.info()).isEqualTo(written);
      assertThat(reader.path()).isEqualTo(path);
      assertThatThrownBy(cursor::advance).isInstanceOf(IllegalStateException.class);
      assertThat(TestingCell.drain(cursor, cursor.seek(Bytes.EMPTY))).isEqualTo(cells);
      assertThat(cursor.advance()).isFalse();
      List<Bytes> targets = new ArrayList<>();
      for (TestingCell cell : cells) {
        targets.add(cell.row());
        targets.add(cell.row().successor());
        if (!cell.row().isEmpty()) {
          byte[] shorter = cell.row().toByteArray();
          targets.add(Bytes.copyOf(shorter, 0, shorter.length - 1));
        }
      }
      targets.add(bytes("\u00ff\u00ff\u00ff"));
      for (Bytes target : targets) {
        int expected = TestingCell.lowerBound(cells, target);
        boolean found = cursor.seek(target);
        assertThat(found).as("seek %s", target).isEqualTo(expected < cells.size());
        if (found) {
          assertThat(TestingCell.current(cursor)).isEqualTo(cells.get(expected));
          // the next two cells too, crossing blocks
          for (int i = 1; i < 3 && expected + i < cells.size(); i++) {
            assertThat(cursor.advance()).isTrue();
            assertThat(TestingCell.current(cursor)).isEqualTo(cells.get(expected + i));
          }
        }
      }
      for (TestingCell cell : cells) {
        assertThat(reader.mightContainRow(cell.row())).isTrue();
      }
    }
    return path;
  }
}
