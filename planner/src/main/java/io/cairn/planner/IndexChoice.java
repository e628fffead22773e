package io.cairn.planner;

import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.planner.plan.IndexScan;
import io.cairn.planner.plan.KeyBounds;
import io.cairn.planner.plan.ScanNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses, for one table scan, between the table's rows and each ACTIVE local index of the table,
 * by an estimated cost in rows read (issue 17).
 *
 * <p>The table: its rows times the selectivity of its primary-key bounds (all of them; one row per
 * complete key). An index: the table's rows times the selectivity of its bounds over the index's
 * parts, times {@value #LOOKUP_FACTOR} when the index does not cover the scan (each entry costs a
 * row lookup in its region), plus {@value #INDEX_SCAN_OVERHEAD_ROWS} for its requests (an index
 * range spreads over every region, so a scan asks each region the primary-key bounds leave it, one
 * request per region). The selectivity of an index's bounds comes from its statistics when they
 * were collected ({@link IndexSelectivity}: guide posts, distinct first-part values); else, as for
 * the table's bounds, it is fixed: {@value #EQUALITY_SELECTIVITY} per equal part, times {@value
 * #RANGE_SELECTIVITY} for a range on the next part; the bounds of a skip scan add up; clamped to
 * [one row, all rows]. An index is used only when its bounds limit its first part (never a full
 * index scan unless hinted) and it is cheaper than the table; {@code INDEX(table index ...)} forces
 * the cheapest of the named indexes, {@code NO_INDEX} forbids indexes.
 */
final class IndexChoice {
  static final double EQUALITY_SELECTIVITY = 0.01;
  static final double RANGE_SELECTIVITY = 0.25;
  static final double LOOKUP_FACTOR = 5;
  static final double INDEX_SCAN_OVERHEAD_ROWS = 100;

  private IndexChoice() {}

  /**
   * What planning knows of one table scan: its table, estimated rows, the index hints that apply to
   * it, and the key ranges the filter gives each index (from the filter's conjuncts, set when the
   * filter goes into the scan).
   */
  static final class Site {
    private final TableDescriptor table;
    private final double rows;
    private final boolean noIndex;
    private final boolean hinted;
    private final List<IndexDescriptor> forced;
    private final Map<Integer, List<KeyBounds>> bounds = new HashMap<>();

    /** The statistics of the planning under way, and those read so far by index id. */
    private final IndexStatisticsSource source = IndexSelectivity.current();

    private final Map<Integer, Optional<io.cairn.kv.IndexStatistics>> statistics = new HashMap<>();

    Site(
        TableDescriptor table,
        double rows,
        boolean noIndex,
        boolean hinted,
        List<IndexDescriptor> forced) {
      this.table = table;
      this.rows = Math.max(1, rows);
      this.noIndex = noIndex;
      this.hinted = hinted;
      this.forced = List.copyOf(forced);
    }

    TableDescriptor table() {
      return table;
    }

    /** The indexes a filter's ranges are worth computing for. */
    List<IndexDescriptor> candidates() {
      if (noIndex) {
        return List.of();
      }
      return hinted ? forced : active(table);
    }

    void setBounds(IndexDescriptor index, List<KeyBounds> indexBounds) {
      bounds.put(index.indexId(), List.copyOf(indexBounds));
    }

    /** {@code scan} (of this site's table) reading the cheapest index, or its rows. */
    ScanNode choose(ScanNode scan) {
      ScanNode plain = scan.index().isEmpty() ? scan : scan.withIndex(Optional.empty());
      if (plain.table().tableId() != table.tableId()) {
        return plain;
      }
      IndexScan best = null;
      double bestCost = Double.POSITIVE_INFINITY;
      for (IndexDescriptor index : candidates()) {
        List<KeyBounds> keys = bounds.getOrDefault(index.indexId(), List.of());
        if (keys.isEmpty() && !hinted) {
          continue; // never a whole index unless hinted
        }
        boolean covered = covers(plain, index);
        double cost =
            rows * indexSelectivity(index, keys) * (covered ? 1 : LOOKUP_FACTOR)
                + INDEX_SCAN_OVERHEAD_ROWS;
        if (cost < bestCost) {
          best = new IndexScan(index, keys, covered);
          bestCost = cost;
        }
      }
      if (best == null) {
        return plain;
      }
      double tableCost =
          plain.keys().isEmpty()
              ? rows
              : rows * selectivity(plain.keys(), table.primaryKey().size(), rows);
      if (!hinted && bestCost >= tableCost) {
        return plain;
      }
      return plain.withIndex(Optional.of(best));
    }

    /**
     * The share of {@code index}'s entries within {@code keys}: from its statistics when known,
     * else fixed.
     */
    private double indexSelectivity(IndexDescriptor index, List<KeyBounds> keys) {
      if (!keys.isEmpty() && keys.stream().noneMatch(KeyBounds::isAll)) {
        Optional<io.cairn.kv.IndexStatistics> s =
            statistics.computeIfAbsent(index.indexId(), id -> source.statistics(table, index));
        double estimate = IndexSelectivity.selectivity(table, index, keys, s);
        if (estimate >= 0) {
          return Math.max(1 / rows, estimate);
        }
      }
      return selectivity(keys, -1, rows);
    }
  }

  /** The indexes queries may read. */
  static List<IndexDescriptor> active(TableDescriptor table) {
    List<IndexDescriptor> active = new ArrayList<>();
    for (IndexDescriptor index : table.indexes()) {
      if (index.state() == IndexDescriptor.State.ACTIVE) {
        active.add(index);
      }
    }
    return active;
  }

  /** Whether every expression of {@code scan} reads only what the entries of {@code index} hold. */
  static boolean covers(ScanNode scan, IndexDescriptor index) {
    TableDescriptor table = scan.table();
    if (scan.filter().isPresent()
        && IndexScan.toEntry(table, index, scan.filter().get()).isEmpty()) {
      return false;
    }
    for (Expr e : scan.projection()) {
      if (IndexScan.toEntry(table, index, e).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * The share of rows within {@code keys}; a bound with all {@code uniqueParts} equal (a complete
   * primary key; -1: none) is one row.
   */
  static double selectivity(List<KeyBounds> keys, int uniqueParts, double rows) {
    if (keys.isEmpty() || keys.stream().anyMatch(KeyBounds::isAll)) {
      return 1;
    }
    double total = 0;
    for (KeyBounds b : keys) {
      int equal = b.equalPrefix().size();
      boolean range = b.lower().isPresent() || b.upper().isPresent();
      if (equal == uniqueParts && !range) {
        total += 1 / rows;
        continue;
      }
      double s = Math.pow(EQUALITY_SELECTIVITY, equal);
      if (range) {
        s *= RANGE_SELECTIVITY;
      }
      total += s;
    }
    return Math.max(1 / rows, Math.min(1, total));
  }
}
