package io.cairn.planner;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexStatistics;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics;
import io.cairn.planner.plan.KeyBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The share of a local index's entries that key bounds over its parts select, estimated from the
 * index's statistics ({@link IndexStatistics}): for each bound whose values are known when planning
 * (literals), the entries of the chunks its key range covers whole count fully and those of the
 * chunks it cuts count at most half; the estimate is the fixed one ({@link
 * IndexChoice#selectivity}, with an equality on the first part selecting one of its distinct values
 * when their count is known) held between those two bounds. The bounds of a skip scan add up.
 * Without statistics (none collected, or a region never collected) there is no estimate, and {@link
 * IndexChoice} uses its fixed fractions.
 *
 * <p>The statistics come from the {@link IndexStatisticsSource} of the planning under way on this
 * thread ({@link #using}): the planner facade sets it around each statement it plans, so that the
 * classes between it and {@link IndexChoice} need not carry it.
 */
final class IndexSelectivity {
  private static final ThreadLocal<IndexStatisticsSource> SOURCE = new ThreadLocal<>();

  private IndexSelectivity() {}

  /** Runs {@code planning} with {@code source} as the statistics of the indexes it plans with. */
  static <T> T using(IndexStatisticsSource source, Supplier<T> planning) {
    IndexStatisticsSource previous = SOURCE.get();
    SOURCE.set(source);
    try {
      return planning.get();
    } finally {
      if (previous == null) {
        SOURCE.remove();
      } else {
        SOURCE.set(previous);
      }
    }
  }

  /** The source of the planning under way on this thread; {@link IndexStatisticsSource#NONE}. */
  static IndexStatisticsSource current() {
    IndexStatisticsSource s = SOURCE.get();
    return s == null ? IndexStatisticsSource.NONE : s;
  }

  /**
   * The share in (0, 1] of {@code index}'s entries within {@code keys} (not empty, no bound all),
   * or -1 when {@code statistics} give no estimate (none, or a count unknown).
   */
  static double selectivity(
      TableDescriptor table,
      IndexDescriptor index,
      List<KeyBounds> keys,
      Optional<IndexStatistics> statistics) {
    if (statistics.isEmpty() || keys.isEmpty() || keys.stream().anyMatch(KeyBounds::isAll)) {
      return -1;
    }
    IndexStatistics s = statistics.get();
    double entries = s.rows();
    if (entries <= 0) {
      return -1;
    }
    RowLayout layout = index.spec().entryLayout(table.layout());
    RowCodec codec = new RowCodec(layout);
    double total = 0;
    for (KeyBounds b : keys) {
      double fixed = entries * fixedSelectivity(b, s.minDistinctFirstParts());
      KeyRange parts = range(layout, codec, b);
      if (parts == null) {
        continue; // a NULL key value: no entry
      }
      if (parts == UNKNOWN_RANGE) {
        total += fixed; // values known only when run (parameters)
        continue;
      }
      if (parts.isEmptyRange()) {
        continue;
      }
      KeyRange range = IndexKeys.range(index.indexId(), parts);
      double whole = 0;
      double cut = 0;
      for (TableStatistics.Chunk c : s.chunks()) {
        if (!overlaps(c, range)) {
          continue;
        }
        if (range.start().compareTo(c.start()) <= 0 && c.stop().compareTo(range.stop()) <= 0) {
          whole += c.rows();
        } else {
          cut += c.rows();
        }
      }
      total += Math.max(whole, Math.min(fixed, whole + cut / 2));
    }
    return Math.max(1 / entries, Math.min(1, total / entries));
  }

  /**
   * The fixed selectivity of one bound ({@link IndexChoice#selectivity}), with {@code
   * distinctFirstParts} (when known) the number of values an equality on the first part picks one
   * of.
   */
  static double fixedSelectivity(KeyBounds b, long distinctFirstParts) {
    int equal = b.equalPrefix().size();
    boolean range = b.lower().isPresent() || b.upper().isPresent();
    double s = IndexChoice.selectivity(List.of(b), -1, Double.MAX_VALUE);
    if (equal > 0 && distinctFirstParts > 0) {
      s =
          (1.0 / distinctFirstParts)
              * Math.pow(IndexChoice.EQUALITY_SELECTIVITY, equal - 1)
              * (range ? IndexChoice.RANGE_SELECTIVITY : 1);
    }
    return s;
  }

  private static boolean overlaps(TableStatistics.Chunk c, KeyRange r) {
    return (c.stop().isEmpty() || r.start().compareTo(c.stop()) < 0)
        && (r.stop().isEmpty() || c.start().compareTo(r.stop()) < 0);
  }

  /** A value or range not known while planning (a parameter). */
  private static final Object UNKNOWN = new Object();

  private static final KeyRange UNKNOWN_RANGE = new KeyRange(Bytes.EMPTY, Bytes.EMPTY);

  /**
   * The range of a bound over the entry key's parts (without the index's prefix and suffix, as the
   * executor computes it); {@link #UNKNOWN_RANGE} when a value is not known while planning, null
   * when no entry can match (a NULL value).
   */
  private static KeyRange range(RowLayout layout, RowCodec codec, KeyBounds b) {
    List<Object> prefix = new ArrayList<>();
    for (int i = 0; i < b.equalPrefix().size(); i++) {
      Object v = value(layout, i, b.equalPrefix().get(i));
      if (v == null || v == UNKNOWN) {
        return v == null ? null : UNKNOWN_RANGE;
      }
      prefix.add(v);
    }
    Bytes prefixBytes = prefix.isEmpty() ? Bytes.EMPTY : codec.encodeKeyPrefix(prefix);
    if (b.lower().isEmpty() && b.upper().isEmpty()) {
      return KeyRange.prefix(prefixBytes);
    }
    int k = prefix.size();
    boolean descending = layout.keyColumns().get(k).order() == SortOrder.DESC;
    Optional<KeyBounds.Bound> startBound = descending ? b.upper() : b.lower();
    Optional<KeyBounds.Bound> stopBound = descending ? b.lower() : b.upper();
    Bytes start = prefixBytes;
    if (startBound.isPresent()) {
      Object v = value(layout, k, startBound.get().value());
      if (v == null || v == UNKNOWN) {
        return v == null ? null : UNKNOWN_RANGE;
      }
      Bytes enc = encode(codec, prefix, v);
      start = startBound.get().inclusive() ? enc : enc.prefixEnd();
    }
    Bytes stop = prefixBytes.isEmpty() ? Bytes.EMPTY : prefixBytes.prefixEnd();
    if (stopBound.isPresent()) {
      Object v = value(layout, k, stopBound.get().value());
      if (v == null || v == UNKNOWN) {
        return v == null ? null : UNKNOWN_RANGE;
      }
      Bytes enc = encode(codec, prefix, v);
      stop = stopBound.get().inclusive() ? enc.prefixEnd() : enc;
    }
    return new KeyRange(start, stop);
  }

  private static Bytes encode(RowCodec codec, List<Object> prefix, Object value) {
    List<Object> values = new ArrayList<>(prefix);
    values.add(value);
    return codec.encodeKeyPrefix(values);
  }

  /**
   * The value of key part {@code keyIndex} that {@code expr} gives, as the executor casts it;
   * {@link #UNKNOWN} when not known while planning (a parameter) or not a key value, null when
   * NULL.
   */
  private static Object value(RowLayout layout, int keyIndex, Expr expr) {
    if (!constant(expr)) {
      return UNKNOWN;
    }
    try {
      Object value = ExprCompiler.compile(expr).evaluate(new Object[0], EvalContext.EMPTY);
      if (value == null) {
        return null;
      }
      DataType type = layout.columnType(layout.keyColumns().get(keyIndex).columnIndex());
      if ((type.name() == TypeName.VARCHAR || type.name() == TypeName.VARBINARY)
          && type.hasLength()) {
        return Values.cast(value, DataType.of(type.name()));
      }
      return Values.cast(value, type);
    } catch (RuntimeException e) {
      return UNKNOWN; // e.g. out of the column's range: the executor widens the scan
    }
  }

  /** Whether {@code expr} is made of literals only. */
  private static boolean constant(Expr expr) {
    if (expr instanceof Expr.Literal) {
      return true;
    }
    if (expr instanceof Expr.Call c) {
      return c.operands().stream().allMatch(IndexSelectivity::constant);
    }
    return false;
  }
}
