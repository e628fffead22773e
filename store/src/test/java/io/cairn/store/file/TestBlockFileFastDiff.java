package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TestBlockFileFastDiff extends BaseBlockFileTest {
  @Override
  DataBlockEncoding encoding() {
    return DataBlockEncoding.FAST_DIFF;
  }

  /**
   * Rows of 1 to 40 versions (puts and deletes) in 64 KiB blocks: many restart points per block,
   * rows whose versions run past the restart interval; every seek (rows, successors, prefixes)
   * lands on the first cell at or after its target.
   */
  @Test
  void seeksThroughRestartPointsWithManyVersions() {
    Random random = new Random(11);
    List<TestingCell> cells = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      Bytes row = TestingCell.bytes(String.format(Locale.ROOT, "key-%07d", i * 3));
      int versions = random.nextInt(10) == 0 ? 1 + random.nextInt(40) : 1;
      for (int v = versions; v > 0; v--) {
        boolean delete = random.nextInt(7) == 0;
        byte[] value = new byte[delete ? 0 : random.nextInt(30)];
        random.nextBytes(value);
        cells.add(new TestingCell(row, v * 10L, delete, Bytes.wrap(value)));
      }
    }
    checkFile(cells, options(64 * 1024));
    checkFile(cells, options(700));
  }

  /**
   * Values are rebuilt only when asked for: cells whose values share prefixes of every length with
   * the previous put's (none, some, all of it; the same and other lengths), deletes in between,
   * read across blocks and restarts by cursors that ask for the value on every cell, every 3rd, at
   * random or once in a long while, and after seeks; each value asked for is the one written.
   */
  @Test
  void valuesReadOnlySometimesAreTheValuesWritten() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    List<TestingCell> cells = sharingCells(random, 3000);
    for (int blockSize : new int[] {300, 4096, 64 * 1024}) {
      Path path = newPath();
      TestingCell.write(path, options(blockSize), cells);
      try (BlockFileReader reader = open(path);
          CellCursor cursor = reader.cursor()) {
        for (int every : new int[] {1, 2, 3, 7, 50, 1000}) {
          assertThat(cursor.seek(Bytes.EMPTY)).isTrue();
          for (int i = 0; i < cells.size(); i++) {
            if (i % every == every - 1) {
              checkCell(
                  cursor,
                  cells.get(i),
                  "seed %s, block size %s, every %s, cell %s",
                  seed,
                  blockSize,
                  every,
                  i);
            }
            assertThat(cursor.advance()).isEqualTo(i + 1 < cells.size());
          }
        }
        for (int seek = 0; seek < 300; seek++) {
          int index = TestingCell.lowerBound(cells, cells.get(random.nextInt(cells.size())).row());
          assertThat(cursor.seek(cells.get(index).row())).isTrue();
          int probability = 1 + random.nextInt(4);
          for (int i = index; i < Math.min(cells.size(), index + 60); i++) {
            if (random.nextInt(probability) == 0) {
              checkCell(
                  cursor,
                  cells.get(i),
                  "seed %s, block size %s, seek to cell %s, cell %s",
                  seed,
                  blockSize,
                  index,
                  i);
            } else {
              assertThat(cursor.sequenceId()).isEqualTo(cells.get(i).sequenceId());
            }
            if (!cursor.advance()) {
              assertThat(i).isEqualTo(cells.size() - 1);
            }
          }
        }
      }
    }
  }

  /** The current cell's row, sequence id, kind and value (asked for twice) match {@code cell}. */
  private static void checkCell(
      CellCursor cursor, TestingCell cell, String message, Object... args) {
    assertThat(TestingCell.current(cursor)).as(message, args).isEqualTo(cell);
    ByteBuffer buffer = cursor.valueBuffer();
    byte[] value = new byte[cursor.valueLength()];
    buffer.get(cursor.valueOffset(), value);
    assertThat(Bytes.wrap(value)).as(message, args).isEqualTo(cell.value());
  }

  /**
   * Rows of 1 to 20 versions, a seventh of them deletes; each put's value shares a random prefix of
   * the previous put's value (often all of it) and is as long or changes length.
   */
  private static List<TestingCell> sharingCells(Random random, int rows) {
    List<TestingCell> cells = new ArrayList<>();
    byte[] previous = new byte[0];
    for (int i = 0; i < rows; i++) {
      Bytes row = TestingCell.bytes(String.format(Locale.ROOT, "row-%06d", i * 7));
      int versions = random.nextInt(8) == 0 ? 1 + random.nextInt(20) : 1;
      for (int v = versions; v > 0; v--) {
        if (random.nextInt(7) == 0) {
          cells.add(new TestingCell(row, v, true, Bytes.EMPTY));
          continue;
        }
        int shared =
            switch (random.nextInt(4)) {
              case 0 -> 0;
              case 1 -> previous.length;
              default -> random.nextInt(previous.length + 1);
            };
        int length =
            random.nextInt(3) == 0
                ? Math.max(shared, previous.length)
                : shared + random.nextInt(random.nextInt(10) == 0 ? 600 : 120);
        byte[] value = java.util.Arrays.copyOf(previous, length);
        for (int j = shared; j < length; j++) {
          value[j] = (byte) random.nextInt(3);
        }
        cells.add(new TestingCell(row, v, false, Bytes.wrap(value)));
        previous = value;
      }
    }
    return cells;
  }

  /**
   * A block's first cell is a restart, a restart starts a new row after at least the interval, and
   * the payload ends with the restarts' offsets and count.
   */
  @Test
  void restartPointsStartNewRowsAfterTheInterval() {
    FastDiffBlockEncoder encoder = new FastDiffBlockEncoder();
    List<Integer> rowStarts = new ArrayList<>();
    int cells = 0;
    for (int row = 0; row < 30; row++) {
      int versions = row == 3 ? 40 : 1 + row % 3;
      for (int v = versions; v > 0; v--) {
        if (v == versions) {
          rowStarts.add(cells);
        }
        encoder.add(
            String.format(Locale.ROOT, "r%03d", row)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8),
            v,
            false,
            new byte[] {(byte) v});
        cells++;
      }
    }
    int sizeBefore = encoder.size();
    encoder.finishBlock();
    byte[] payload = java.util.Arrays.copyOf(encoder.out.peekArray(), encoder.out.size());
    assertThat(payload.length).isEqualTo(sizeBefore);
    java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(payload);
    int restarts = buffer.getInt(payload.length - 4);
    int offsetsStart = payload.length - 4 - 4 * restarts;
    assertThat(restarts).isGreaterThan(2);
    assertThat(buffer.getInt(offsetsStart)).isZero();
    FastDiffBlockDecoder decoder = new FastDiffBlockDecoder();
    decoder.reset(payload, buffer, 0, payload.length);
    List<Integer> restartCells = new ArrayList<>();
    int next = 0;
    for (int i = 0; decoder.next(); i++) {
      if (next < restarts && decoder.in.position() > blockOffset(buffer, offsetsStart, next)) {
        restartCells.add(i);
        next++;
      }
    }
    assertThat(next).isEqualTo(restarts);
    assertThat(rowStarts).containsAll(restartCells);
    for (int i = 1; i < restartCells.size(); i++) {
      assertThat(restartCells.get(i) - restartCells.get(i - 1))
          .isGreaterThanOrEqualTo(FastDiffBlockEncoder.RESTART_INTERVAL);
    }
  }

  private static int blockOffset(java.nio.ByteBuffer buffer, int offsetsStart, int restart) {
    return buffer.getInt(offsetsStart + 4 * restart);
  }
}
