package io.cairn.jdbc.internal.session;

import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import io.cairn.jdbc.internal.engine.Session;
import io.cairn.jdbc.internal.exec.DriverMemory;
import io.cairn.jdbc.internal.exec.ExecContext;
import io.cairn.jdbc.internal.exec.JoinBuildCache;
import io.cairn.jdbc.internal.exec.TransactionWrites;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.planner.PlannedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A session on a {@link Database}, embedded or remote. In autocommit mode every DML statement is
 * applied atomically when it finishes. Otherwise the session runs a transaction under snapshot
 * isolation: its first statement pins a snapshot ({@link KvStore#openSnapshot()}) that all its
 * statements read at, with the transaction's own buffered writes laid over the store's rows ({@link
 * TransactionWrites}); {@link #commit()} applies the writes to all tables atomically, each with the
 * condition its statement gave (a read-modify-write's row unchanged since the snapshot, an INSERT's
 * key absent; blind writes have none), so that the first of two transactions that changed a row
 * they both read wins and the other fails with WRITE_CONFLICT (40001), rolled back. DDL is applied
 * at once, as in Phoenix. Writes are as durable as the connection's {@code durability} property
 * asks (null: each table's DURABILITY option). Closing the session gives its reference back to the
 * database (the last one closes a file database, or a remote database's network connection).
 */
public final class DatabaseSession implements Session {
  /** Planning errors that a catalog copy lagging behind its source could cause. */
  private static final Set<ErrorCode> CATALOG_MISSES =
      EnumSet.of(ErrorCode.TABLE_NOT_FOUND, ErrorCode.COLUMN_NOT_FOUND, ErrorCode.SCHEMA_NOT_FOUND);

  private final Database database;
  private final Durability durability;
  private final int parallelism;

  /** The transaction's buffered writes, per KV table and key. */
  private final TransactionWrites pending = new TransactionWrites();

  /** The tables written to by the transaction, by KV table name, for commit's messages. */
  private final Map<String, TableDescriptor> pendingTables = new LinkedHashMap<>();

  /** The transaction's snapshot, opened by its first statement; null outside one. */
  private KvSnapshot transactionSnapshot;

  private boolean autoCommit = true;
  private boolean readOnly;
  private boolean closed;

  private final long aggregateMaxBytes;

  /** The limit of each query's memory in the driver; 0: only the JVM's. */
  private final long queryMemoryMaxBytes;

  /** The pool of this connection's queries, under the JVM's ({@link DriverMemory}). */
  private final MemoryPool memory = DriverMemory.connection();

  /**
   * A session holding one connection of {@code database} (acquired by the caller), released by
   * {@link #close()}.
   */
  public DatabaseSession(Database database, Durability durability) {
    this(
        database,
        durability,
        ExecContext.defaultParallelism(),
        AggregationMemory.DEFAULT_MAX_BYTES);
  }

  /**
   * A session whose table scans run at most {@code parallelism} chunks at once (see {@link
   * #parallelism(Properties)}) and whose grouped aggregations in the driver may each use {@code
   * aggregateMaxBytes} (estimated).
   */
  public DatabaseSession(
      Database database, Durability durability, int parallelism, long aggregateMaxBytes) {
    this(database, durability, parallelism, aggregateMaxBytes, 0);
  }

  /**
   * A session as above whose queries may each hold {@code queryMemoryMaxBytes} of state in the
   * driver (0: no limit of their own, the JVM-wide one only; see {@link DriverMemory}).
   */
  public DatabaseSession(
      Database database,
      Durability durability,
      int parallelism,
      long aggregateMaxBytes,
      long queryMemoryMaxBytes) {
    this.database = database;
    this.durability = durability;
    this.parallelism = parallelism;
    this.aggregateMaxBytes = aggregateMaxBytes;
    this.queryMemoryMaxBytes = queryMemoryMaxBytes;
  }

  /** A new pool for one statement's memory in the driver, under this connection's. */
  MemoryPool queryMemory() {
    return DriverMemory.query(memory, queryMemoryMaxBytes);
  }

  /** The pool of this connection's queries (for tests and monitoring). */
  public MemoryPool memory() {
    return memory;
  }

  /**
   * The {@value ConnectionUrl#AGGREGATE_MAX_BYTES} connection property, or the default ({@link
   * AggregationMemory#DEFAULT_MAX_BYTES}) when it is absent.
   *
   * @throws CairnException INVALID_URL when it is not a size of at least 1k
   */
  public static long aggregateMaxBytes(Properties info) {
    return DriverMemory.sizeProperty(
        info, ConnectionUrl.AGGREGATE_MAX_BYTES, AggregationMemory.DEFAULT_MAX_BYTES);
  }

  /** The build side of a join probed in the store past which the probe runs in the driver. */
  private long hashJoinMaxBytes = ExecContext.DEFAULT_HASH_JOIN_MAX_BYTES;

  /**
   * The {@value ConnectionUrl#HASH_JOIN_MAX_BYTES} connection property, or its default ({@link
   * ExecContext#DEFAULT_HASH_JOIN_MAX_BYTES}) when it is absent.
   *
   * @throws CairnException INVALID_URL when it is not a size of at least 1k
   */
  public static long hashJoinMaxBytes(Properties info) {
    return DriverMemory.sizeProperty(
        info, ConnectionUrl.HASH_JOIN_MAX_BYTES, ExecContext.DEFAULT_HASH_JOIN_MAX_BYTES);
  }

  /** Sets the session's {@code hashJoinMaxBytes} (the factories, from the connection property). */
  public DatabaseSession withHashJoinMaxBytes(long maxBytes) {
    this.hashJoinMaxBytes = maxBytes;
    return this;
  }

  long hashJoinMaxBytes() {
    return hashJoinMaxBytes;
  }

  /** Whether prepared statements keep their joins' build sides; see {@link #joinBuilds}. */
  private boolean joinBuildReuse = true;

  /** The kept build sides; created by the first statement that keeps one. */
  private JoinBuildCache joinBuilds;

  /**
   * The {@value ConnectionUrl#JOIN_BUILD_REUSE} connection property: true (the default) or false.
   *
   * @throws CairnException INVALID_URL when it is neither
   */
  public static boolean joinBuildReuse(Properties info) {
    String value = info == null ? null : info.getProperty(ConnectionUrl.JOIN_BUILD_REUSE);
    if (value == null || value.strip().equalsIgnoreCase("true")) {
      return true;
    }
    if (value.strip().equalsIgnoreCase("false")) {
      return false;
    }
    throw new CairnException(
        ErrorCode.INVALID_URL,
        "Property ["
            + ConnectionUrl.JOIN_BUILD_REUSE
            + "]: expected [true] or [false], found ["
            + value
            + "]");
  }

  /** Sets the session's {@code joinBuildReuse} (the factories, from the connection property). */
  public DatabaseSession withJoinBuildReuse(boolean reuse) {
    this.joinBuildReuse = reuse;
    return this;
  }

  /**
   * Where the executions of {@code command} keep their joins' build sides for its next execution:
   * the connection's {@link JoinBuildCache} (at most {@code hashJoinMaxBytes} in all, counted in
   * the connection's memory), or nowhere when the connection property turned it off.
   */
  synchronized JoinBuildCache.Scope joinBuilds(Object command) {
    if (!joinBuildReuse || closed) {
      return JoinBuildCache.Scope.NONE;
    }
    if (joinBuilds == null) {
      joinBuilds = new JoinBuildCache(database.store(), memory, hashJoinMaxBytes);
    }
    return joinBuilds.scope(command);
  }

  /** Drops the build sides {@code command} kept (its statement closed). */
  synchronized void dropJoinBuilds(Object command) {
    if (joinBuilds != null) {
      joinBuilds.dropOwner(command);
    }
  }

  /** The connection's kept build sides (for tests), or null when none were kept. */
  public synchronized JoinBuildCache joinBuildCache() {
    return joinBuilds;
  }

  /** The memory one grouped aggregation of this session may use in the driver. */
  long aggregateMaxBytes() {
    return aggregateMaxBytes;
  }

  /**
   * The {@value ConnectionUrl#PARALLELISM} connection property, or the processors available to the
   * JVM when it is absent.
   *
   * @throws CairnException INVALID_URL when it is not a positive integer
   */
  public static int parallelism(Properties info) {
    String value = info == null ? null : info.getProperty(ConnectionUrl.PARALLELISM);
    if (value == null) {
      return ExecContext.defaultParallelism();
    }
    int parsed;
    try {
      parsed = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      parsed = 0;
    }
    if (parsed < 1) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Invalid value for connection property ["
              + ConnectionUrl.PARALLELISM
              + "]: expected a positive integer (chunks of a scan run at once), found ["
              + value
              + "]");
    }
    return parsed;
  }

  /** How many chunks of one table scan run at once. */
  int parallelism() {
    return parallelism;
  }

  /**
   * The {@value ConnectionUrl#DURABILITY} connection property, or null (each table's default) when
   * it is absent.
   *
   * @throws CairnException INVALID_URL when it names no durability
   */
  public static Durability durability(Properties info) {
    String value = info == null ? null : info.getProperty(ConnectionUrl.DURABILITY);
    if (value == null) {
      return null;
    }
    try {
      return Durability.valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Invalid value for connection property ["
              + ConnectionUrl.DURABILITY
              + "]: expected one of "
              + Arrays.toString(Durability.values())
              + " (any case), found ["
              + value
              + "]",
          e);
    }
  }

  /** The durability of this session's writes; null: each table's default. */
  Durability durability() {
    return durability;
  }

  public Database database() {
    return database;
  }

  private void checkOpen() {
    if (closed) {
      throw new CairnException(ErrorCode.CONNECTION_CLOSED, "Session is closed");
    }
  }

  @Override
  public PreparedCommand prepare(String sql) {
    return prepare(sql, new AtomicBoolean());
  }

  @Override
  public PreparedCommand prepare(String sql, ExecutionControl control) {
    AtomicBoolean cancel = new AtomicBoolean();
    control.onCancel(() -> cancel.set(true));
    return prepare(sql, cancel);
  }

  private PreparedCommand prepare(String sql, AtomicBoolean cancel) {
    checkOpen();
    database.beforeStatement();
    PlannedStatement planned;
    try {
      planned = database.planner().plan(sql, cancel);
    } catch (CairnException e) {
      if (!CATALOG_MISSES.contains(e.errorCode()) || !database.catchUp()) {
        throw e;
      }
      // another connection's DDL that this copy of the catalog had not heard of yet
      planned = database.planner().plan(sql, cancel);
    }
    return new DatabaseCommand(this, planned, planned.plan(), planned.warnings());
  }

  @Override
  public boolean autoCommit() {
    return autoCommit;
  }

  @Override
  public void setAutoCommit(boolean autoCommit) {
    checkOpen();
    if (autoCommit && !this.autoCommit) {
      commit();
    }
    this.autoCommit = autoCommit;
  }

  @Override
  public void setReadOnly(boolean readOnly) {
    checkOpen();
    this.readOnly = readOnly;
  }

  /** Whether DML and DDL are refused (READ_ONLY_TRANSACTION). */
  boolean readOnly() {
    return readOnly;
  }

  /**
   * The read point of the transaction (autocommit off): the snapshot its first statement opened,
   * kept until commit or rollback.
   */
  long transactionReadPoint() {
    if (autoCommit) {
      throw CairnException.internal("No transaction: autocommit is on");
    }
    if (transactionSnapshot == null) {
      transactionSnapshot = database.store().openSnapshot();
    }
    return transactionSnapshot.readPoint();
  }

  /** The transaction's buffered writes, which its statements read over the store's rows. */
  TransactionWrites pending() {
    return autoCommit ? TransactionWrites.NONE : pending;
  }

  /**
   * {@code e}, after reading the catalog again when the store refused a write because this copy of
   * it is out of date (55000: another client changed the table's indexes), so that the next
   * statement writes with the indexes the store now records.
   */
  private CairnException catalogRefused(CairnException e) {
    if (e.errorCode() == ErrorCode.CATALOG_OUT_OF_DATE) {
      try {
        database.catchUp();
      } catch (RuntimeException refresh) {
        e.addSuppressed(refresh);
      }
    }
    return e;
  }

  /** A newly pinned read point of the store, for one statement: close it. */
  KvSnapshot openSnapshot() {
    return database.store().openSnapshot();
  }

  /** Applies {@code batch} now (autocommit) or buffers it (transaction). */
  void write(TableDescriptor table, KvTable kv, List<Mutation> batch) {
    if (batch.isEmpty()) {
      return;
    }
    if (autoCommit) {
      try {
        Mutations.apply(table, kv, batch, durability);
      } catch (CairnException e) {
        throw catalogRefused(e);
      }
      return;
    }
    String name = table.kvTableName();
    if (batch.stream()
        .anyMatch(m -> m.condition().kind() == Mutation.Condition.Kind.MUST_NOT_EXIST)) {
      Mutations.checkAbsent(table, kv, batch, pending.of(name), transactionReadPoint());
    }
    for (Mutation m : batch) {
      pending.add(
          name, Mutations.followUp(pending.of(name).get(m.key()), m, this::transactionReadPoint));
    }
    pendingTables.putIfAbsent(name, table);
  }

  @Override
  public void commit() {
    checkOpen();
    List<TableDescriptor> tables = new ArrayList<>();
    List<KvStore.TableBatch> batches = new ArrayList<>();
    try {
      for (Map.Entry<String, TableDescriptor> e : pendingTables.entrySet()) {
        TableDescriptor table = e.getValue();
        KvTable kv =
            database
                .store()
                .table(e.getKey())
                .orElseThrow(
                    () ->
                        new CairnException(
                            ErrorCode.TABLE_NOT_FOUND,
                            "Cannot commit: table ["
                                + table.qualifiedName()
                                + "] was dropped; the transaction was rolled back"));
        tables.add(table);
        batches.add(new KvStore.TableBatch(kv, List.copyOf(pending.of(e.getKey()).values())));
      }
      Mutations.apply(database.store(), tables, batches, durability);
    } catch (CairnException e) {
      throw rowByRowFailure(batches, catalogRefused(e));
    } finally {
      endTransaction(); // committed, or rolled back by the failure
    }
  }

  /**
   * A commit's failure, saying that rows may have been written where the store writes each row on
   * its own ({@link KvStore.Guarantees#LATEST_PER_ROW}, as Phoenix's non-transactional tables: a
   * commit of several rows writes them row by row and cannot be all or nothing).
   */
  private CairnException rowByRowFailure(List<KvStore.TableBatch> batches, CairnException e) {
    if (database.store().guarantees() != KvStore.Guarantees.LATEST_PER_ROW) {
      return e;
    }
    int rows = 0;
    for (KvStore.TableBatch b : batches) {
      rows += b.mutations().size();
    }
    if (rows < 2 || e.getCause() instanceof ConditionFailedException c && c.othersWritten()) {
      return e; // one row is atomic; a failed condition says itself that the others were written
    }
    return new CairnException(
        e.errorCode(),
        e.getMessage()
            + "; the commit of ["
            + rows
            + "] rows may have written some of them: this store ("
            + database.name()
            + ") writes each row on its own, as Phoenix's non-transactional tables (docs/hbase.md)",
        e);
  }

  @Override
  public void rollback() {
    checkOpen();
    endTransaction();
  }

  private void endTransaction() {
    pending.clear();
    pendingTables.clear();
    KvSnapshot s = transactionSnapshot;
    transactionSnapshot = null;
    if (s != null) {
      s.close();
    }
  }

  @Override
  public List<TableDescriptor> tables() {
    checkOpen();
    database.beforeStatement();
    return database.catalog().tables();
  }

  @Override
  public boolean isValid(int timeoutSeconds) {
    return !closed && database.isValid(timeoutSeconds);
  }

  @Override
  public String storeName() {
    return database.name();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      try {
        endTransaction();
      } finally {
        try {
          synchronized (this) {
            if (joinBuilds != null) {
              joinBuilds.close();
            }
          }
        } finally {
          database.release();
        }
      }
    }
  }
}
