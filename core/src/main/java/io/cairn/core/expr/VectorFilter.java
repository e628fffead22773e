package io.cairn.core.expr;

import io.cairn.core.encoding.ByteRuns;
import io.cairn.core.encoding.RowReader;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a bound {@link RowFilter} that runs over column vectors ({@link ColumnVectors}, a
 * data block's rows): {@link #select} writes the indexes of the rows for which it is TRUE. When
 * {@link #complete()}, those are exactly the rows {@link RowFilter#test} keeps; otherwise a
 * superset (the conjuncts it could not vectorize are left out) and the caller tests each selected
 * row with the RowFilter. Made by {@link RowFilter#vectorFilter()}.
 *
 * <h2>Evaluation</h2>
 *
 * A tree of parts: AND narrows a selection vector child after child (the first child over all rows,
 * the next ones over the survivors, in place); OR marks the rows each child selects and keeps the
 * marked ones in order; a leaf is one primitive loop over a column's {@code long[]} or {@code
 * double[]} for the whole selection, its operator chosen once per call (comparisons are turned at
 * construction into a closed range of values, possibly negated, exact for every constant), reading
 * the NULL status only when the vector has NULLs. Leaves select only rows with a value; IS NULL and
 * IS DISTINCT FROM (NULL or different) are leaves of their own or ORs of them.
 *
 * <p>Parts never raise errors. With an incomplete filter the caller tests only the selected rows,
 * so an error that the RowFilter would raise for a row the vectors reject (a left-out conjunct's,
 * e.g. a failed cast, evaluated by the RowFilter before or after a FALSE or UNKNOWN one) is not
 * raised: SQL leaves the evaluation order of conjuncts open.
 *
 * <p>Not thread-safe: it keeps scratch arrays (an OR's marks and buffer, sized at first use and
 * grown with the blocks) and the vectors of the current call, so {@link #select} allocates nothing
 * once they reach the block size. Use one per scan and thread; {@link RowFilter#vectorFilter()}
 * makes a new one per call.
 */
public final class VectorFilter {
  private final List<VectorColumn> columns;
  private final VectorColumn[] columnArray;
  private final boolean complete;
  private final Part root;

  /** Per slot (index in {@link #columns}), the vector of the current {@link #select}. */
  private final NumberVector[] vectors;

  VectorFilter(Part root, boolean complete) {
    List<VectorColumn> found = new ArrayList<>();
    root.register(found);
    this.columns = List.copyOf(found);
    this.columnArray = found.toArray(new VectorColumn[0]);
    this.complete = complete;
    this.root = root;
    this.vectors = new NumberVector[columnArray.length];
  }

  /** The columns {@link #select} reads, each once. */
  public List<VectorColumn> columns() {
    return columns;
  }

  /**
   * Column {@code i} of {@link #columns()}, for loops run per block (a list's class depends on its
   * size, which a loop compiled for one size deoptimizes on).
   */
  public VectorColumn column(int i) {
    return columnArray[i];
  }

  /** How many columns {@link #columns()} holds. */
  public int columnCount() {
    return columnArray.length;
  }

  /** Whether the rows it selects are exactly those the RowFilter keeps. */
  public boolean complete() {
    return complete;
  }

  /**
   * Writes into {@code selection} (at least {@code rows.size()} long) the ascending indexes of the
   * rows of {@code rows} for which the filter is TRUE and returns how many. The caller makes sure
   * that no column of {@link #columns()} has a NUMBER_UNFIT row ({@link NumberVector#unfit} 0).
   */
  public int select(ColumnVectors rows, int[] selection) {
    return select(rows, null, rows.size(), selection);
  }

  /**
   * As {@link #select(ColumnVectors, int[])}, of the rows at {@code in[0, n)} (ascending; all rows
   * when {@code in} is null): the ones the filter keeps, written into {@code selection} (may be
   * {@code in}).
   */
  public int select(ColumnVectors rows, int[] in, int n, int[] selection) {
    int size = rows.size();
    if (selection.length < size) {
      throw new IllegalArgumentException(
          "selection: expected at least " + size + " entries, found [" + selection.length + "]");
    }
    for (int s = 0; s < columnArray.length; s++) {
      VectorColumn column = columnArray[s];
      NumberVector v = rows.numbers(column);
      boolean doubles = column.kind() == RowReader.DOUBLE;
      if (v.size() != size || (doubles ? v.doubles == null : v.longs == null) || v.unfit != 0) {
        throw new IllegalArgumentException(
            "Vector of " + column + ": expected " + size + " rows of its kind without unfit ones");
      }
      vectors[s] = v;
    }
    try {
      return size == 0 || n == 0
          ? 0
          : root.select(this, size, in, in == null ? size : n, selection);
    } finally {
      for (int s = 0; s < vectors.length; s++) {
        vectors[s] = null; // the block's vectors are not ours to keep
      }
    }
  }

  @Override
  public String toString() {
    return "VectorFilter[" + root + (complete ? "" : ", incomplete") + "]";
  }

  // ================================================================ parts (built by RowFilter)

  /** All rows (TRUE) or none (FALSE, UNKNOWN). */
  static Part constant(boolean all) {
    return all ? Constant.ALL : Constant.NONE;
  }

  /**
   * No row, from a comparison of {@code column} that no value of its vector can satisfy: it still
   * declares the column, whose NUMBER_UNFIT rows (values beyond the longs) the caller must read one
   * by one.
   */
  static Part empty(VectorColumn column) {
    return new Empty(column);
  }

  /** The rows where {@code column} is NULL ({@code nulls}) or is not. */
  static Part nulls(VectorColumn column, boolean nulls) {
    return new Nulls(column, nulls);
  }

  /**
   * The rows where a LONG or DECIMAL_AT_SCALE {@code column} has a value {@code v} with {@code (lo
   * <= v && v <= hi) != negate} (an empty range when lo > hi).
   */
  static Part longValues(VectorColumn column, long lo, long hi, boolean negate) {
    if (lo > hi) {
      return negate ? nulls(column, false) : empty(column);
    }
    if (lo == Long.MIN_VALUE && hi == Long.MAX_VALUE) {
      return negate ? empty(column) : nulls(column, false);
    }
    return new LongRange(column, lo, hi, negate);
  }

  /**
   * The rows where a DOUBLE {@code column} has a value {@code v} with {@code (lo <= v && v <= hi)
   * != negate} as IEEE compares (NaN is in no range).
   */
  static Part doubleValues(VectorColumn column, double lo, double hi, boolean negate) {
    return new DoubleRange(column, lo, hi, negate);
  }

  /**
   * The rows where a SHORT_CHARS {@code column} has the value {@code bytes} of more than 7 bytes
   * ({@code negate}: has another value).
   */
  static Part longString(VectorColumn column, byte[] bytes, boolean negate) {
    return new LongString(column, bytes.clone(), negate);
  }

  /**
   * The rows where a {@link VectorColumn#BYTES} {@code column} has a value (not NULL) whose bytes
   * hold {@code runs} as {@link ByteRuns#like} finds them, or with {@code negate} does not.
   */
  static Part like(
      VectorColumn column,
      byte[][] runs,
      boolean anchoredStart,
      boolean anchoredEnd,
      boolean negate) {
    if (column.kind() != VectorColumn.BYTES) {
      throw new IllegalArgumentException(
          "LIKE over bytes: expected a BYTES column, found " + column);
    }
    return new Like(column, runs, anchoredStart, anchoredEnd, negate);
  }

  /** The rows where a LONG {@code column} has a value among {@code keys} (sorted, distinct). */
  static Part longIn(VectorColumn column, long[] keys) {
    if (keys.length == 0) {
      return empty(column);
    }
    if (keys.length == 1) {
      return longValues(column, keys[0], keys[0], false);
    }
    return new LongIn(column, keys.clone());
  }

  /**
   * The rows where exact columns {@code a} and {@code b} (vectors at the same scale) both have a
   * value and {@code Long.compare(a, b)} is one that {@code signs} has (bit 0: below, 1: equal, 2:
   * above).
   */
  static Part longLong(VectorColumn a, VectorColumn b, int signs) {
    return new LongLong(a, b, signs);
  }

  /**
   * Rows TRUE for every part. Ranges on one column are intersected into the first one ({@code x >=
   * a AND x < b}, BETWEEN: one pass instead of two).
   */
  static Part and(List<Part> parts) {
    List<Part> flat = new ArrayList<>();
    for (Part part : parts) {
      if (part instanceof And and) {
        flat.addAll(List.of(and.children));
      } else {
        flat.add(part);
      }
    }
    List<Part> kept = new ArrayList<>();
    for (Part part : flat) {
      if (part == Constant.NONE) {
        return Constant.NONE;
      }
      if (part == Constant.ALL) {
        continue;
      }
      int same = sameColumnRange(kept, part);
      if (same >= 0) {
        Part merged = intersect(kept.get(same), part);
        if (merged == Constant.NONE) {
          return Constant.NONE;
        }
        kept.set(same, merged);
      } else {
        kept.add(part);
      }
    }
    return kept.isEmpty()
        ? Constant.ALL
        : kept.size() == 1 ? kept.get(0) : new And(kept.toArray(new Part[0]));
  }

  /** The index in {@code parts} of a range (not negated) on the column of range {@code part}. */
  private static int sameColumnRange(List<Part> parts, Part part) {
    if (!(part instanceof LongRange || part instanceof DoubleRange) || negated(part)) {
      return -1;
    }
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p.getClass() == part.getClass()
          && !negated(p)
          && ((Leaf) p).column.equals(((Leaf) part).column)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean negated(Part range) {
    return range instanceof LongRange r ? r.negate : ((DoubleRange) range).negate;
  }

  /** Two ranges (not negated) of one column as one (IEEE: -0.0 and 0.0 bound alike). */
  private static Part intersect(Part a, Part b) {
    if (a instanceof LongRange x && b instanceof LongRange y) {
      return longValues(x.column, Math.max(x.lo, y.lo), Math.min(x.hi, y.hi), false);
    }
    DoubleRange x = (DoubleRange) a;
    DoubleRange y = (DoubleRange) b;
    double lo = Math.max(x.lo, y.lo);
    double hi = Math.min(x.hi, y.hi);
    return lo <= hi ? doubleValues(x.column, lo, hi, false) : empty(x.column);
  }

  /** Rows TRUE for some part. */
  static Part or(List<Part> parts) {
    List<Part> flat = new ArrayList<>();
    for (Part part : parts) {
      if (part == Constant.ALL) {
        return Constant.ALL;
      }
      if (part instanceof Or or) {
        flat.addAll(List.of(or.children));
      } else if (part != Constant.NONE) {
        flat.add(part);
      }
    }
    return flat.isEmpty()
        ? Constant.NONE
        : flat.size() == 1 ? flat.get(0) : new Or(flat.toArray(new Part[0]));
  }

  /** Whether {@code part} selects every row (a TRUE that is no filter at all). */
  static boolean selectsAll(Part part) {
    return part == Constant.ALL;
  }

  /**
   * A node of the tree. {@link #select} writes into {@code out} the rows among {@code in[0, n)}
   * (ascending; all rows {@code [0, size)} when {@code in} is null, then {@code n == size}) for
   * which it is TRUE, in order, and returns how many; {@code out} may be {@code in} (each leaf
   * writes entry k only after reading entry k).
   */
  abstract static class Part {
    abstract int select(VectorFilter f, int size, int[] in, int n, int[] out);

    /** Adds the columns it reads to {@code columns} (each once) and learns their slots. */
    abstract void register(List<VectorColumn> columns);

    static int slot(List<VectorColumn> columns, VectorColumn column) {
      int slot = columns.indexOf(column);
      if (slot < 0) {
        slot = columns.size();
        columns.add(column);
      }
      return slot;
    }
  }

  /** {@code in} (or all rows) copied to {@code out}. */
  private static int all(int size, int[] in, int n, int[] out) {
    if (in == null) {
      for (int i = 0; i < size; i++) {
        out[i] = i;
      }
      return size;
    }
    if (in != out) {
      System.arraycopy(in, 0, out, 0, n);
    }
    return n;
  }

  private static final class Constant extends Part {
    static final Constant ALL = new Constant(true);
    static final Constant NONE = new Constant(false);

    private final boolean selectsAll;

    private Constant(boolean selectsAll) {
      this.selectsAll = selectsAll;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      return selectsAll ? all(size, in, n, out) : 0;
    }

    @Override
    void register(List<VectorColumn> columns) {}

    @Override
    public String toString() {
      return selectsAll ? "ALL" : "NONE";
    }
  }

  /** A part reading one column, at {@link #slot} in the filter's vectors. */
  private abstract static class Leaf extends Part {
    final VectorColumn column;
    int slot = -1;

    Leaf(VectorColumn column) {
      this.column = column;
    }

    @Override
    final void register(List<VectorColumn> columns) {
      slot = slot(columns, column);
    }

    String name() {
      return "#" + column.column();
    }
  }

  /** No row, reading a column (see {@link VectorFilter#empty}). */
  private static final class Empty extends Leaf {
    Empty(VectorColumn column) {
      super(column);
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      return 0;
    }

    @Override
    public String toString() {
      return "EMPTY(" + name() + ")";
    }
  }

  private static final class Nulls extends Leaf {
    private final boolean nulls;

    Nulls(VectorColumn column, boolean nulls) {
      super(column);
      this.nulls = nulls;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      return select(f.vectors[slot], nulls, size, in, n, out);
    }

    static int select(NumberVector v, boolean nulls, int size, int[] in, int n, int[] out) {
      byte[] status = v.status;
      if (status == null || v.nulls == 0) {
        return nulls ? 0 : all(size, in, n, out);
      }
      byte wanted = nulls ? RowReader.NUMBER_NULL : RowReader.NUMBER_VALUE;
      int m = 0;
      if (in == null) {
        for (int i = 0; i < size; i++) {
          out[m] = i;
          m += status[i] == wanted ? 1 : 0;
        }
      } else {
        for (int k = 0; k < n; k++) {
          int i = in[k];
          out[m] = i;
          m += status[i] == wanted ? 1 : 0;
        }
      }
      return m;
    }

    @Override
    public String toString() {
      return name() + (nulls ? " IS NULL" : " IS NOT NULL");
    }
  }

  /**
   * {@code (lo <= v && v <= hi) != negate}, as one unsigned comparison: {@code v - lo <= hi - lo}
   * unsigned, i.e. {@code v + bias <= limit} signed.
   */
  private static final class LongRange extends Leaf {
    private final long lo;
    private final long hi;
    private final long bias;
    private final long limit;
    private final boolean negate;

    LongRange(VectorColumn column, long lo, long hi, boolean negate) {
      super(column);
      this.lo = lo;
      this.hi = hi;
      this.bias = Long.MIN_VALUE - lo;
      this.limit = (hi - lo) + Long.MIN_VALUE;
      this.negate = negate;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      return select(f.vectors[slot], bias, limit, negate, size, in, n, out);
    }

    static int select(
        NumberVector v,
        long bias,
        long limit,
        boolean negate,
        int size,
        int[] in,
        int n,
        int[] out) {
      long[] x = v.longs;
      byte[] status = v.nulls == 0 ? null : v.status;
      int m = 0;
      if (in == null) {
        if (status == null) {
          for (int i = 0; i < size; i++) {
            out[m] = i;
            m += (x[i] + bias <= limit) != negate ? 1 : 0;
          }
        } else {
          for (int i = 0; i < size; i++) {
            out[m] = i;
            m += ((x[i] + bias <= limit) != negate) & status[i] == RowReader.NUMBER_VALUE ? 1 : 0;
          }
        }
      } else {
        if (status == null) {
          for (int k = 0; k < n; k++) {
            int i = in[k];
            out[m] = i;
            m += (x[i] + bias <= limit) != negate ? 1 : 0;
          }
        } else {
          for (int k = 0; k < n; k++) {
            int i = in[k];
            out[m] = i;
            m += ((x[i] + bias <= limit) != negate) & status[i] == RowReader.NUMBER_VALUE ? 1 : 0;
          }
        }
      }
      return m;
    }

    @Override
    public String toString() {
      String range =
          lo == hi
              ? "= " + lo
              : lo == Long.MIN_VALUE
                  ? "<= " + hi
                  : hi == Long.MAX_VALUE ? ">= " + lo : "IN [" + lo + ", " + hi + "]";
      return (negate ? "NOT " : "") + name() + " " + range;
    }
  }

  /**
   * The rows of a {@link VectorColumn#SHORT_CHARS} column whose value is {@code bytes} (over 7
   * bytes: one of the vector's {@link NumberVector#strings}), or with {@code negate} another value.
   */
  private static final class LongString extends Leaf {
    private final byte[] bytes;
    private final boolean negate;

    LongString(VectorColumn column, byte[] bytes, boolean negate) {
      super(column);
      this.bytes = bytes;
      this.negate = negate;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      NumberVector v = f.vectors[slot];
      int index = v.stringIndex(bytes);
      if (index < 0) {
        return negate ? Nulls.select(v, false, size, in, n, out) : 0;
      }
      long t = VectorColumn.LONG_STRING | index;
      // v == t as LongRange tests it: v - t + MIN <= MIN
      return LongRange.select(v, Long.MIN_VALUE - t, Long.MIN_VALUE, negate, size, in, n, out);
    }

    @Override
    public String toString() {
      return name() + (negate ? " <> " : " = ") + "[" + bytes.length + " bytes]";
    }
  }

  /** A LIKE of literal runs and {@code %} over a BYTES column's values (see {@link #like}). */
  private static final class Like extends Leaf {
    private final byte[][] runs;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;
    private final boolean negate;

    Like(
        VectorColumn column,
        byte[][] runs,
        boolean anchoredStart,
        boolean anchoredEnd,
        boolean negate) {
      super(column);
      this.runs = runs;
      this.anchoredStart = anchoredStart;
      this.anchoredEnd = anchoredEnd;
      this.negate = negate;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      NumberVector v = f.vectors[slot];
      long[] x = v.longs;
      byte[] heap = v.heap;
      byte[] status = v.nulls == 0 ? null : v.status;
      int count = in == null ? size : n;
      int m = 0;
      for (int k = 0; k < count; k++) {
        int i = in == null ? k : in[k];
        if (status != null && status[i] != RowReader.NUMBER_VALUE) {
          continue; // NULL (NOT) LIKE: UNKNOWN
        }
        int start = VectorColumn.sliceOffset(x[i]);
        int end = start + VectorColumn.sliceLength(x[i]);
        if (ByteRuns.like(heap, start, end, runs, anchoredStart, anchoredEnd) != negate) {
          out[m++] = i;
        }
      }
      return m;
    }

    @Override
    public String toString() {
      return name() + (negate ? " NOT" : "") + " LIKE [" + runs.length + " runs]";
    }
  }

  /** {@code (lo <= v && v <= hi) != negate} over doubles (IEEE: NaN is in no range). */
  private static final class DoubleRange extends Leaf {
    private final double lo;
    private final double hi;
    private final boolean negate;

    DoubleRange(VectorColumn column, double lo, double hi, boolean negate) {
      super(column);
      this.lo = lo;
      this.hi = hi;
      this.negate = negate;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      NumberVector v = f.vectors[slot];
      double[] x = v.doubles;
      byte[] status = v.nulls == 0 ? null : v.status;
      double lo = this.lo;
      double hi = this.hi;
      boolean negate = this.negate;
      int m = 0;
      if (in == null) {
        if (status == null) {
          for (int i = 0; i < size; i++) {
            double d = x[i];
            out[m] = i;
            m += (d >= lo & d <= hi) != negate ? 1 : 0;
          }
        } else {
          for (int i = 0; i < size; i++) {
            double d = x[i];
            out[m] = i;
            m += ((d >= lo & d <= hi) != negate) & status[i] == RowReader.NUMBER_VALUE ? 1 : 0;
          }
        }
      } else {
        if (status == null) {
          for (int k = 0; k < n; k++) {
            int i = in[k];
            double d = x[i];
            out[m] = i;
            m += (d >= lo & d <= hi) != negate ? 1 : 0;
          }
        } else {
          for (int k = 0; k < n; k++) {
            int i = in[k];
            double d = x[i];
            out[m] = i;
            m += ((d >= lo & d <= hi) != negate) & status[i] == RowReader.NUMBER_VALUE ? 1 : 0;
          }
        }
      }
      return m;
    }

    @Override
    public String toString() {
      return (negate ? "NOT " : "") + name() + " IN [" + lo + ", " + hi + "]";
    }
  }

  /** A value among sorted {@code keys}: a binary search per row within [min, max]. */
  private static final class LongIn extends Leaf {
    private final long[] keys;

    LongIn(VectorColumn column, long[] keys) {
      super(column);
      this.keys = keys;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      NumberVector v = f.vectors[slot];
      long[] x = v.longs;
      byte[] status = v.nulls == 0 ? null : v.status;
      int m = 0;
      if (in == null) {
        for (int i = 0; i < size; i++) {
          out[m] = i;
          m += (status == null || status[i] == RowReader.NUMBER_VALUE) && contains(x[i]) ? 1 : 0;
        }
      } else {
        for (int k = 0; k < n; k++) {
          int i = in[k];
          out[m] = i;
          m += (status == null || status[i] == RowReader.NUMBER_VALUE) && contains(x[i]) ? 1 : 0;
        }
      }
      return m;
    }

    private boolean contains(long x) {
      long[] keys = this.keys;
      int low = 0;
      int high = keys.length - 1;
      if (x < keys[low] || x > keys[high]) {
        return false;
      }
      while (low <= high) {
        int mid = (low + high) >>> 1;
        long k = keys[mid];
        if (k < x) {
          low = mid + 1;
        } else if (k > x) {
          high = mid - 1;
        } else {
          return true;
        }
      }
      return false;
    }

    @Override
    public String toString() {
      return name() + " IN " + java.util.Arrays.toString(keys);
    }
  }

  /**
   * Two exact columns at the same scale, both values: {@code (signs >> (Long.compare(a, b) + 1)) &
   * 1}, branch-free for every operator.
   */
  private static final class LongLong extends Part {
    private final VectorColumn a;
    private final VectorColumn b;
    private final int signs;
    private int slotA = -1;
    private int slotB = -1;

    LongLong(VectorColumn a, VectorColumn b, int signs) {
      this.a = a;
      this.b = b;
      this.signs = signs;
    }

    @Override
    void register(List<VectorColumn> columns) {
      slotA = slot(columns, a);
      slotB = slot(columns, b);
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      NumberVector va = f.vectors[slotA];
      NumberVector vb = f.vectors[slotB];
      long[] x = va.longs;
      long[] y = vb.longs;
      byte[] statusA = va.nulls == 0 ? null : va.status;
      byte[] statusB = vb.nulls == 0 ? null : vb.status;
      int signs = this.signs;
      int m = 0;
      if (statusA == null && statusB == null) {
        if (in == null) {
          for (int i = 0; i < size; i++) {
            out[m] = i;
            m += (signs >> (Long.compare(x[i], y[i]) + 1)) & 1;
          }
        } else {
          for (int k = 0; k < n; k++) {
            int i = in[k];
            out[m] = i;
            m += (signs >> (Long.compare(x[i], y[i]) + 1)) & 1;
          }
        }
        return m;
      }
      for (int k = 0; k < n; k++) {
        int i = in == null ? k : in[k];
        boolean values =
            (statusA == null || statusA[i] == RowReader.NUMBER_VALUE)
                && (statusB == null || statusB[i] == RowReader.NUMBER_VALUE);
        out[m] = i;
        m += values ? (signs >> (Long.compare(x[i], y[i]) + 1)) & 1 : 0;
      }
      return m;
    }

    @Override
    public String toString() {
      String op =
          switch (signs) {
            case 0b001 -> "<";
            case 0b011 -> "<=";
            case 0b010 -> "=";
            case 0b101 -> "<>";
            case 0b100 -> ">";
            case 0b110 -> ">=";
            default -> "signs " + signs;
          };
      return "#" + a.column() + " " + op + " #" + b.column();
    }
  }

  private static final class And extends Part {
    final Part[] children;

    And(Part[] children) {
      this.children = children;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      int m = children[0].select(f, size, in, n, out);
      for (int c = 1; c < children.length && m > 0; c++) {
        m = children[c].select(f, size, out, m, out);
      }
      return m;
    }

    @Override
    void register(List<VectorColumn> columns) {
      for (Part child : children) {
        child.register(columns);
      }
    }

    @Override
    public String toString() {
      return "AND" + List.of(children);
    }
  }

  /** The union of the children's rows: marks in a byte per row, then the marked rows in order. */
  private static final class Or extends Part {
    final Part[] children;
    private byte[] marks = new byte[0];
    private int[] buffer = new int[0];

    Or(Part[] children) {
      this.children = children;
    }

    @Override
    int select(VectorFilter f, int size, int[] in, int n, int[] out) {
      if (marks.length < size) {
        marks = new byte[size];
        buffer = new int[size];
      }
      byte[] marks = this.marks;
      int[] buffer = this.buffer;
      for (Part child : children) {
        int c = child.select(f, size, in, n, buffer);
        for (int j = 0; j < c; j++) {
          marks[buffer[j]] = 1;
        }
        if (c == n) {
          break; // every row is in
        }
      }
      int m = 0;
      if (in == null) {
        for (int i = 0; i < size; i++) {
          out[m] = i;
          m += marks[i];
          marks[i] = 0;
        }
      } else {
        for (int k = 0; k < n; k++) {
          int i = in[k];
          out[m] = i;
          m += marks[i];
          marks[i] = 0;
        }
      }
      return m;
    }

    @Override
    void register(List<VectorColumn> columns) {
      for (Part child : children) {
        child.register(columns);
      }
    }

    @Override
    public String toString() {
      return "OR" + List.of(children);
    }
  }
}
