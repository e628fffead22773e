package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.CellCursor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/** A cell of the test model, and helpers to generate, write and read cells. */
record TestingCell(Bytes row, long sequenceId, boolean delete, Bytes value) {
  static final Comparator<TestingCell> ORDER =
      Comparator.comparing(TestingCell::row)
          .thenComparing(TestingCell::sequenceId, Comparator.reverseOrder());

  TestingCell {
    requireNonNull(row, "row is null");
    requireNonNull(value, "value is null");
  }

  static TestingCell put(String row, long sequenceId, String value) {
    return new TestingCell(bytes(row), sequenceId, false, bytes(value));
  }

  static TestingCell delete(String row, long sequenceId) {
    return new TestingCell(bytes(row), sequenceId, true, Bytes.EMPTY);
  }

  static Bytes bytes(String s) {
    return Bytes.wrap(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * Random sorted distinct cells: rows over a small alphabet (shared prefixes, unsigned bytes),
   * several versions of some rows, deletes, empty and long values.
   */
  static List<TestingCell> random(Random random, int count) {
    List<TestingCell> cells = new ArrayList<>();
    byte[] alphabet = {0, 1, 'a', 'b', (byte) 0x7F, (byte) 0x80, (byte) 0xFF};
    for (int i = 0; i < count; i++) {
      byte[] row = new byte[random.nextInt(random.nextInt(10) == 0 ? 40 : 6)];
      for (int j = 0; j < row.length; j++) {
        row[j] = alphabet[random.nextInt(alphabet.length)];
      }
      long seq =
          switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(5);
            case 2 -> random.nextInt(1000);
            default -> random.nextLong() & Long.MAX_VALUE;
          };
      boolean delete = random.nextInt(8) == 0;
      byte[] value = new byte[delete ? 0 : random.nextInt(random.nextInt(10) == 0 ? 300 : 12)];
      for (int j = 0; j < value.length; j++) {
        value[j] = (byte) (j < 3 ? 7 : random.nextInt(4));
      }
      cells.add(new TestingCell(Bytes.wrap(row), seq, delete, Bytes.wrap(value)));
    }
    return dedupe(cells);
  }

  /** Sorts and drops cells with a (row, sequence id) seen before. */
  static List<TestingCell> dedupe(List<TestingCell> cells) {
    List<TestingCell> sorted = new ArrayList<>(cells);
    sorted.sort(ORDER);
    List<TestingCell> result = new ArrayList<>();
    for (TestingCell cell : sorted) {
      if (!result.isEmpty()) {
        TestingCell last = result.get(result.size() - 1);
        if (last.row.equals(cell.row) && last.sequenceId == cell.sequenceId) {
          continue;
        }
      }
      result.add(cell);
    }
    return result;
  }

  static FileInfo write(Path path, BlockFileOptions options, List<TestingCell> cells) {
    try (BlockFileWriter writer = BlockFileWriter.create(path, 42, options)) {
      for (TestingCell cell : cells) {
        writer.append(cell.row, cell.sequenceId, cell.delete, cell.value);
      }
      return writer.finish();
    }
  }

  static TestingCell current(CellCursor cursor) {
    return new TestingCell(cursor.row(), cursor.sequenceId(), cursor.isDelete(), cursor.value());
  }

  /** Every cell from the cursor's current one (inclusive) to the end. */
  static List<TestingCell> drain(CellCursor cursor, boolean positioned) {
    List<TestingCell> cells = new ArrayList<>();
    if (!positioned) {
      return cells;
    }
    do {
      cells.add(current(cursor));
    } while (cursor.advance());
    return cells;
  }

  /** Index of the first cell whose row is at or after {@code row}. */
  static int lowerBound(List<TestingCell> cells, Bytes row) {
    int low = 0;
    int high = cells.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (cells.get(mid).row.compareTo(row) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
