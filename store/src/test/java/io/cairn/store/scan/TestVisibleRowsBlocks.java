package io.cairn.store.scan;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.store.cell.BlockRun;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link VisibleRows} offering whole blocks ({@link VisibleRows#peekBlock}) of a cursor that cuts
 * its cells into blocks as a block file does (anywhere, also between two versions of a row): the
 * rows read one at a time plus those of the blocks skipped are the visible rows, each once.
 */
class TestVisibleRowsBlocks {
  private record Cell(String row, long sequenceId, boolean delete, int block) {}

  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(new RowLayout.ColumnLayout(1, DataType.BIGINT)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static BlockRun run() {
    return new BlockRun(LAYOUT, new RowReader(LAYOUT, new boolean[] {true}), List.of());
  }

  @Test
  void aRowWhoseVersionsEndOneBlockAndStartTheNextIsOneRow() {
    List<Cell> cells =
        List.of(
            new Cell("a", 1, false, 0),
            new Cell("b", 1, false, 0),
            new Cell("r", 1, false, 0),
            new Cell("x", 5, false, 1), // block 1: only x's newer version
            new Cell("x", 2, false, 2), // block 2 starts with x's older one
            new Cell("y", 1, false, 2),
            new Cell("z", 1, false, 3));
    assertThat(readSkippingBlocks(cells, KeyRange.ALL, 10, new Random(0), 1.0))
        .containsExactly("a", "b", "r", "x", "y", "z");
  }

  @Test
  void rowsReadAndBlocksSkippedAreTheVisibleRows() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int round = 0; round < 500; round++) {
      List<Cell> cells = new ArrayList<>();
      int block = 0;
      int inBlock = 0;
      int rows = random.nextInt(60);
      for (int i = 0; i < rows; i++) {
        String row = String.format("%04d", i * 3);
        int versions = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 1;
        long sequenceId = 2L + random.nextInt(20);
        for (int v = 0; v < versions; v++) {
          if (inBlock > 0 && random.nextInt(4) == 0) {
            block++;
            inBlock = 0;
          }
          cells.add(new Cell(row, sequenceId - v, random.nextInt(10) == 0, block));
          inBlock++;
        }
      }
      long readPoint = 1L + random.nextInt(22);
      String start = String.format("%04d", random.nextInt(200));
      String stop = random.nextBoolean() ? "" : String.format("%04d", random.nextInt(200));
      if (!stop.isEmpty() && stop.compareTo(start) < 0) {
        stop = "";
      }
      KeyRange range = new KeyRange(bytes(start), stop.isEmpty() ? Bytes.EMPTY : bytes(stop));
      assertThat(readSkippingBlocks(cells, range, readPoint, random, 0.7))
          .as("seed %d, round %d", seed, round)
          .isEqualTo(model(cells, start, stop, readPoint));
    }
  }

  /** The visible rows: per row the newest version at or below the read point, if a put. */
  private static List<String> model(List<Cell> cells, String start, String stop, long readPoint) {
    TreeMap<String, Cell> newest = new TreeMap<>();
    for (Cell c : cells) {
      if (c.row.compareTo(start) >= 0
          && (stop.isEmpty() || c.row.compareTo(stop) < 0)
          && c.sequenceId <= readPoint) {
        Cell seen = newest.get(c.row);
        if (seen == null || seen.sequenceId < c.sequenceId) {
          newest.put(c.row, c);
        }
      }
    }
    List<String> rows = new ArrayList<>();
    newest.forEach(
        (row, c) -> {
          if (!c.delete) {
            rows.add(row);
          }
        });
    return rows;
  }

  /** Reads the rows, skipping each block offered with probability {@code skip}. */
  private static List<String> readSkippingBlocks(
      List<Cell> cells, KeyRange range, long readPoint, Random random, double skip) {
    BlockedCells cursor = new BlockedCells(cells);
    List<String> rows = new ArrayList<>();
    BlockRun run = run();
    try (VisibleRows visible = new VisibleRows(cursor, range, readPoint)) {
      while (true) {
        if (visible.peekBlock(run) && random.nextDouble() < skip) {
          assertThat(run.size()).isEqualTo(cursor.peekedRows().size());
          rows.addAll(cursor.peekedRows());
          visible.skipBlock();
          continue;
        }
        if (!visible.next()) {
          break;
        }
        rows.add(
            new String(
                Arrays.copyOfRange(
                    visible.keyArray(),
                    visible.keyOffset(),
                    visible.keyOffset() + visible.keyLength()),
                UTF_8));
      }
    }
    return rows;
  }

  private static Bytes bytes(String s) {
    return Bytes.wrap(s.getBytes(UTF_8));
  }

  /**
   * Cells cut into blocks, read as a block file's cursor reads them: a skipped block leaves the
   * cursor showing its current cell, and the next advance reads the block after the skipped one.
   */
  private static final class BlockedCells implements CellCursor {
    private final List<Cell> cells;
    private int shown = -1;
    private int position = -1;
    private int peekedBlock = -1;

    BlockedCells(List<Cell> cells) {
      this.cells = cells;
    }

    List<String> peekedRows() {
      List<String> rows = new ArrayList<>();
      for (Cell c : cells) {
        if (c.block == peekedBlock) {
          rows.add(c.row);
        }
      }
      return rows;
    }

    @Override
    public boolean seek(Bytes row) {
      String target = new String(row.toByteArray(), UTF_8);
      position = 0;
      while (position < cells.size() && cells.get(position).row.compareTo(target) < 0) {
        position++;
      }
      shown = position;
      return position < cells.size();
    }

    @Override
    public boolean advance() {
      position++;
      shown = position;
      return position < cells.size();
    }

    @Override
    public boolean peekBlock(BlockRun run) {
      if (position < 0 || position >= cells.size()) {
        return false;
      }
      int block = cells.get(position).block;
      if (position + 1 < cells.size() && cells.get(position + 1).block == block) {
        return false; // not at the block's last cell
      }
      List<Cell> next = new ArrayList<>();
      for (Cell c : cells) {
        if (c.block == block + 1) {
          next.add(c);
        }
      }
      if (next.isEmpty()) {
        return false;
      }
      boolean plain = true;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (int i = 0; i < next.size(); i++) {
        Cell c = next.get(i);
        plain &= !c.delete && (i == 0 || !c.row.equals(next.get(i - 1).row));
        min = Math.min(min, c.sequenceId);
        max = Math.max(max, c.sequenceId);
      }
      run.describe(
          next.size(),
          plain,
          min,
          max,
          next.get(0).row.getBytes(UTF_8),
          next.get(next.size() - 1).row.getBytes(UTF_8));
      peekedBlock = block + 1;
      return true;
    }

    @Override
    public void skipBlock() {
      while (position + 1 < cells.size() && cells.get(position + 1).block <= peekedBlock) {
        position++;
      }
      // shown stays: the cursor still shows the cell it was on
    }

    private Cell cell() {
      return cells.get(shown);
    }

    @Override
    public byte[] rowArray() {
      return cell().row.getBytes(UTF_8);
    }

    @Override
    public int rowOffset() {
      return 0;
    }

    @Override
    public int rowLength() {
      return cell().row.length();
    }

    @Override
    public long sequenceId() {
      return cell().sequenceId;
    }

    @Override
    public boolean isDelete() {
      return cell().delete;
    }

    @Override
    public ByteBuffer valueBuffer() {
      return ByteBuffer.allocate(0);
    }

    @Override
    public int valueOffset() {
      return 0;
    }

    @Override
    public int valueLength() {
      return 0;
    }

    @Override
    public void close() {}
  }
}
