package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
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
    decoder.reset(Block.onHeap(BlockType.DATA, 0, payload.length, payload));
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
