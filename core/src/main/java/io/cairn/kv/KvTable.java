package io.cairn.kv;

import java.util.List;

/** A sorted table of (key, value) rows with MVCC snapshots. Thread-safe. */
public interface KvTable {
  String name();

  /**
   * Applies the batch atomically (all or nothing, one sequence id) after checking every condition.
   *
   * @throws ConditionFailedException when a condition fails; nothing is applied
   */
  void mutate(List<Mutation> batch);

  /** Opens a scan over a snapshot taken now; concurrent writes are not seen. */
  RowScanner scan(ScanRequest request);

  /**
   * About how many rows the table holds (versions and deletes may be counted), for the planner's
   * estimates; -1 when unknown. Cheap: never scans.
   */
  default long approximateRowCount() {
    return -1;
  }

  /** Reserves {@code count} consecutive ids, unique within this table, and returns the first. */
  long allocateIds(long count);
}
