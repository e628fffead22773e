package io.cairn.kv;

import java.util.List;
import java.util.Optional;

/**
 * The KV SPI: the only way the driver and the catalog reach a store. Implemented by the embedded
 * stores (in memory and on files) now; by the remote client and an HBase adapter later.
 * Thread-safe.
 */
public interface KvStore extends AutoCloseable {
  /**
   * Creates an empty table.
   *
   * @throws io.cairn.core.error.CairnException TABLE_ALREADY_EXISTS when it exists
   */
  KvTable createTable(String name, TableSpec spec);

  /** Creates an empty table with default options and one region. */
  default KvTable createTable(String name) {
    return createTable(name, TableSpec.DEFAULT);
  }

  Optional<KvTable> table(String name);

  /**
   * Pins the store's current read point (every batch committed so far is visible at it) until the
   * snapshot is closed or reaches the store's maximum snapshot age. Reads pass it in {@link
   * ScanRequest#readPoint()}; read-modify-writes pass it in {@link
   * Mutation.Condition#unchangedSince}.
   */
  KvSnapshot openSnapshot();

  /** What a store guarantees about reads and batches (see {@link #guarantees()}). */
  enum Guarantees {
    /**
     * Snapshots pin a read point (every batch committed before it, none after) and a batch of
     * mutations over any rows and tables is applied all or nothing: the embedded store, the server.
     */
    SNAPSHOTS_AND_BATCHES,
    /**
     * No store-wide read point and atomicity per row only (HBase): {@link #openSnapshot} answers
     * {@link ScanRequest#LATEST}, so a read sees each row's newest committed version whenever it
     * reaches the row and a conditional write checks nothing past its own row (a read-modify-write
     * checks the row's value, {@link Mutation.Condition#valueIs}, read with {@link
     * KvTable#latestValues}, instead of a read point); a batch of several rows is applied row by
     * row (a failure part-way leaves the rows before it written), as in Phoenix's non-transactional
     * tables. The driver commits a transaction's rows so too and says so when a commit fails
     * part-way.
     */
    LATEST_PER_ROW
  }

  /** What this store guarantees; {@link Guarantees#SNAPSHOTS_AND_BATCHES} unless it says less. */
  default Guarantees guarantees() {
    return Guarantees.SNAPSHOTS_AND_BATCHES;
  }

  /**
   * How often, in milliseconds, a client of this store reads its catalog again, because clients in
   * other processes change the same store (HBase); 0 (the default): only this process changes it,
   * so the catalog read at open stays true. A store that answers more than 0 also keeps an index
   * recorded BUILDING at open maintained (another client may be building it) rather than taking it
   * for a build that died with its process.
   */
  default long catalogRefreshMillis() {
    return 0;
  }

  /** Mutations of one table, a part of a multi-table commit. */
  record TableBatch(KvTable table, List<Mutation> mutations) {
    public TableBatch {
      java.util.Objects.requireNonNull(table, "table is null");
      mutations = List.copyOf(mutations);
    }
  }

  /**
   * Applies batches of several tables of this store. The embedded stores apply them atomically (one
   * sequence id, visible at once, all or nothing after a crash); this default applies each table's
   * batch atomically in turn, which is what a store without cross-table commits can do. Durability
   * null: the strongest default of the tables involved.
   *
   * @throws ConditionFailedException naming the failing batch and mutation; with this default,
   *     earlier batches stay applied (and the exception says {@link
   *     ConditionFailedException#othersWritten} when there were any)
   */
  default void mutate(List<TableBatch> batches, Durability durability) {
    for (int i = 0; i < batches.size(); i++) {
      TableBatch b = batches.get(i);
      try {
        b.table().mutate(b.mutations(), durability);
      } catch (ConditionFailedException e) {
        ConditionFailedException failed =
            new ConditionFailedException(
                i, e.mutationIndex(), b.mutations().get(e.mutationIndex()).key(), e.kind());
        throw i > 0 || e.othersWritten() ? failed.withOthersWritten() : failed;
      }
    }
  }

  /**
   * Makes a broadcast hash join's build side available to scans that probe {@code cacheId} ({@link
   * HashProbe}). The embedded stores need nothing here (the scan request hands them the object, see
   * {@link ScanRequest#hashCaches()}); a remote store sends a copy to its server once. The caller
   * removes it ({@link #removeHashCache}) when its statement ends.
   */
  default void putHashCache(String cacheId, JoinHashTable table) {}

  /**
   * Whether {@link #putHashCache} copies the table (to a server, whose memory the connection
   * property {@code hashJoinMaxBytes} bounds); false when scans probe the caller's own object.
   */
  default boolean copiesHashCaches() {
    return false;
  }

  /**
   * The generation of the store's hash caches: it changes whenever caches put earlier ({@link
   * #putHashCache}) may be gone without {@link #removeHashCache} (a remote store reconnected, its
   * server dropped the old connection's caches). A caller that keeps a cache across statements
   * reads it before the put and puts the table again when it differs. Always 0 when scans probe the
   * caller's own object.
   */
  default long hashCacheGeneration() {
    return 0;
  }

  /** Drops the hash cache {@code cacheId}; nothing when there is none. */
  default void removeHashCache(String cacheId) {}

  /** Drops the table and its data; does nothing when it does not exist. */
  void dropTable(String name);

  /**
   * Closes the store: a durable store flushes its memstores and releases its files and lock. Open
   * scanners fail afterwards.
   */
  @Override
  void close();
}
