package io.cairn.planner;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.kv.ColumnStatistics;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdDistinctRowCount;
import org.apache.calcite.rel.metadata.RelMdRowCount;
import org.apache.calcite.rel.metadata.RelMdSelectivity;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.TimestampString;

/**
 * Cardinalities from column statistics ({@link ColumnStatistics}), as Calcite metadata handlers
 * chained before Calcite's defaults ({@link #PROVIDER}): the distinct values of a table's columns
 * (their NDV, the product of several capped at the table's rows, reduced by a filter), the
 * selectivity of a filter over a table (an equality 1/NDV, a range its share of [min, max], IS NULL
 * the null share, anything else Calcite's guess), and the rows of an equi-join, |L| * |R| /
 * max(NDV(left keys), NDV(right keys)). Where a table has no statistics each handler gives
 * Calcite's own answer, so join ordering (LoptOptimizeJoinRule: each join builds on its smaller
 * input, the order of least intermediate rows) works from row counts alone as before.
 *
 * <p>The statistics come from the {@link ColumnStatisticsSource} of the planning under way on this
 * thread ({@link #using}), read once per table and statement. Public only because Calcite calls the
 * handlers by reflection; not an API.
 */
public final class Cardinalities {
  private Cardinalities() {}

  /** The statistics of the planning under way on this thread, by table. */
  private static final class Planning {
    final ColumnStatisticsSource source;
    final Map<TableDescriptor, List<ColumnStatistics>> read = new HashMap<>();

    Planning(ColumnStatisticsSource source) {
      this.source = source;
    }
  }

  private static final ThreadLocal<Planning> PLANNING = new ThreadLocal<>();

  /** Runs {@code planning} with {@code source} as the column statistics of its tables. */
  static <T> T using(ColumnStatisticsSource source, Supplier<T> planning) {
    Planning previous = PLANNING.get();
    PLANNING.set(new Planning(source));
    try {
      return planning.get();
    } finally {
      if (previous == null) {
        PLANNING.remove();
      } else {
        PLANNING.set(previous);
      }
    }
  }

  /** The column statistics of the scanned table, or empty. */
  static List<ColumnStatistics> statistics(TableScan scan) {
    Planning p = PLANNING.get();
    if (p == null) {
      return List.of();
    }
    CairnCalciteSchema.CairnTable table =
        scan.getTable().unwrap(CairnCalciteSchema.CairnTable.class);
    if (table == null) {
      return List.of();
    }
    TableDescriptor d = table.descriptor();
    return p.read.computeIfAbsent(
        d,
        t -> {
          List<ColumnStatistics> s = p.source.statistics(t);
          return s.size() == t.columns().size() ? List.copyOf(s) : List.of();
        });
  }

  /** The handlers, before Calcite's defaults. */
  static final RelMetadataProvider PROVIDER =
      ChainedRelMetadataProvider.of(
          List.of(
              ReflectiveRelMetadataProvider.reflectiveSource(
                  new RowCounts(), BuiltInMetadata.RowCount.Handler.class),
              ReflectiveRelMetadataProvider.reflectiveSource(
                  new DistinctRowCounts(), BuiltInMetadata.DistinctRowCount.Handler.class),
              ReflectiveRelMetadataProvider.reflectiveSource(
                  new Selectivities(), BuiltInMetadata.Selectivity.Handler.class),
              DefaultRelMetadataProvider.INSTANCE));

  /** Rows of joins from the distinct values of their keys. */
  public static final class RowCounts extends RelMdRowCount {
    @Override
    public Double getRowCount(Join join, RelMetadataQuery mq) {
      Double estimate = joinRows(join, mq);
      return estimate != null ? estimate : super.getRowCount(join, mq);
    }
  }

  /**
   * |L| * |R| / max(NDV(L keys), NDV(R keys)) for an inner equi-join (the NDV of several keys their
   * product, capped at the side's rows), times Calcite's guess for the rest of the condition; an
   * outer join keeps at least its preserved side's rows. Null when a side's key NDVs are unknown or
   * for a semi or anti join.
   */
  static Double joinRows(Join join, RelMetadataQuery mq) {
    JoinRelType type = join.getJoinType();
    if (type == JoinRelType.SEMI
        || type == JoinRelType.ANTI
        || type == JoinRelType.ASOF
        || type == JoinRelType.LEFT_ASOF) {
      return null;
    }
    JoinInfo info = join.analyzeCondition();
    if (info.leftKeys.isEmpty()) {
      return null;
    }
    Double left = mq.getRowCount(join.getLeft());
    Double right = mq.getRowCount(join.getRight());
    if (left == null || right == null) {
      return null;
    }
    double leftDistinct = 1;
    double rightDistinct = 1;
    boolean known = false;
    for (int i = 0; i < info.leftKeys.size(); i++) {
      Double l =
          mq.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(info.leftKeys.get(i)), null);
      Double r =
          mq.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(info.rightKeys.get(i)), null);
      if (l == null && r == null) {
        return null;
      }
      known = true;
      leftDistinct *= Math.max(1, l != null ? l : r);
      rightDistinct *= Math.max(1, r != null ? r : l);
    }
    if (!known) {
      return null;
    }
    leftDistinct = Math.min(leftDistinct, Math.max(1, left));
    rightDistinct = Math.min(rightDistinct, Math.max(1, right));
    double rows = left * right / Math.max(leftDistinct, rightDistinct);
    RexNode rest = info.getRemaining(join.getCluster().getRexBuilder());
    if (!rest.isAlwaysTrue()) {
      Double s = mq.getSelectivity(join, rest);
      rows *= s == null ? RelMdUtil.guessSelectivity(rest) : s;
    }
    return switch (type) {
      case LEFT -> Math.max(rows, left);
      case RIGHT -> Math.max(rows, right);
      case FULL -> Math.max(rows, Math.max(left, right));
      default -> Math.max(1, rows);
    };
  }

  /** Distinct values of a table's columns from their statistics. */
  public static final class DistinctRowCounts extends RelMdDistinctRowCount {
    @Override
    public Double getDistinctRowCount(
        TableScan scan, RelMetadataQuery mq, ImmutableBitSet groupKey, RexNode predicate) {
      List<ColumnStatistics> stats = statistics(scan);
      if (stats.isEmpty() || groupKey.isEmpty()) {
        return super.getDistinctRowCount(scan, mq, groupKey, predicate);
      }
      double rows = Math.max(1, mq.getRowCount(scan));
      double product = 1;
      for (int c : groupKey) {
        if (c >= stats.size() || stats.get(c).distinct() < 0) {
          return super.getDistinctRowCount(scan, mq, groupKey, predicate);
        }
        product *= distinct(stats.get(c), rows);
      }
      double ndv = Math.min(product, rows);
      if (predicate != null && !predicate.isAlwaysTrue()) {
        Double s = mq.getSelectivity(scan, predicate);
        ndv = RelMdUtil.numDistinctVals(ndv, rows * (s == null ? 1 : s));
      }
      return Math.max(1, ndv);
    }
  }

  /**
   * A column's distinct values (a null counts as one) in a table of {@code rows} rows now: a column
   * whose values were (nearly) all distinct when collected grows with the table.
   */
  static double distinct(ColumnStatistics s, double rows) {
    double d = s.distinct() + (s.nulls() > 0 ? 1 : 0);
    long nonNull = s.rows() - s.nulls();
    if (nonNull > 0 && s.distinct() >= 0.9 * nonNull && rows > s.rows()) {
      d = d * rows / s.rows();
    }
    return Math.max(1, Math.min(d, rows));
  }

  /** Selectivities of filters over a table from its column statistics. */
  public static final class Selectivities extends RelMdSelectivity {
    @Override
    public Double getSelectivity(TableScan scan, RelMetadataQuery mq, RexNode predicate) {
      List<ColumnStatistics> stats = statistics(scan);
      if (stats.isEmpty() || predicate == null || predicate.isAlwaysTrue()) {
        return super.getSelectivity(scan, mq, predicate);
      }
      double rows = Math.max(1, mq.getRowCount(scan));
      double selectivity = 1;
      // a column's lower and upper bounds are one range (x >= a AND x < b), not independent
      Map<Integer, double[]> ranges = new HashMap<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
        if (!bound(conjunct, stats, ranges)) {
          selectivity *= conjunct(conjunct, stats, rows);
        }
      }
      for (Map.Entry<Integer, double[]> range : ranges.entrySet()) {
        ColumnStatistics s = stats.get(range.getKey());
        double nonNull = s.rows() > 0 ? 1 - (double) s.nulls() / s.rows() : 1;
        double[] b = range.getValue();
        Double min = number(s.min());
        Double max = number(s.max());
        double share = below(b[1], min, max, 1) - below(b[0], min, max, 0);
        selectivity *= nonNull * Math.max(0, share);
      }
      return Math.max(Math.min(selectivity, 1), 1 / (rows * 10));
    }
  }

  /**
   * Whether {@code conjunct} is a column compared with a numeric literal by {@code <, <=, >, >=}
   * where the column's min and max are known, and if so narrows that column's {lower, upper} bound
   * in {@code ranges}.
   */
  private static boolean bound(
      RexNode conjunct, List<ColumnStatistics> stats, Map<Integer, double[]> ranges) {
    if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2) {
      return false;
    }
    SqlKind kind = call.getKind();
    RexNode a = call.getOperands().get(0);
    RexNode b = call.getOperands().get(1);
    if (a instanceof RexLiteral && b instanceof RexInputRef) {
      RexNode t = a;
      a = b;
      b = t;
      kind = kind.reverse();
    }
    boolean upper = kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL;
    boolean lower = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    if ((!upper && !lower)
        || !(a instanceof RexInputRef ref)
        || !(b instanceof RexLiteral literal)
        || ref.getIndex() >= stats.size()) {
      return false;
    }
    ColumnStatistics s = stats.get(ref.getIndex());
    Double value = number(literal);
    if (value == null || number(s.min()) == null || number(s.max()) == null) {
      return false;
    }
    double[] range =
        ranges.computeIfAbsent(
            ref.getIndex(), i -> new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY});
    if (upper) {
      range[1] = Math.min(range[1], value);
    } else {
      range[0] = Math.max(range[0], value);
    }
    return true;
  }

  /** One conjunct's share of the table's rows. */
  static double conjunct(RexNode node, List<ColumnStatistics> stats, double rows) {
    double guess = RelMdUtil.guessSelectivity(node);
    if (!(node instanceof RexCall call) || call.getOperands().isEmpty()) {
      return guess;
    }
    SqlKind kind = call.getKind();
    if (!(call.getOperands().get(0) instanceof RexInputRef ref)) {
      if (call.getOperands().size() == 2
          && call.getOperands().get(1) instanceof RexInputRef
          && call.getOperands().get(0) instanceof RexLiteral) {
        RexNode[] swapped = {call.getOperands().get(1), call.getOperands().get(0)};
        kind = kind.reverse();
        return compare(kind, (RexInputRef) swapped[0], (RexLiteral) swapped[1], stats, rows, guess);
      }
      return guess;
    }
    if (ref.getIndex() >= stats.size()) {
      return guess;
    }
    ColumnStatistics s = stats.get(ref.getIndex());
    double nullShare = s.rows() > 0 ? (double) s.nulls() / s.rows() : 0;
    switch (kind) {
      case IS_NULL:
        return nullShare;
      case IS_NOT_NULL:
        return 1 - nullShare;
      case SEARCH:
        if (call.getOperands().get(1) instanceof RexLiteral literal) {
          Sarg<?> sarg = literal.getValueAs(Sarg.class);
          if (sarg != null) {
            return search(sarg, s, rows, guess);
          }
        }
        return guess;
      default:
        if (call.getOperands().size() == 2 && call.getOperands().get(1) instanceof RexLiteral l) {
          return compare(kind, ref, l, stats, rows, guess);
        }
        return guess;
    }
  }

  private static double compare(
      SqlKind kind,
      RexInputRef ref,
      RexLiteral literal,
      List<ColumnStatistics> stats,
      double rows,
      double guess) {
    if (ref.getIndex() >= stats.size()) {
      return guess;
    }
    ColumnStatistics s = stats.get(ref.getIndex());
    double ndv = distinct(s, rows);
    double nonNull = s.rows() > 0 ? 1 - (double) s.nulls() / s.rows() : 1;
    Double value = number(literal);
    Double min = number(s.min());
    Double max = number(s.max());
    switch (kind) {
      case EQUALS:
        if (value != null && min != null && max != null && (value < min || value > max)) {
          return 0;
        }
        return nonNull / ndv;
      case NOT_EQUALS:
        return nonNull * (1 - 1 / ndv);
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
        return nonNull * below(value, min, max, guess);
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return nonNull * (1 - below(value, min, max, 1 - guess));
      default:
        return guess;
    }
  }

  /** The share of [min, max] below {@code value}; {@code otherwise} when not numeric. */
  private static double below(Double value, Double min, Double max, double otherwise) {
    if (value == null || min == null || max == null) {
      return otherwise;
    }
    if (max <= min) {
      return value > min ? 1 : 0;
    }
    return Math.max(0, Math.min(1, (value - min) / (max - min)));
  }

  private static double search(Sarg<?> sarg, ColumnStatistics s, double rows, double guess) {
    double ndv = distinct(s, rows);
    double nonNull = s.rows() > 0 ? 1 - (double) s.nulls() / s.rows() : 1;
    double nullShare = 1 - nonNull;
    double nulls = sarg.nullAs == org.apache.calcite.rex.RexUnknownAs.TRUE ? nullShare : 0;
    if (sarg.isPoints()) {
      return Math.min(1, nulls + nonNull * sarg.pointCount / ndv);
    }
    Double min = number(s.min());
    Double max = number(s.max());
    if (min == null || max == null) {
      return guess;
    }
    double share = 0;
    for (com.google.common.collect.Range<?> r : sarg.rangeSet.asRanges()) {
      double low = 0;
      double high = 1;
      if (r.hasLowerBound()) {
        Double v = number(r.lowerEndpoint());
        if (v == null) {
          return guess;
        }
        low = below(v, min, max, 0);
      }
      if (r.hasUpperBound()) {
        Double v = number(r.upperEndpoint());
        if (v == null) {
          return guess;
        }
        high = below(v, min, max, 1);
      }
      if (r.hasLowerBound() && r.hasUpperBound() && r.lowerEndpoint().equals(r.upperEndpoint())) {
        share += 1 / ndv;
      } else {
        share += Math.max(0, high - low);
      }
    }
    return Math.min(1, nulls + nonNull * share);
  }

  /** A literal's value as a number ({@link #number(Object)}); dates as days, not a Calendar. */
  static Double number(RexLiteral literal) {
    return switch (literal.getTypeName()) {
      case DATE -> number(literal.getValueAs(DateString.class));
      case TIMESTAMP -> number(literal.getValueAs(TimestampString.class));
      default -> number(literal.getValue());
    };
  }

  /** A literal's or a statistic's value on a numeric line (dates as days), or null. */
  static Double number(Object v) {
    if (v instanceof BigDecimal b) {
      return b.doubleValue();
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    if (v instanceof DateString d) {
      return (double) d.getDaysSinceEpoch();
    }
    if (v instanceof LocalDate d) {
      return (double) d.toEpochDay();
    }
    if (v instanceof TimestampString t) {
      return t.getMillisSinceEpoch() / 86_400_000.0;
    }
    if (v instanceof LocalDateTime t) {
      return t.toInstant(ZoneOffset.UTC).toEpochMilli() / 86_400_000.0;
    }
    return null;
  }
}
