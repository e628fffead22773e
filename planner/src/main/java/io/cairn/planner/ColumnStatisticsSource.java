package io.cairn.planner;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.kv.ColumnStatistics;
import java.util.List;

/**
 * Where the planner reads a table's column statistics (distinct values, nulls, min/max: {@link
 * io.cairn.kv.KvTable#columnStatistics}) for the cardinalities of filters and joins ({@link
 * Cardinalities}); asked while planning, at most once per table and statement. Empty when unknown:
 * the planner then keeps Calcite's fixed guesses.
 */
@FunctionalInterface
public interface ColumnStatisticsSource {
  /** A source that knows none. */
  ColumnStatisticsSource NONE = table -> List.of();

  /** One per column of {@code table} in its descriptor's order, or empty. */
  List<ColumnStatistics> statistics(TableDescriptor table);
}
