package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.memory.MemoryPool;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.exec.spill.SpillSpace;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;

/**
 * What operators of one statement execution share. {@code parallelism}: how many chunks of one
 * table scan run at once (the connection property {@code parallelism}); {@code aggregateMaxBytes}
 * bounds the memory of each of its grouped aggregations (the connection property {@code
 * aggregateMaxBytes}); {@code readPoint}: the snapshot every scan of the statement reads at ({@link
 * io.cairn.kv.ScanRequest#LATEST}: each scan its own, for a statement of one scan request); {@code
 * pending}: the uncommitted writes of the statement's transaction, which its scans read over the
 * store's rows; {@code memory}: the statement's pool ({@link DriverMemory#query}), in which its
 * sorts, joins, aggregations, set operations and windows reserve what they hold; {@code spill}:
 * where its joins, sorts and grouped aggregations write what does not fit there (deleted when the
 * execution is closed); {@code joinBuilds}: where its broadcast joins keep their build sides for
 * the statement's next execution ({@link JoinBuildCache.Scope#NONE}: nowhere); {@code shared}: the
 * rows of its subplans that run more than once, computed once ({@link SharedResults}, set by {@link
 * QueryExecution}).
 */
public record ExecContext(
    KvStore store,
    EvalContext eval,
    ExecutionControl control,
    int parallelism,
    long aggregateMaxBytes,
    MemoryPool memory,
    long readPoint,
    TransactionWrites pending,
    long hashJoinMaxBytes,
    SpillSpace spill,
    JoinBuildCache.Scope joinBuilds,
    SharedResults shared) {
  /**
   * The connection property of {@code hashJoinMaxBytes}: the build side of a join probed in the
   * store ({@link BroadcastJoin}) past which the probe runs in the driver.
   */
  public static final String HASH_JOIN_MAX_BYTES_PROPERTY = "hashJoinMaxBytes";

  /** The default of {@code hashJoinMaxBytes}: 64 MiB (estimated). */
  public static final long DEFAULT_HASH_JOIN_MAX_BYTES = 64L << 20;

  /**
   * The connection property of {@code aggregateMaxBytes} ({@code
   * ConnectionUrl.AGGREGATE_MAX_BYTES}), which the aggregation names when it runs out: named here
   * so that the executor does not import the URL parser above it.
   */
  public static final String AGGREGATE_MAX_BYTES_PROPERTY = "aggregateMaxBytes";

  public ExecContext {
    requireNonNull(store, "store is null");
    requireNonNull(memory, "memory is null");
    requireNonNull(eval, "eval is null");
    requireNonNull(control, "control is null");
    requireNonNull(pending, "pending is null");
    requireNonNull(spill, "spill is null");
    requireNonNull(joinBuilds, "joinBuilds is null");
    requireNonNull(shared, "shared is null");
    if (readPoint < 0) {
      throw new IllegalArgumentException("readPoint must be >= 0: [" + readPoint + "]");
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be positive: [" + parallelism + "]");
    }
    if (hashJoinMaxBytes <= 0) {
      throw new IllegalArgumentException(
          "hashJoinMaxBytes must be positive: [" + hashJoinMaxBytes + "]");
    }
    if (aggregateMaxBytes <= 0) {
      throw new IllegalArgumentException(
          "aggregateMaxBytes must be positive: [" + aggregateMaxBytes + "]");
    }
  }

  /** A context whose probed joins' build sides may use the default {@code hashJoinMaxBytes}. */
  public ExecContext(
      KvStore store,
      EvalContext eval,
      ExecutionControl control,
      int parallelism,
      long aggregateMaxBytes,
      MemoryPool memory,
      long readPoint,
      TransactionWrites pending) {
    this(
        store,
        eval,
        control,
        parallelism,
        aggregateMaxBytes,
        memory,
        readPoint,
        pending,
        DEFAULT_HASH_JOIN_MAX_BYTES,
        SpillSpace.create(),
        JoinBuildCache.Scope.NONE,
        SharedResults.NONE);
  }

  /** The same context sharing the rows of {@code results}' subplans. */
  ExecContext withShared(SharedResults results) {
    return new ExecContext(
        store,
        eval,
        control,
        parallelism,
        aggregateMaxBytes,
        memory,
        readPoint,
        pending,
        hashJoinMaxBytes,
        spill,
        joinBuilds,
        results);
  }

  /** The same context with another {@code hashJoinMaxBytes}. */
  public ExecContext withHashJoinMaxBytes(long maxBytes) {
    return new ExecContext(
        store,
        eval,
        control,
        parallelism,
        aggregateMaxBytes,
        memory,
        readPoint,
        pending,
        maxBytes,
        spill,
        joinBuilds,
        shared);
  }

  /**
   * The same context keeping its joins' build sides in {@code scope} for later executions of the
   * same statement ({@link JoinBuildCache}).
   */
  public ExecContext withJoinBuilds(JoinBuildCache.Scope scope) {
    return new ExecContext(
        store,
        eval,
        control,
        parallelism,
        aggregateMaxBytes,
        memory,
        readPoint,
        pending,
        hashJoinMaxBytes,
        spill,
        scope,
        shared);
  }

  /** A context of a statement outside a transaction whose scans each read their own snapshot. */
  public ExecContext(
      KvStore store,
      EvalContext eval,
      ExecutionControl control,
      int parallelism,
      long aggregateMaxBytes,
      MemoryPool memory) {
    this(
        store,
        eval,
        control,
        parallelism,
        aggregateMaxBytes,
        memory,
        io.cairn.kv.ScanRequest.LATEST,
        TransactionWrites.NONE);
  }

  /**
   * A context of a statement outside a transaction whose memory counts in a pool of its own, with
   * no limit but the JVM-wide one.
   */
  public ExecContext(
      KvStore store,
      EvalContext eval,
      ExecutionControl control,
      int parallelism,
      long aggregateMaxBytes) {
    this(
        store,
        eval,
        control,
        parallelism,
        aggregateMaxBytes,
        DriverMemory.query(DriverMemory.connection(), 0));
  }

  /** The same context reading at {@code readPoint} over {@code pending}. */
  public ExecContext at(long readPoint, TransactionWrites pending) {
    return new ExecContext(
        store,
        eval,
        control,
        parallelism,
        aggregateMaxBytes,
        memory,
        readPoint,
        pending,
        hashJoinMaxBytes,
        spill,
        joinBuilds,
        shared);
  }

  /**
   * A context whose scans run as many chunks at once as the machine has processors and whose
   * grouped aggregations may use {@link AggregationMemory#DEFAULT_MAX_BYTES}.
   */
  public ExecContext(KvStore store, EvalContext eval, ExecutionControl control) {
    this(store, eval, control, defaultParallelism(), AggregationMemory.DEFAULT_MAX_BYTES);
  }

  /** The KV table of {@code table} in {@code store}, failing when it was dropped since planning. */
  public static KvTable kvTable(KvStore store, TableDescriptor table) {
    return store
        .table(table.kvTableName())
        .orElseThrow(
            () ->
                new CairnException(
                    ErrorCode.TABLE_NOT_FOUND,
                    "Table [" + table.qualifiedName() + "] no longer exists"));
  }

  /** The default of the connection property {@code parallelism}: the available processors. */
  public static int defaultParallelism() {
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }
}
