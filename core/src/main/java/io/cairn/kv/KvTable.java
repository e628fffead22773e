package io.cairn.kv;

import java.util.List;
import java.util.Map;

/** A sorted table of (key, value) rows with MVCC snapshots. Thread-safe. */
public interface KvTable {
  String name();

  /**
   * Applies the batch with the table's default durability. See {@link #mutate(List, Durability)}.
   */
  default void mutate(List<Mutation> batch) {
    mutate(batch, null);
  }

  /**
   * Applies the batch atomically (all or nothing, one sequence id) after checking every condition,
   * and returns once it is as durable as {@code durability} asks (null: the table's default).
   *
   * @throws ConditionFailedException when a condition fails; nothing is applied
   */
  void mutate(List<Mutation> batch, Durability durability);

  /** Opens a scan over a snapshot taken now; concurrent writes are not seen. */
  RowScanner scan(ScanRequest request);

  /**
   * The values the rows of {@code keys} hold now (each row's newest committed value, as stored), by
   * key; a key without a row is left out. A store without read points ({@link
   * KvStore.Guarantees#LATEST_PER_ROW}) answers it, so that a read-modify-write can write each row
   * on condition it still holds the value read ({@link Mutation.Condition#valueIs}); other stores
   * refuse it with NOT_SUPPORTED.
   */
  default Map<io.cairn.core.bytes.Bytes, io.cairn.core.bytes.Bytes> latestValues(
      List<io.cairn.core.bytes.Bytes> keys) {
    throw new io.cairn.core.error.CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED,
        "Table [" + name() + "]: this store reads at read points, not latest values by key");
  }

  /**
   * About how many rows the table holds (versions and deletes may be counted), for the planner's
   * estimates; -1 when unknown. Cheap: never scans.
   */
  default long approximateRowCount() {
    return -1;
  }

  /**
   * A sequence id at or after the table's last change: any two read points at or above it see the
   * same rows (a commit to the table is counted before it becomes visible). Cheap (no I/O in the
   * embedded store, one small round trip remote), so that a driver can tell whether what it read
   * earlier is still what the table holds, e.g. to reuse a join's build side ({@code
   * exec.JoinBuildCache}). {@link Long#MAX_VALUE} (the default) when the store cannot tell, or the
   * rows change without commits (a TTL expires them): never the same.
   */
  default long lastChangeSequence() {
    return Long.MAX_VALUE;
  }

  /** Reserves {@code count} consecutive ids, unique within this table, and returns the first. */
  long allocateIds(long count);

  /** The table's current options (validated, canonical), as created or last altered. */
  default Map<String, String> options() {
    return Map.of();
  }

  /**
   * Changes table options; storage options (encoding, compression, block size, bloom filter) apply
   * to files written afterwards. {@code options} holds only the options to change.
   */
  default void alter(Map<String, String> options) {}

  /** Writes every region's memstore to files now (a no-op for a store without files). */
  default void flush() {}

  /**
   * Compacts every region's files now: a major compaction rewrites all of them into one, dropping
   * deleted and overwritten cells; a minor one merges what the size-ratio policy picks.
   */
  default void compact(boolean major) {}

  /**
   * Splits every region that holds data in two at its middle row, after writing its memstores to
   * files (HBase's split of a table). A no-op for a store without files.
   */
  default void split() {}

  /**
   * Sets the local indexes the table's writes maintain, replacing the previous set (its owner, the
   * catalog, calls it at open and after every index change). From the return on, every commit
   * writes, in its own batch and log record, the entries of every index in {@code indexes} for the
   * rows it changes (an update removes the old entry and adds the new one). Entries of an index no
   * longer in the set are ignored and dropped by compactions. {@code layout} is the table's rows';
   * it has a primary key.
   *
   * @throws io.cairn.core.error.CairnException NOT_SUPPORTED when the store keeps no indexes
   */
  default void defineIndexes(io.cairn.core.encoding.RowLayout layout, List<IndexSpec> indexes) {
    if (!indexes.isEmpty()) {
      throw new io.cairn.core.error.CairnException(
          io.cairn.core.error.ErrorCode.NOT_SUPPORTED,
          "Table [" + name() + "]: this store keeps no local indexes");
    }
  }

  /**
   * Sets the local indexes the table's writes maintain as the catalog read from the store records
   * them (at open, or when another client changed them): what {@link #defineIndexes} does, but this
   * client changes nothing, so a store that coordinates index changes between clients neither runs
   * that protocol nor drops the tables of indexes no longer in the set (the client that changed
   * them does). {@code catalogUnchanged} reads the catalog's record of the table again and tells
   * whether it still says {@code indexes}; a store that repairs shared state from the catalog
   * (HBase's index fence, left behind by a client that died in a change) calls it after reading
   * that state and repairs it only when it answers true, so a stale read never overwrites a newer
   * change.
   *
   * @return false when the store cannot take the set yet (an index's storage is still being made by
   *     the client that added it): the catalog tries again at its next read
   * @throws io.cairn.core.error.CairnException NOT_SUPPORTED when the store keeps no indexes
   */
  default boolean adoptIndexes(
      io.cairn.core.encoding.RowLayout layout,
      List<IndexSpec> indexes,
      java.util.function.BooleanSupplier catalogUnchanged) {
    defineIndexes(layout, indexes);
    return true;
  }

  /**
   * Whether each region keeps the index entries of its own rows, so that an index read restricted
   * to a region's rows ({@link IndexRead#rows}) reads only that region's entries and a driver may
   * cut an index read at region boundaries into parallel requests. False for a store that keeps
   * each index apart from the rows (HBase: an index is a table of its own, ordered by its entries
   * alone), where every such request would read all the entries of its ranges: read it as one.
   */
  default boolean indexesByRegion() {
    return true;
  }

  /**
   * Writes the entries of index {@code indexId} (already in {@link #defineIndexes}, so that writes
   * maintain it) for every row of a snapshot taken after that, region by region in parallel; writes
   * after the snapshot maintained the index themselves and win. {@code progress} gets the rows
   * indexed so far now and then (from any thread). Returns the entries written.
   *
   * @throws io.cairn.core.error.CairnException NOT_SUPPORTED when the store keeps no indexes
   */
  default long buildIndex(int indexId, java.util.function.LongConsumer progress) {
    throw new io.cairn.core.error.CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED,
        "Table [" + name() + "]: this store keeps no local indexes");
  }

  /**
   * Compares index {@code indexId} (in {@link #defineIndexes}) with the table's rows at a snapshot
   * taken now: every row must have exactly its entry, with its included columns, and every entry a
   * row.
   *
   * @throws io.cairn.core.error.CairnException NOT_SUPPORTED when the store keeps no indexes
   */
  default IndexCheck verifyIndex(int indexId) {
    throw new io.cairn.core.error.CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED,
        "Table [" + name() + "]: this store keeps no local indexes");
  }

  /** The table's regions in key order. */
  List<RegionInfo> regions();

  /**
   * The table's current statistics (cheap: never scans). A store that keeps no guide posts reports
   * one chunk per region ({@link TableStatistics#ofRegions}).
   */
  default TableStatistics statistics() {
    return TableStatistics.ofRegions(regions());
  }

  /**
   * Collects the table's statistics now by reading it ({@code UPDATE STATISTICS}), with those of
   * its local indexes ({@link #indexStatistics}), and returns the table's. A store that keeps none
   * returns {@link #statistics()}.
   */
  default TableStatistics updateStatistics() {
    return statistics();
  }

  /**
   * The statistics of each column of the table's rows (cheap: never scans), merged over its
   * regions, as of their last collection ({@link TableStatistics#columns}); empty when unknown
   * (none collected, a region never collected since the catalog defined the table's layout with
   * {@link #defineIndexes}, or a store that keeps none).
   */
  default List<ColumnStatistics> columnStatistics() {
    return statistics().columns();
  }

  /**
   * The current statistics of local index {@code indexId} (cheap: never scans), collected with the
   * table's ({@link #updateStatistics}); empty when none were collected or the store keeps none.
   */
  default java.util.Optional<IndexStatistics> indexStatistics(int indexId) {
    return java.util.Optional.empty();
  }
}
