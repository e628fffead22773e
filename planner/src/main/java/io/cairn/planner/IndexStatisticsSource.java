package io.cairn.planner;

import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.kv.IndexStatistics;
import java.util.Optional;

/**
 * Where the planner reads a local index's statistics (its entries' guide posts and counts, {@link
 * io.cairn.kv.KvTable#indexStatistics}) while choosing between a table and its indexes; asked while
 * planning, so that estimates follow the data. Empty when none were collected.
 */
@FunctionalInterface
public interface IndexStatisticsSource {
  /** A source that knows none: the planner uses fixed selectivities. */
  IndexStatisticsSource NONE = (table, index) -> Optional.empty();

  Optional<IndexStatistics> statistics(TableDescriptor table, IndexDescriptor index);
}
