package io.cairn.core.agg;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates {@link Accumulator}s. NULL inputs are ignored (except by SINGLE_VALUE, which counts
 * rows); SUM/AVG/MIN/MAX/BOOL_AND/BOOL_OR/ANY_VALUE of no input are NULL, SUM0 and COUNT are 0. SUM
 * is exact in its result type: a long with an overflow check for integer types, BigDecimal for
 * DECIMAL (rounded HALF_UP to the result scale at the end), double for FLOAT/DOUBLE. AVG sums
 * exactly and divides once, delivering DECIMAL rounded HALF_UP to the result scale, DOUBLE, or an
 * integer type truncated toward zero. DISTINCT keeps the set of distinct argument values and feeds
 * each to the plain accumulator once; merging two DISTINCT states takes the union.
 *
 * <p>Calls that {@link #isSplittable} also run split in two steps, as a store runs them next to the
 * data: a partial step per scan (or chunk) that ends with {@link Accumulator#writePartial} and a
 * final step that folds each partial state in with {@link Accumulator#mergePartial}. A partial
 * state is a few plain values of {@link #partialTypes}: COUNT a BIGINT; SUM the exact, not yet
 * rounded or range-checked sum (BIGINT for integer and interval results, DECIMAL, DOUBLE) or NULL;
 * MIN, MAX, ANY_VALUE, BOOL_AND, BOOL_OR their value so far; AVG the exact sum (DECIMAL, or DOUBLE
 * for a floating result) and the count. The final result equals the one-step result for exact
 * types; a floating SUM or AVG over several partial states may differ in the last bits (another
 * order of additions).
 */
public final class Aggregates {
  private static final DataType COUNT_TYPE = DataType.BIGINT.withNullable(false);
  private static final DataType EXACT_SUM_TYPE = DataType.of(TypeName.DECIMAL);

  private Aggregates() {}

  /**
   * Whether {@code call} can run as partial states merged later (see the class comment). DISTINCT
   * calls, SINGLE_VALUE and GROUPING cannot; nor can SUM or AVG with a result type they do not
   * compute (they fail when created, as in one step).
   */
  public static boolean isSplittable(AggregateCall call) {
    if (call.distinct()) {
      return false;
    }
    TypeName result = call.resultType().name();
    return switch (call.kind()) {
      case COUNT_STAR, COUNT, MIN, MAX, ANY_VALUE, BOOL_AND, BOOL_OR -> true;
      case SUM, SUM0 ->
          result.isExactInteger()
              || result.isInterval()
              || result == TypeName.DECIMAL
              || isFloating(result);
      case AVG -> result.isNumeric();
      case SINGLE_VALUE, GROUPING -> false;
    };
  }

  /** The types of the plain values that make up the partial state of {@code call}. */
  public static List<DataType> partialTypes(AggregateCall call) {
    if (!isSplittable(call)) {
      throw CairnException.internal("Aggregate call has no partial state: " + call);
    }
    DataType result = call.resultType();
    return switch (call.kind()) {
      case COUNT_STAR, COUNT -> List.of(COUNT_TYPE);
      case SUM, SUM0 ->
          List.of(
              result.name() == TypeName.DECIMAL
                  ? EXACT_SUM_TYPE
                  : isFloating(result.name()) ? DataType.DOUBLE : DataType.BIGINT);
      case AVG -> List.of(isFloating(result.name()) ? DataType.DOUBLE : EXACT_SUM_TYPE, COUNT_TYPE);
      default -> List.of(result.withNullable(true));
    };
  }

  private static boolean isFloating(TypeName name) {
    return name == TypeName.DOUBLE || name == TypeName.FLOAT;
  }

  private static final int[] NO_ARGUMENTS = new int[0];

  public static Accumulator create(AggregateCall call) {
    // once per group of a grouped aggregation: a plain loop, no stream
    List<Integer> arguments = call.arguments();
    int[] args = new int[arguments.size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = arguments.get(i);
    }
    if (call.distinct() && call.kind() != AggregateKind.COUNT_STAR) {
      List<Integer> positions = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        positions.add(i);
      }
      Accumulator inner =
          create(new AggregateCall(call.kind(), positions, false, call.resultType()));
      return new DistinctAccumulator(args, inner);
    }
    DataType type = call.resultType();
    return switch (call.kind()) {
      case COUNT_STAR -> new CountAccumulator(NO_ARGUMENTS, type);
      case COUNT -> new CountAccumulator(args, type);
      case SUM, SUM0 -> sum(args[0], type, call.kind() == AggregateKind.SUM0);
      case AVG -> new AvgAccumulator(args[0], type);
      case MIN -> new ExtremeAccumulator(args[0], false);
      case MAX -> new ExtremeAccumulator(args[0], true);
      case SINGLE_VALUE -> new SingleValueAccumulator(args[0]);
      case ANY_VALUE -> new AnyValueAccumulator(args[0]);
      case BOOL_AND -> new BoolAccumulator(args[0], true);
      case BOOL_OR -> new BoolAccumulator(args[0], false);
      case GROUPING ->
          throw CairnException.internal("GROUPING is computed by the aggregation, not accumulated");
    };
  }

  private static Accumulator sum(int arg, DataType type, boolean zeroForEmpty) {
    TypeName name = type.name();
    if (name.isExactInteger() || name.isInterval()) {
      return new LongSumAccumulator(arg, type, zeroForEmpty);
    }
    if (name == TypeName.DECIMAL) {
      return new DecimalSumAccumulator(arg, type, zeroForEmpty);
    }
    if (name == TypeName.DOUBLE || name == TypeName.FLOAT) {
      return new DoubleSumAccumulator(arg, type, zeroForEmpty);
    }
    throw new CairnException(
        ErrorCode.TYPE_MISMATCH, "SUM: expected a numeric result type, found [" + type.sql() + "]");
  }

  static <T extends Accumulator> T same(Class<T> type, Accumulator other) {
    if (!type.isInstance(other)) {
      throw CairnException.internal(
          "Cannot merge accumulators: expected ["
              + type.getSimpleName()
              + "], found ["
              + other.getClass().getSimpleName()
              + "]");
    }
    return type.cast(other);
  }

  static boolean isExactInteger(Object v) {
    return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
  }

  static BigDecimal toDecimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (isExactInteger(v)) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    return (BigDecimal) Values.cast(v, DataType.of(TypeName.DECIMAL));
  }

  static final class CountAccumulator implements LongAccumulator {
    private final int[] args;
    private final DataType type;
    private long count;

    CountAccumulator(int[] args, DataType type) {
      this.args = args;
      this.type = type;
    }

    @Override
    public void add(Object[] row) {
      for (int arg : args) {
        if (row[arg] == null) {
          return;
        }
      }
      count++;
    }

    @Override
    public void addLong(long value) {
      if (args.length > 1) {
        throw CairnException.internal("COUNT of several arguments takes rows, not one value");
      }
      count++;
    }

    @Override
    public Object result() {
      return type.name() == TypeName.BIGINT ? (Object) count : Values.cast(count, type);
    }

    @Override
    public void merge(Accumulator other) {
      count += same(CountAccumulator.class, other).count;
    }

    @Override
    public void writePartial(Object[] out, int at) {
      out[at] = count;
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      count += (Long) partial[at];
    }
  }

  static final class LongSumAccumulator implements LongAccumulator {
    private final int arg;
    private final DataType type;
    private final boolean zeroForEmpty;
    private boolean seen;
    private long sum;

    LongSumAccumulator(int arg, DataType type, boolean zeroForEmpty) {
      this.arg = arg;
      this.type = type;
      this.zeroForEmpty = zeroForEmpty;
    }

    @Override
    public void add(Object[] row) {
      Object v = row[arg];
      if (v != null) {
        long l =
            isExactInteger(v) ? ((Number) v).longValue() : (Long) Values.cast(v, DataType.BIGINT);
        addLong(l);
      }
    }

    @Override
    public void addLong(long l) {
      long r = sum + l;
      if (((sum ^ r) & (l ^ r)) < 0) {
        throw new CairnException(
            ErrorCode.NUMERIC_OUT_OF_RANGE,
            "SUM overflow: [" + sum + "] + [" + l + "] is out of range for BIGINT");
      }
      sum = r;
      seen = true;
    }

    @Override
    public Object result() {
      if (!seen && !zeroForEmpty) {
        return null;
      }
      return Values.cast(sum, type);
    }

    @Override
    public void merge(Accumulator other) {
      LongSumAccumulator o = same(LongSumAccumulator.class, other);
      if (o.seen) {
        addLong(o.sum);
      }
    }

    @Override
    public void writePartial(Object[] out, int at) {
      out[at] = seen ? (Object) sum : null;
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      Object o = partial[at];
      if (o != null) {
        addLong((Long) o);
      }
    }
  }

  /**
   * SUM of DECIMALs: exact, in a BigDecimal, plus a long of unscaled values at one scale for
   * arguments handed over as unscaled longs ({@link DecimalAccumulator}); those fold into the
   * BigDecimal when one arrives at another scale or the long would overflow.
   */
  static final class DecimalSumAccumulator implements DecimalAccumulator {
    private final int arg;
    private final DataType type;
    private final boolean zeroForEmpty;
    private BigDecimal sum;
    private final UnscaledSum unscaled = new UnscaledSum();

    DecimalSumAccumulator(int arg, DataType type, boolean zeroForEmpty) {
      this.arg = arg;
      this.type = type;
      this.zeroForEmpty = zeroForEmpty;
    }

    @Override
    public void add(Object[] row) {
      Object v = row[arg];
      if (v != null) {
        addDecimal(toDecimal(v));
      }
    }

    private void addDecimal(BigDecimal d) {
      sum = sum == null ? d : sum.add(d);
    }

    @Override
    public void addUnscaled(long value, int scale) {
      if (!unscaled.add(value, scale)) {
        addDecimal(BigDecimal.valueOf(value, scale));
      }
    }

    @Override
    public void addUnscaledSum(long sum, int scale, long count) {
      addUnscaled(sum, scale);
    }

    /** The exact sum so far, or null when nothing was added. */
    private BigDecimal exact() {
      BigDecimal longPart = unscaled.value();
      if (longPart == null) {
        return sum;
      }
      return sum == null ? longPart : sum.add(longPart);
    }

    @Override
    public Object result() {
      BigDecimal exact = exact();
      if (exact == null) {
        return zeroForEmpty ? Values.cast(BigDecimal.ZERO, type) : null;
      }
      return Values.cast(exact, type);
    }

    @Override
    public void merge(Accumulator other) {
      mergeSum(same(DecimalSumAccumulator.class, other).exact());
    }

    private void mergeSum(BigDecimal o) {
      if (o != null) {
        addDecimal(o);
      }
    }

    @Override
    public void writePartial(Object[] out, int at) {
      out[at] = exact();
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      mergeSum((BigDecimal) partial[at]);
    }
  }

  static final class DoubleSumAccumulator implements DoubleAccumulator {
    private final int arg;
    private final DataType type;
    private final boolean zeroForEmpty;
    private boolean seen;
    private double sum;

    DoubleSumAccumulator(int arg, DataType type, boolean zeroForEmpty) {
      this.arg = arg;
      this.type = type;
      this.zeroForEmpty = zeroForEmpty;
    }

    @Override
    public void add(Object[] row) {
      Object v = row[arg];
      if (v != null) {
        addDouble(((Number) v).doubleValue());
      }
    }

    @Override
    public void addDouble(double value) {
      sum += value;
      seen = true;
    }

    @Override
    public Object result() {
      if (!seen && !zeroForEmpty) {
        return null;
      }
      return type.name() == TypeName.DOUBLE ? (Object) sum : Values.cast(sum, type);
    }

    @Override
    public void merge(Accumulator other) {
      DoubleSumAccumulator o = same(DoubleSumAccumulator.class, other);
      sum += o.sum;
      seen |= o.seen;
    }

    @Override
    public void writePartial(Object[] out, int at) {
      out[at] = seen ? (Object) sum : null;
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      Object o = partial[at];
      if (o != null) {
        sum += (Double) o;
        seen = true;
      }
    }
  }

  /**
   * Exact sum (long, overflowing into BigDecimal; DECIMALs handed over unscaled in a long of their
   * own at one scale, folding into the BigDecimal as in {@link DecimalSumAccumulator}) plus a
   * double sum of floating inputs.
   */
  static final class AvgAccumulator
      implements LongAccumulator, DecimalAccumulator, DoubleAccumulator {
    private final int arg;
    private final DataType type;
    private long count;
    private long longSum;
    private BigDecimal decimalSum = BigDecimal.ZERO;
    private double doubleSum;
    private boolean sawFloating;
    private final UnscaledSum unscaled = new UnscaledSum();

    AvgAccumulator(int arg, DataType type) {
      this.arg = arg;
      this.type = type;
    }

    @Override
    public void add(Object[] row) {
      Object v = row[arg];
      if (v == null) {
        return;
      }
      count++;
      if (isExactInteger(v)) {
        addToSum(((Number) v).longValue());
      } else if (v instanceof Double || v instanceof Float) {
        doubleSum += ((Number) v).doubleValue();
        sawFloating = true;
      } else {
        decimalSum = decimalSum.add(toDecimal(v));
      }
    }

    @Override
    public void addLong(long value) {
      count++;
      addToSum(value);
    }

    @Override
    public void addDouble(double value) {
      count++;
      doubleSum += value;
      sawFloating = true;
    }

    @Override
    public void addUnscaled(long value, int scale) {
      addUnscaledSum(value, scale, 1);
    }

    @Override
    public void addUnscaledSum(long sum, int scale, long rows) {
      count += rows;
      if (!unscaled.add(sum, scale)) {
        decimalSum = decimalSum.add(BigDecimal.valueOf(sum, scale));
      }
    }

    /** The exact sum of the exact inputs. */
    private BigDecimal exactSum() {
      BigDecimal exact = decimalSum.add(BigDecimal.valueOf(longSum));
      BigDecimal longPart = unscaled.value();
      return longPart == null ? exact : exact.add(longPart);
    }

    private void addToSum(long l) {
      long r = longSum + l;
      if (((longSum ^ r) & (l ^ r)) < 0) {
        decimalSum = decimalSum.add(BigDecimal.valueOf(longSum));
        r = l;
      }
      longSum = r;
    }

    @Override
    public Object result() {
      if (count == 0) {
        return null;
      }
      BigDecimal exact = exactSum();
      TypeName name = type.name();
      if (sawFloating || name == TypeName.DOUBLE || name == TypeName.FLOAT) {
        double total = doubleSum + exact.doubleValue();
        return Values.cast(total / count, type);
      }
      BigDecimal n = BigDecimal.valueOf(count);
      if (name == TypeName.DECIMAL) {
        int scale = type.hasLength() ? type.scale() : Math.max(exact.scale(), 6);
        return Values.cast(exact.divide(n, scale, RoundingMode.HALF_UP), type);
      }
      // integer result: truncate toward zero
      return Values.cast(exact.divide(n, 0, RoundingMode.DOWN), type);
    }

    @Override
    public void merge(Accumulator other) {
      AvgAccumulator o = same(AvgAccumulator.class, other);
      count += o.count;
      addToSum(o.longSum);
      decimalSum = decimalSum.add(o.decimalSum);
      BigDecimal longPart = o.unscaled.value();
      if (longPart != null) {
        decimalSum = decimalSum.add(longPart);
      }
      doubleSum += o.doubleSum;
      sawFloating |= o.sawFloating;
    }

    /**
     * Sum then count. A floating result type gets the sum as the double that {@link #result} would
     * divide; an exact one the exact sum (floating inputs never reach it: Calcite types AVG of
     * FLOAT and DOUBLE as floating).
     */
    @Override
    public void writePartial(Object[] out, int at) {
      BigDecimal exact = exactSum();
      if (count == 0) {
        out[at] = null;
      } else if (isFloating(type.name())) {
        out[at] = doubleSum + exact.doubleValue();
      } else if (sawFloating) {
        throw CairnException.internal(
            "AVG of floating values with the exact result type [" + type.sql() + "]");
      } else {
        out[at] = exact;
      }
      out[at + 1] = count;
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      Object sum = partial[at];
      if (sum instanceof Double d) {
        doubleSum += d;
        sawFloating = true;
      } else if (sum != null) {
        decimalSum = decimalSum.add((BigDecimal) sum);
      }
      count += (Long) partial[at + 1];
    }
  }

  static final class ExtremeAccumulator implements Accumulator {
    private final int arg;
    private final boolean max;
    private Object best;

    ExtremeAccumulator(int arg, boolean max) {
      this.arg = arg;
      this.max = max;
    }

    @Override
    public void add(Object[] row) {
      offer(row[arg]);
    }

    private void offer(Object v) {
      if (v == null) {
        return;
      }
      if (best == null) {
        best = v;
        return;
      }
      int c = Values.compare(v, best);
      if (max ? c > 0 : c < 0) {
        best = v;
      }
    }

    @Override
    public Object result() {
      return best;
    }

    @Override
    public void merge(Accumulator other) {
      offer(same(ExtremeAccumulator.class, other).best);
    }

    @Override
    public void writePartial(Object[] out, int at) {
      out[at] = best;
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      offer(partial[at]);
    }
  }

  static final class SingleValueAccumulator implements Accumulator {
    private final int arg;
    private boolean seen;
    private Object value;

    SingleValueAccumulator(int arg) {
      this.arg = arg;
    }

    @Override
    public void add(Object[] row) {
      offer(row[arg]);
    }

    private void offer(Object v) {
      if (seen) {
        throw new CairnException(
            ErrorCode.SUBQUERY_MULTIPLE_ROWS, "Scalar subquery returned more than one row");
      }
      seen = true;
      value = v;
    }

    @Override
    public Object result() {
      return value;
    }

    @Override
    public void merge(Accumulator other) {
      SingleValueAccumulator o = same(SingleValueAccumulator.class, other);
      if (o.seen) {
        offer(o.value);
      }
    }
  }

  static final class AnyValueAccumulator implements Accumulator {
    private final int arg;
    private Object value;

    AnyValueAccumulator(int arg) {
      this.arg = arg;
    }

    @Override
    public void add(Object[] row) {
      if (value == null) {
        value = row[arg];
      }
    }

    @Override
    public Object result() {
      return value;
    }

    @Override
    public void merge(Accumulator other) {
      if (value == null) {
        value = same(AnyValueAccumulator.class, other).value;
      }
    }

    @Override
    public void writePartial(Object[] out, int at) {
      out[at] = value;
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      if (value == null) {
        value = partial[at];
      }
    }
  }

  static final class BoolAccumulator implements Accumulator {
    private final int arg;
    private final boolean and;
    private Boolean value;

    BoolAccumulator(int arg, boolean and) {
      this.arg = arg;
      this.and = and;
    }

    @Override
    public void add(Object[] row) {
      offer((Boolean) row[arg]);
    }

    private void offer(Boolean v) {
      if (v == null) {
        return;
      }
      value = value == null ? v : and ? value && v : value || v;
    }

    @Override
    public Object result() {
      return value;
    }

    @Override
    public void merge(Accumulator other) {
      offer(same(BoolAccumulator.class, other).value);
    }

    @Override
    public void writePartial(Object[] out, int at) {
      out[at] = value;
    }

    @Override
    public void mergePartial(Object[] partial, int at) {
      offer((Boolean) partial[at]);
    }
  }

  /** Feeds each distinct (all non-null) argument tuple once to a plain accumulator. */
  static final class DistinctAccumulator implements Accumulator {
    private final int[] args;
    private final Accumulator inner;
    private final Map<Object, Object[]> seen = new LinkedHashMap<>();

    DistinctAccumulator(int[] args, Accumulator inner) {
      this.args = args;
      this.inner = inner;
    }

    @Override
    public void add(Object[] row) {
      Object[] values = new Object[args.length];
      for (int i = 0; i < args.length; i++) {
        Object v = row[args[i]];
        if (v == null) {
          return;
        }
        values[i] = v;
      }
      offer(values);
    }

    private void offer(Object[] values) {
      Object key;
      if (values.length == 1) {
        key = key(values[0]);
      } else {
        List<Object> keys = new ArrayList<>(values.length);
        for (Object v : values) {
          keys.add(key(v));
        }
        key = keys;
      }
      if (seen.putIfAbsent(key, values) == null) {
        inner.add(values);
      }
    }

    /** A key whose equals() is SQL equality for values of one column. */
    static Object key(Object v) {
      if (isExactInteger(v)) {
        return ((Number) v).longValue();
      }
      if (v instanceof BigDecimal d) {
        return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
      }
      if (v instanceof Double || v instanceof Float) {
        double d = ((Number) v).doubleValue();
        return d == 0 ? 0.0d : d;
      }
      if (v instanceof byte[] b) {
        return ByteBuffer.wrap(b);
      }
      return v;
    }

    @Override
    public Object result() {
      return inner.result();
    }

    @Override
    public void merge(Accumulator other) {
      for (Object[] values : same(DistinctAccumulator.class, other).seen.values()) {
        offer(values);
      }
    }
  }
}
