package io.cairn.core.expr;

import io.cairn.core.encoding.RowReader;
import java.util.Arrays;
import java.util.List;

/**
 * The numeric columns that some {@link RowNumber} trees read, for a batch of up to {@link
 * #CAPACITY} rows: per column a status vector (VALUE, NULL, GENERIC, as {@link RowNumber#eval} sees
 * the column) and a vector of exact values (DECIMAL unscaled at its column's scale, integers) or of
 * doubles. The caller points a {@link RowReader} at each row of the batch in turn and calls {@link
 * #read}; then each tree's {@link RowNumber#evalBatch} computes its values for the whole batch,
 * column by column, every column having been read once per row however often the trees use it.
 *
 * <p>One per scan and thread; allocation free after construction.
 */
public final class NumberBatch {
  /** Rows in a batch, at most. */
  public static final int CAPACITY = 1024;

  private static final byte DECIMAL = RowReader.DECIMAL_AT_SCALE;
  private static final byte INTEGER = RowReader.LONG;
  private static final byte DOUBLE = RowReader.DOUBLE;

  /** Per slot: the layout column, its kind and (DECIMAL) scale. */
  private final int[] columns;

  private final byte[] kinds;
  private final int[] scales;

  /** Per layout column: its slot, or -1. */
  private final int[] slots;

  private final byte[][] status;
  private final long[][] values;
  private final double[][] doubles;

  /** The columns {@code numbers} read, for rows of a layout of {@code columnCount} columns. */
  public NumberBatch(List<RowNumber> numbers, int columnCount) {
    Columns found = new Columns(columnCount);
    for (RowNumber number : numbers) {
      number.addColumns(found);
    }
    int n = found.count;
    columns = Arrays.copyOf(found.columns, n);
    kinds = Arrays.copyOf(found.kinds, n);
    scales = Arrays.copyOf(found.scales, n);
    slots = found.slots;
    status = new byte[n][CAPACITY];
    values = new long[n][];
    doubles = new double[n][];
    for (int i = 0; i < n; i++) {
      if (kinds[i] == DOUBLE) {
        doubles[i] = new double[CAPACITY];
      } else {
        values[i] = new long[CAPACITY];
      }
    }
  }

  /** Reads the columns of the reader's current row as row {@code row} of the batch. */
  public void read(RowReader reader, int row) {
    reader.readNumbers(columns, kinds, scales, status, values, doubles, row);
  }

  /** The columns the trees read, as vectors of a run of rows give them. */
  public List<VectorColumn> vectorColumns() {
    List<VectorColumn> list = new java.util.ArrayList<>(columns.length);
    for (int i = 0; i < columns.length; i++) {
      list.add(new VectorColumn(columns[i], kinds[i], kinds[i] == DECIMAL ? scales[i] : 0));
    }
    return list;
  }

  /**
   * Copies rows of a run's vectors into the batch: batch row {@code i} (0 <= i < n) gets run row
   * {@code selection[from + i]}, or {@code from + i} when {@code selection} is null. {@code
   * columns} is {@link #vectorColumns()} (the same objects, looked up once by the caller).
   */
  public void gather(
      ColumnVectors run, List<VectorColumn> columns, int[] selection, int from, int n) {
    if (n > CAPACITY) {
      throw new IllegalArgumentException(
          "Rows: expected at most " + CAPACITY + ", found [" + n + "]");
    }
    for (int slot = 0; slot < this.columns.length; slot++) {
      NumberVector v = run.numbers(columns.get(slot));
      byte[] to = status[slot];
      if (v.status == null) {
        Arrays.fill(to, 0, n, RowReader.NUMBER_VALUE);
      } else if (selection == null) {
        System.arraycopy(v.status, from, to, 0, n);
      } else {
        for (int i = 0; i < n; i++) {
          to[i] = v.status[selection[from + i]];
        }
      }
      if (v.longs != null) {
        long[] src = v.longs;
        long[] dst = values[slot];
        if (selection == null) {
          System.arraycopy(src, from, dst, 0, n);
        } else {
          for (int i = 0; i < n; i++) {
            dst[i] = src[selection[from + i]];
          }
        }
      } else {
        double[] src = v.doubles;
        double[] dst = doubles[slot];
        if (selection == null) {
          System.arraycopy(src, from, dst, 0, n);
        } else {
          for (int i = 0; i < n; i++) {
            dst[i] = src[selection[from + i]];
          }
        }
      }
    }
  }

  /** The slot of layout column {@code column}, which some tree declared. */
  int slot(int column) {
    int slot = slots[column];
    if (slot < 0) {
      throw new IllegalStateException("Column [" + column + "] was not declared to the batch");
    }
    return slot;
  }

  byte[] status(int slot) {
    return status[slot];
  }

  long[] values(int slot) {
    return values[slot];
  }

  double[] doubles(int slot) {
    return doubles[slot];
  }

  /** The columns the trees declare, each once. */
  static final class Columns {
    private final int[] slots;
    private int[] columns = new int[4];
    private byte[] kinds = new byte[4];
    private int[] scales = new int[4];
    private int count;

    Columns(int columnCount) {
      slots = new int[columnCount];
      Arrays.fill(slots, -1);
    }

    void decimal(int column, int scale) {
      add(column, DECIMAL, scale);
    }

    void integer(int column) {
      add(column, INTEGER, 0);
    }

    void floating(int column) {
      add(column, DOUBLE, 0);
    }

    private void add(int column, byte kind, int scale) {
      int slot = slots[column];
      if (slot >= 0) {
        if (kinds[slot] != kind || scales[slot] != scale) {
          // RowNumber reads a column by its layout type: one kind and scale per column
          throw new IllegalStateException(
              "Column [" + column + "] declared twice with different kinds or scales");
        }
        return;
      }
      if (count == columns.length) {
        columns = Arrays.copyOf(columns, 2 * count);
        kinds = Arrays.copyOf(kinds, 2 * count);
        scales = Arrays.copyOf(scales, 2 * count);
      }
      columns[count] = column;
      kinds[count] = kind;
      scales[count] = scale;
      slots[column] = count++;
    }
  }
}
