package io.cairn.core.expr;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * A numeric expression evaluated over a {@link RowReader}'s current row without allocating: the
 * aggregate arguments of scan programs (TPC-H Q1's {@code L_EXTENDEDPRICE * (1 - L_DISCOUNT) * (1 +
 * L_TAX)}). An exact value is a long at a fixed {@link #scale()} (DECIMAL as its unscaled value,
 * integers at scale 0), a floating one a double.
 *
 * <p>{@link #compile} accepts columns, literals and {@code + - *} of exact types (integers, and
 * DECIMAL(p, s) with a scale of at most 18 at every step: Calcite types {@code L_EXTENDEDPRICE * (1
 * - L_DISCOUNT)} DECIMAL(31,4)), and DOUBLE columns, literals and {@code + - *} over them; anything
 * else is null, for the caller's generic path. Values are longs whatever the declared precision: a
 * row whose value does not fit one goes to the generic path. {@link #eval} returns {@link #VALUE},
 * {@link #NULL}, or {@link #GENERIC} when this row's value must come from {@link ExprCompiler}'s
 * evaluation instead: an intermediate that does not fit a long, a result past its type's precision
 * (which the generic path reports as the overflow it is), a DECIMAL stored at a scale above its
 * column's. So every row gets exactly the generic path's value, or its error.
 *
 * <p>{@link #evalBatch} evaluates the same tree over a {@link NumberBatch} of rows, column by
 * column: each node computes its status and value for every row of the batch in one loop, with the
 * same rules (and so the same values, and the same rows left to the generic path) as {@link #eval}.
 *
 * <p>A compiled tree keeps each node's last value (and its batch vectors): one per scan and thread.
 */
public abstract class RowNumber {
  /** {@link #eval}: the value is in {@link #value} (exact) or {@link #doubleValue} (floating). */
  public static final int VALUE = RowReader.NUMBER_VALUE;

  /** {@link #eval}: the value is NULL. */
  public static final int NULL = RowReader.NUMBER_NULL;

  /**
   * {@link #eval}: evaluate this row with the generic path (a column the reader cannot give as a
   * long: its NUMBER_UNFIT, which a {@link NumberBatch} passes on as this status).
   */
  public static final int GENERIC = RowReader.NUMBER_UNFIT;

  /** The largest number of digits an exact value keeps. */
  static final int MAX_DIGITS = 18;

  /** 10^0 .. 10^MAX_DIGITS. */
  private static final long[] POWERS_OF_TEN = RowFilter.POWERS_OF_TEN;

  /** The exact value after {@link #eval} returned VALUE. */
  public long value;

  /** The floating value after {@link #eval} returned VALUE. */
  public double doubleValue;

  private final int scale;
  private final boolean floating;

  RowNumber(int scale, boolean floating) {
    this.scale = scale;
    this.floating = floating;
  }

  /** The scale of {@link #value} (0 for integers). */
  public final int scale() {
    return scale;
  }

  /** Whether the value is a double ({@link #doubleValue}) rather than an exact long. */
  public final boolean floating() {
    return floating;
  }

  /**
   * After {@link #evalBatch}: per row of the batch, VALUE, NULL or GENERIC, as {@link #eval} would
   * return for it.
   */
  public byte[] batchStatus;

  /** After {@link #evalBatch}: per row whose status is VALUE, the exact value. */
  public long[] batchValues;

  /** After {@link #evalBatch}: per row whose status is VALUE, the floating value. */
  public double[] batchDoubles;

  /** Evaluates over the reader's current row: VALUE, NULL or GENERIC. */
  public abstract int eval(RowReader row);

  /**
   * Evaluates rows {@code [0, n)} of {@code batch} (which has read every column this tree reads:
   * see {@link #addColumns}) into {@link #batchStatus} and {@link #batchValues} or {@link
   * #batchDoubles}; the arrays belong to this node (or to the batch) and are rewritten by the next
   * call.
   */
  public abstract void evalBatch(NumberBatch batch, int n);

  /** Declares the columns this tree reads to {@code batch}. */
  abstract void addColumns(NumberBatch.Columns columns);

  /** The node's own vectors, made when the node is added to a batch ({@link #addColumns}). */
  final void ownVectors() {
    if (batchStatus == null) {
      batchStatus = new byte[NumberBatch.CAPACITY];
      if (floating) {
        batchDoubles = new double[NumberBatch.CAPACITY];
      } else {
        batchValues = new long[NumberBatch.CAPACITY];
      }
    }
  }

  /**
   * {@code expr} (over rows of {@code layout}: column references are layout indexes) compiled, or
   * null when it is not of the supported forms.
   */
  public static RowNumber compile(Expr expr, RowLayout layout) {
    DataType type = expr.type();
    if (type.name() == TypeName.DOUBLE) {
      return compileDouble(expr, layout);
    }
    if (!exact(type)) {
      return null;
    }
    if (expr instanceof Expr.ColumnRef ref) {
      if (ref.index() < 0 || ref.index() >= layout.columnCount()) {
        return null;
      }
      DataType column = layout.columnType(ref.index());
      if (!column.equals(type.withNullable(column.nullable())) && !sameNumeric(column, type)) {
        return null;
      }
      return column.name() == TypeName.DECIMAL
          ? new DecimalColumn(ref.index(), column.scale())
          : new IntegerColumn(ref.index());
    }
    if (expr instanceof Expr.Literal literal) {
      return exactLiteral(literal);
    }
    if (expr instanceof Expr.Call call && call.operands().size() == 2) {
      Op op = call.op();
      if (op != Op.PLUS && op != Op.MINUS && op != Op.TIMES) {
        return null;
      }
      RowNumber a = compile(call.operands().get(0), layout);
      RowNumber b = compile(call.operands().get(1), layout);
      if (a == null || b == null || a.floating || b.floating) {
        return null;
      }
      int exactScale = op == Op.TIMES ? a.scale + b.scale : Math.max(a.scale, b.scale);
      if (exactScale > MAX_DIGITS) {
        return null;
      }
      if (type.name() != TypeName.DECIMAL && (a.scale != 0 || b.scale != 0)) {
        return null; // an integer result of a DECIMAL operand rounds through Values.cast
      }
      return new Binary(op, a, b, exactScale, type);
    }
    return null;
  }

  /** Whether {@code type} is one whose values this class keeps exactly in a long. */
  private static boolean exact(DataType type) {
    return switch (type.name()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
      case DECIMAL ->
          type.hasLength()
              && type.scale() >= 0
              && type.scale() <= MAX_DIGITS
              && type.scale() <= type.precision();
      default -> false;
    };
  }

  private static boolean sameNumeric(DataType a, DataType b) {
    return a.name() == b.name() && a.precision() == b.precision() && a.scale() == b.scale();
  }

  private static RowNumber exactLiteral(Expr.Literal literal) {
    Object v = literal.value();
    if (v == null) {
      return new Constant(0, 0, true);
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return new Constant(((Number) v).longValue(), 0, false);
    }
    if (v instanceof BigDecimal d && d.scale() >= 0 && d.scale() <= MAX_DIGITS) {
      BigInteger u = d.unscaledValue();
      if (u.bitLength() < 63 && Math.abs(u.longValue()) < POWERS_OF_TEN[MAX_DIGITS]) {
        return new Constant(u.longValue(), d.scale(), false);
      }
    }
    return null;
  }

  private static RowNumber compileDouble(Expr expr, RowLayout layout) {
    if (expr instanceof Expr.ColumnRef ref) {
      if (ref.index() < 0
          || ref.index() >= layout.columnCount()
          || layout.columnType(ref.index()).name() != TypeName.DOUBLE) {
        return null;
      }
      return new DoubleColumn(ref.index());
    }
    if (expr instanceof Expr.Literal literal) {
      Object v = literal.value();
      return v == null
          ? new DoubleConstant(0, true)
          : v instanceof Double d ? new DoubleConstant(d, false) : null;
    }
    if (expr instanceof Expr.Call call && call.operands().size() == 2) {
      Op op = call.op();
      if (op != Op.PLUS && op != Op.MINUS && op != Op.TIMES) {
        return null;
      }
      RowNumber a = compileDouble(call.operands().get(0), layout);
      RowNumber b = compileDouble(call.operands().get(1), layout);
      return a == null || b == null ? null : new DoubleBinary(op, a, b);
    }
    return null;
  }

  /** {@code v} divided by 10^digits, rounded half away from zero (BigDecimal's HALF_UP). */
  static long roundDown(long v, int digits) {
    if (digits > MAX_DIGITS) {
      return 0; // |v| < 2^63 < 0.5 * 10^19
    }
    long p = POWERS_OF_TEN[digits];
    long q = v / p;
    long r = v % p;
    // |r| >= p / 2, without overflow: compare |r| with p - |r|
    long ar = Math.abs(r);
    if (ar >= p - ar) {
      q += v < 0 ? -1 : 1;
    }
    return q;
  }

  private static final class DecimalColumn extends RowNumber {
    private final int column;

    DecimalColumn(int column, int scale) {
      super(scale, false);
      this.column = column;
    }

    @Override
    public int eval(RowReader row) {
      if (row.isNull(column)) {
        return NULL;
      }
      long v = row.getUnscaledAt(column, scale());
      if (v == Long.MIN_VALUE) {
        return GENERIC;
      }
      value = v;
      return VALUE;
    }

    @Override
    public void evalBatch(NumberBatch batch, int n) {
      int slot = batch.slot(column);
      batchStatus = batch.status(slot);
      batchValues = batch.values(slot);
    }

    @Override
    void addColumns(NumberBatch.Columns columns) {
      columns.decimal(column, scale());
    }
  }

  private static final class IntegerColumn extends RowNumber {
    private final int column;

    IntegerColumn(int column) {
      super(0, false);
      this.column = column;
    }

    @Override
    public int eval(RowReader row) {
      if (row.isNull(column)) {
        return NULL;
      }
      value = row.getLong(column);
      return VALUE;
    }

    @Override
    public void evalBatch(NumberBatch batch, int n) {
      int slot = batch.slot(column);
      batchStatus = batch.status(slot);
      batchValues = batch.values(slot);
    }

    @Override
    void addColumns(NumberBatch.Columns columns) {
      columns.integer(column);
    }
  }

  private static final class Constant extends RowNumber {
    private final boolean isNull;

    Constant(long value, int scale, boolean isNull) {
      super(scale, false);
      this.value = value;
      this.isNull = isNull;
    }

    @Override
    public int eval(RowReader row) {
      return isNull ? NULL : VALUE;
    }

    @Override
    public void evalBatch(NumberBatch batch, int n) {
      // the vectors hold the constant since addColumns
    }

    @Override
    void addColumns(NumberBatch.Columns columns) {
      // made here, once per batch, not on a first evalBatch: a branch taken once per scan in a
      // hot method is one its compiled code leaves out, and deoptimizes on in the next scan
      if (batchStatus == null) {
        ownVectors();
        Arrays.fill(batchStatus, (byte) (isNull ? NULL : VALUE));
        Arrays.fill(batchValues, value);
      }
    }
  }

  /** {@code a op b} computed exactly at {@code exactScale}, then fit to the result type. */
  private static final class Binary extends RowNumber {
    private final Op op;
    private final RowNumber a;
    private final RowNumber b;
    private final int exactScale;

    /** Exclusive bound of the result's absolute value (10^precision), or 0 for a range check. */
    private final long bound;

    private final long min;
    private final long max;

    /**
     * For {@link #evalBatch}'s loop without rounding (the result at the exact scale): the powers of
     * ten that bring each operand to the exact scale (1 for a product), and the least and greatest
     * result that fits the type; {@code fastLoop} false when the result needs rounding or scaling.
     */
    private final long factorA, factorB, lowest, highest;

    private final boolean fastLoop;

    /**
     * Per operand that is a non-NULL constant whose value at the exact scale fits a long: that
     * value in every row, so a sum scales nothing per row; else null.
     */
    private final long[] scaledA, scaledB;

    Binary(Op op, RowNumber a, RowNumber b, int exactScale, DataType type) {
      super(type.name() == TypeName.DECIMAL ? type.scale() : 0, false);
      this.op = op;
      this.a = a;
      this.b = b;
      this.exactScale = exactScale;
      switch (type.name()) {
        case DECIMAL -> {
          // a long has at most 19 digits: a wider type's precision never fails a long
          bound = type.precision() <= MAX_DIGITS ? POWERS_OF_TEN[type.precision()] : 0;
          min = Long.MIN_VALUE;
          max = Long.MAX_VALUE;
        }
        case TINYINT -> {
          bound = 0;
          min = Byte.MIN_VALUE;
          max = Byte.MAX_VALUE;
        }
        case SMALLINT -> {
          bound = 0;
          min = Short.MIN_VALUE;
          max = Short.MAX_VALUE;
        }
        case INTEGER -> {
          bound = 0;
          min = Integer.MIN_VALUE;
          max = Integer.MAX_VALUE;
        }
        default -> {
          bound = 0;
          min = Long.MIN_VALUE;
          max = Long.MAX_VALUE;
        }
      }
      boolean times = op == Op.TIMES;
      fastLoop = exactScale == scale();
      factorA = times ? 1 : POWERS_OF_TEN[exactScale - a.scale()];
      factorB = times ? 1 : POWERS_OF_TEN[exactScale - b.scale()];
      lowest = bound != 0 ? 1 - bound : Math.max(min, Long.MIN_VALUE + 1); // MIN_VALUE: GENERIC
      highest = bound != 0 ? bound - 1 : max;
      scaledA = times ? null : scaledConstant(a, exactScale);
      scaledB = times ? null : scaledConstant(b, exactScale);
    }

    /** {@link #scaledA} of {@code operand}. */
    private static long[] scaledConstant(RowNumber operand, int exactScale) {
      if (!(operand instanceof Constant c) || c.isNull) {
        return null;
      }
      long v = RowReader.rescale(c.value, c.scale(), exactScale);
      if (v == Long.MIN_VALUE) {
        return null;
      }
      long[] values = new long[NumberBatch.CAPACITY];
      Arrays.fill(values, v);
      return values;
    }

    @Override
    public int eval(RowReader row) {
      int sa = a.eval(row);
      if (sa != VALUE) {
        return sa;
      }
      int sb = b.eval(row);
      if (sb != VALUE) {
        return sb;
      }
      return compute(a.value, b.value);
    }

    @Override
    public void evalBatch(NumberBatch batch, int n) {
      a.evalBatch(batch, n);
      b.evalBatch(batch, n);
      byte[] statusA = a.batchStatus;
      byte[] statusB = b.batchStatus;
      long[] valuesA = a.batchValues;
      long[] valuesB = b.batchValues;
      byte[] status = batchStatus;
      long[] values = batchValues;
      if (fastLoop) {
        if (op == Op.TIMES) {
          multiply(statusA, valuesA, statusB, valuesB, n);
        } else {
          add(statusA, valuesA, statusB, valuesB, n);
        }
        return;
      }
      for (int i = 0; i < n; i++) {
        int sa = statusA[i];
        int s =
            sa != VALUE ? sa : statusB[i] != VALUE ? statusB[i] : compute(valuesA[i], valuesB[i]);
        status[i] = (byte) s;
        values[i] = value;
      }
    }

    /**
     * {@link #evalBatch} of a product kept at its exact scale: one loop of multiplications, a
     * product past a long or the type GENERIC (as {@link #compute} says), the others' statuses
     * passed on.
     */
    private void multiply(byte[] statusA, long[] valuesA, byte[] statusB, long[] valuesB, int n) {
      byte[] status = batchStatus;
      long[] values = batchValues;
      long lo = lowest;
      long hi = highest;
      for (int i = 0; i < n; i++) {
        int s = statusA[i] != VALUE ? statusA[i] : statusB[i];
        long x = valuesA[i];
        long y = valuesB[i];
        long r = x * y;
        boolean fits = (Math.multiplyHigh(x, y) == (r >> 63)) & (r >= lo) & (r <= hi);
        status[i] = (byte) (s != VALUE ? s : fits ? VALUE : GENERIC);
        values[i] = r;
      }
    }

    /**
     * {@link #evalBatch} of a sum or difference kept at its exact scale: each operand brought to it
     * (a multiplication by a power of ten, 1 when at it already), then one loop of additions; an
     * operand or result past a long or the type GENERIC, as {@link #compute} says.
     */
    private void add(byte[] statusA, long[] valuesA, byte[] statusB, long[] valuesB, int n) {
      byte[] status = batchStatus;
      long[] values = batchValues;
      long lo = lowest;
      long hi = highest;
      long fa = scaledA != null ? 1 : factorA;
      long fb = scaledB != null ? 1 : factorB;
      valuesA = scaledA != null ? scaledA : valuesA;
      valuesB = scaledB != null ? scaledB : valuesB;
      // x - y as x + (-y): the same value and overflow, y never Long.MIN_VALUE
      long sign = op == Op.MINUS ? -1 : 1;
      if (fa == 1 && fb == 1) {
        for (int i = 0; i < n; i++) {
          int s = statusA[i] != VALUE ? statusA[i] : statusB[i];
          long x = valuesA[i];
          long y = valuesB[i] * sign;
          long r = x + y;
          boolean fits =
              (((x ^ r) & (y ^ r)) >= 0)
                  & (x != Long.MIN_VALUE)
                  & (valuesB[i] != Long.MIN_VALUE)
                  & (r >= lo)
                  & (r <= hi);
          status[i] = (byte) (s != VALUE ? s : fits ? VALUE : GENERIC);
          values[i] = r;
        }
        return;
      }
      for (int i = 0; i < n; i++) {
        int s = statusA[i] != VALUE ? statusA[i] : statusB[i];
        long x = valuesA[i] * fa;
        long y = valuesB[i] * fb;
        boolean fits =
            (Math.multiplyHigh(valuesA[i], fa) == (x >> 63))
                & (Math.multiplyHigh(valuesB[i], fb) == (y >> 63))
                & (x != Long.MIN_VALUE)
                & (y != Long.MIN_VALUE);
        y *= sign;
        long r = x + y;
        fits &= (((x ^ r) & (y ^ r)) >= 0) & (r >= lo) & (r <= hi);
        status[i] = (byte) (s != VALUE ? s : fits ? VALUE : GENERIC);
        values[i] = r;
      }
    }

    @Override
    void addColumns(NumberBatch.Columns columns) {
      ownVectors(); // here, not on a first evalBatch (see Constant.addColumns)
      a.addColumns(columns);
      b.addColumns(columns);
    }

    /** {@code x op y} (at the operands' scales) into {@link #value}: VALUE or GENERIC. */
    private int compute(long x, long y) {
      long exact;
      if (op == Op.TIMES) {
        long hi = Math.multiplyHigh(x, y);
        exact = x * y;
        if ((hi != 0 || exact < 0) && (hi != -1 || exact >= 0)) {
          return GENERIC;
        }
      } else {
        x = RowReader.rescale(x, a.scale(), exactScale);
        y = RowReader.rescale(y, b.scale(), exactScale);
        if (x == Long.MIN_VALUE || y == Long.MIN_VALUE) {
          return GENERIC;
        }
        exact = op == Op.PLUS ? x + y : x - y;
        // x and y are above Long.MIN_VALUE: the sum overflows only when the signs say so
        if (op == Op.PLUS ? ((x ^ exact) & (y ^ exact)) < 0 : ((x ^ y) & (x ^ exact)) < 0) {
          return GENERIC;
        }
      }
      long r;
      if (exactScale <= scale()) {
        r = RowReader.rescale(exact, exactScale, scale());
        if (r == Long.MIN_VALUE) {
          return GENERIC;
        }
      } else {
        r = roundDown(exact, exactScale - scale());
      }
      if (bound != 0 ? r <= -bound || r >= bound : r < min || r > max) {
        return GENERIC; // the generic path reports the overflow
      }
      value = r;
      return VALUE;
    }
  }

  private static final class DoubleColumn extends RowNumber {
    private final int column;

    DoubleColumn(int column) {
      super(0, true);
      this.column = column;
    }

    @Override
    public int eval(RowReader row) {
      if (row.isNull(column)) {
        return NULL;
      }
      doubleValue = row.getDouble(column);
      return VALUE;
    }

    @Override
    public void evalBatch(NumberBatch batch, int n) {
      int slot = batch.slot(column);
      batchStatus = batch.status(slot);
      batchDoubles = batch.doubles(slot);
    }

    @Override
    void addColumns(NumberBatch.Columns columns) {
      columns.floating(column);
    }
  }

  private static final class DoubleConstant extends RowNumber {
    private final boolean isNull;

    DoubleConstant(double value, boolean isNull) {
      super(0, true);
      this.doubleValue = value;
      this.isNull = isNull;
    }

    @Override
    public int eval(RowReader row) {
      return isNull ? NULL : VALUE;
    }

    @Override
    public void evalBatch(NumberBatch batch, int n) {
      // the vectors hold the constant since addColumns
    }

    @Override
    void addColumns(NumberBatch.Columns columns) {
      if (batchStatus == null) {
        ownVectors();
        Arrays.fill(batchStatus, (byte) (isNull ? NULL : VALUE));
        Arrays.fill(batchDoubles, doubleValue);
      }
    }
  }

  private static final class DoubleBinary extends RowNumber {
    private final Op op;
    private final RowNumber a;
    private final RowNumber b;

    DoubleBinary(Op op, RowNumber a, RowNumber b) {
      super(0, true);
      this.op = op;
      this.a = a;
      this.b = b;
    }

    @Override
    public int eval(RowReader row) {
      int sa = a.eval(row);
      if (sa != VALUE) {
        return sa;
      }
      int sb = b.eval(row);
      if (sb != VALUE) {
        return sb;
      }
      doubleValue = compute(a.doubleValue, b.doubleValue);
      return VALUE;
    }

    @Override
    public void evalBatch(NumberBatch batch, int n) {
      a.evalBatch(batch, n);
      b.evalBatch(batch, n);
      byte[] statusA = a.batchStatus;
      byte[] statusB = b.batchStatus;
      double[] valuesA = a.batchDoubles;
      double[] valuesB = b.batchDoubles;
      for (int i = 0; i < n; i++) {
        int sa = statusA[i];
        batchStatus[i] = (byte) (sa != VALUE ? sa : statusB[i]);
        batchDoubles[i] = compute(valuesA[i], valuesB[i]);
      }
    }

    @Override
    void addColumns(NumberBatch.Columns columns) {
      ownVectors(); // here, not on a first evalBatch (see Constant.addColumns)
      a.addColumns(columns);
      b.addColumns(columns);
    }

    private double compute(double x, double y) {
      return op == Op.PLUS ? x + y : op == Op.MINUS ? x - y : x * y;
    }
  }
}
