package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.KvTable;
import io.cairn.planner.plan.JoinProbe;
import io.cairn.planner.plan.ScanNode;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broadcast hash join probed in the store: runs a probing {@link ScanNode}. At the first {@link
 * #next()} it runs the build side ({@link JoinProbe#build()}) into a {@link JoinHashTable}, counted
 * in the query's memory pool, then:
 *
 * <ul>
 *   <li>hands it to the store ({@link io.cairn.kv.KvStore#putHashCache}: the embedded store probes
 *       this very object, given with each scan request; a server gets a copy once per query) and
 *       runs the scan with its probe in the store, chunked and in parallel like any scan, so only
 *       joined rows or partial aggregates come back;
 *   <li>when a server would get more than the connection's {@code hashJoinMaxBytes} (estimated), it
 *       probes in passes of at most that many bytes each ({@link ProbePasses}), with an SQLWarning:
 *       a switch of strategy, not a failure;
 *   <li>in a transaction that wrote to the probed table, it runs the same program in the driver
 *       over the table's rows and the transaction's writes ({@link OverlayScan});
 *   <li>when the probe's first key is the table's first key column and the build side has few keys,
 *       the scan reads only their rows ({@link LookupKeys}: a lookup join);
 *   <li>when the build side does not fit the query's memory at all, it is written to disk by hash
 *       partition and probed in passes ({@link ProbePasses}), with an SQLWarning.
 * </ul>
 *
 * The cache is removed from the store when the operator closes: at the statement's end, on failure
 * and on cancel (the executor closes its operators in every case). Except that a prepared
 * statement's join whose build side fits its connection's {@link JoinBuildCache} keeps it there:
 * the next execution with the same values of the build side's parameters probes it again without
 * running the build side nor shipping it, as long as no table the build side reads changed since
 * (see {@link JoinBuildCache}); the cache removes it when the statement closes, or when an
 * execution using it is cancelled.
 */
final class BroadcastJoin implements Operator {
  private static final Logger log = LoggerFactory.getLogger(BroadcastJoin.class);

  private final ScanNode node;
  private final ExecContext ctx;
  private final long maxBytes;
  private MemoryReservation memory;

  /**
   * The probing scan ({@link ProbingScan}) or its passes ({@link ProbePasses}); null until open.
   */
  private Operator probe;

  /** Whether the probe runs in the store (else in the driver); for tests. */
  private boolean inStore;

  /** The kept build side this execution probes (acquired, released at close), or null. */
  private JoinBuildCache.Entry kept;

  BroadcastJoin(ScanNode node, ExecContext ctx) {
    this.node = node;
    this.ctx = ctx;
    this.maxBytes = ctx.hashJoinMaxBytes();
  }

  /** The store's probe program of {@code node} probing the cache {@code cacheId}. */
  static HashProbe hashProbe(ScanNode node, String cacheId) {
    JoinProbe p = node.probe().orElseThrow();
    HashProbe.Kind kind =
        switch (p.kind()) {
          case INNER -> HashProbe.Kind.INNER;
          case LEFT -> HashProbe.Kind.LEFT;
          case SEMI -> HashProbe.Kind.SEMI;
          case ANTI -> HashProbe.Kind.ANTI;
          default ->
              throw io.cairn.core.error.CairnException.internal("Not a probe kind: " + p.kind());
        };
    return new HashProbe(
        cacheId, p.probeKeys(), kind, p.build().outputTypes(), p.residual(), p.nullAware());
  }

  private void open() {
    try {
      openProbe();
    } catch (RuntimeException | Error e) {
      if (kept != null) {
        // not probed (a put that failed, a cancel): keep no half-used entry
        ctx.joinBuilds().cache().release(kept, true);
        kept = null;
      }
      throw e;
    }
  }

  /**
   * The key of the join's build side in the statement's {@link JoinBuildCache}; empty when it may
   * not be kept: no cache, no read point (then nothing says what it read), a build side that reads
   * the time or no table, or one over a table the statement's transaction wrote (its rows include
   * writes nobody else sees).
   */
  private java.util.Optional<JoinBuildCache.Key> reuseKey(JoinProbe join) {
    if (!ctx.joinBuilds().enabled() || ctx.readPoint() == io.cairn.kv.ScanRequest.LATEST) {
      return java.util.Optional.empty();
    }
    BuildSide side = BuildSide.of(join.build());
    if (side.varies() || side.tables().isEmpty()) {
      return java.util.Optional.empty();
    }
    for (String t : side.tables()) {
      if (ctx.pending().touches(t)) {
        return java.util.Optional.empty();
      }
    }
    return java.util.Optional.of(new JoinBuildCache.Key(join.build(), side.parameterValues(ctx)));
  }

  /** Probes the build side kept by an earlier execution ({@link #kept}). */
  private void probeKept() {
    JoinHashTable table = kept.table();
    if (ProbingScan.inDriver(node, ctx)) {
      probe = ProbingScan.open(node, ctx, hashProbe(node, kept.cacheId()), table);
      return;
    }
    inStore = true;
    ctx.joinBuilds().cache().ensurePut(kept);
    probe = ProbingScan.openKept(probing(node.probe().orElseThrow(), table), ctx, table);
  }

  /**
   * The probing scan of a table (as a lookup join when it has few keys) and its probe, naming the
   * cache.
   */
  record Probing(ScanNode node, HashProbe probe) {}

  private Probing probing(JoinProbe join, JoinHashTable table, String cacheId) {
    return probing(node, join, table, cacheId, ctx);
  }

  /**
   * The probing scan of {@code node}'s table (as a lookup join when {@code table} has few keys) and
   * its probe of {@code table}, named {@code cacheId}, with the key filter where it pays.
   */
  static Probing probing(
      ScanNode node, JoinProbe join, JoinHashTable table, String cacheId, ExecContext ctx) {
    KvTable kv = ExecContext.kvTable(ctx.store(), node.table());
    ScanNode probing =
        LookupKeys.of(join, node.table().layout(), table, kv.approximateRowCount())
            .map(keys -> node.withKeysAndFilter(keys, node.filter()))
            .orElse(node);
    if (probing != node) {
      log.debug("Join of [{}]: looks up [{}] keys", node.table().qualifiedName(), table.keyCount());
    }
    HashProbe hashProbe =
        hashProbe(probing, cacheId).withKeyFilter(keyFilterPays(join, kv, table.keyCount()));
    return new Probing(probing, hashProbe);
  }

  private Probing probing(JoinProbe join, JoinHashTable table) {
    return probing(join, table, kept.cacheId());
  }

  private void openProbe() {
    JoinProbe join = node.probe().orElseThrow();
    java.util.Optional<JoinBuildCache.Key> key = reuseKey(join);
    if (key.isPresent()) {
      kept = ctx.joinBuilds().cache().acquire(key.get(), ctx.readPoint());
      if (kept != null) {
        log.debug("Join of [{}]: reuses its build side", node.table().qualifiedName());
        probeKept();
        return;
      }
    }
    memory = ctx.memory().reservation("BROADCAST JOIN (build side rows)");
    JoinHashTable.Builder builder =
        JoinHashTable.builder(join.build().outputTypes().size(), join.buildKeys());
    int steps = 0;
    try (Operator build = Operators.build(join.build(), ctx)) {
      for (Object[] row = build.next(); row != null; row = build.next()) {
        try {
          memory.add(builder.add(row));
        } catch (CairnException e) {
          if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED) {
            throw e;
          }
          // the build side does not fit: probe it in passes, each fitting the memory it had
          long fitBytes = builder.estimatedBytes();
          JoinHashTable.Builder held = builder;
          builder = null;
          String why = "does not fit in the query's memory (" + e.getMessage() + ")";
          probe =
              ProbePasses.spill(
                  node, ctx, held, build, ProbePasses.passBudget(fitBytes), why, memory::close);
          return;
        }
        if (++steps >= Operators.CHECK_INTERVAL) {
          steps = 0;
          ctx.control().check();
        }
      }
    }
    JoinHashTable table = builder.build();
    String cacheId = UUID.randomUUID().toString();
    if (ProbingScan.inDriver(node, ctx)) {
      // the transaction's own writes, which the store does not see: the program runs here
      probe = ProbingScan.open(node, ctx, hashProbe(node, cacheId), table);
      return;
    }
    if (ctx.store().copiesHashCaches() && table.estimatedBytes() > maxBytes) {
      // a server would hold more than the budget: probe in passes of at most the budget each
      String why =
          "is over ["
              + ExecContext.HASH_JOIN_MAX_BYTES_PROPERTY
              + "] ["
              + maxBytes
              + "] bytes that a server holds";
      probe = ProbePasses.spill(node, ctx, builder, Operators.NONE, maxBytes, why, memory::close);
      return;
    }
    inStore = true;
    if (key.isPresent()) {
      JoinBuildCache cache = ctx.joinBuilds().cache();
      List<String> tables = BuildSide.of(join.build()).tables();
      kept =
          cache.offer(key.get(), ctx.joinBuilds().owner(), table, cacheId, ctx.readPoint(), tables);
      if (kept != null) {
        // its bytes count in the connection's pool now, for as long as the cache keeps it
        memory.close();
        memory = null;
        cache.ensurePut(kept);
        probe = ProbingScan.openKept(probing(join, table), ctx, table);
        return;
      }
    }
    Probing probing = probing(join, table, cacheId);
    probe = ProbingScan.open(probing.node(), ctx, probing.probe(), table);
  }

  /**
   * Whether the store's key filter can skip many rows: false when the build side has at least half
   * as many keys as the probe column has distinct values (as its statistics say), so that most rows
   * would pass the test and it would only cost.
   */
  static boolean keyFilterPays(JoinProbe join, KvTable kv, int keys) {
    if (!(join.probeKeys().get(0) instanceof io.cairn.core.expr.Expr.ColumnRef ref)) {
      return true;
    }
    for (io.cairn.kv.ColumnStatistics s : kv.columnStatistics()) {
      if (s.columnIndex() == ref.index() && s.distinct() > 0) {
        return keys < s.distinct() / 2;
      }
    }
    return true;
  }

  /** Whether the probe runs in the store (known after the first {@link #next()}). */
  boolean probesInStore() {
    return inStore;
  }

  @Override
  public Object[] next() {
    if (probe == null) {
      ctx.control().check();
      open();
    }
    return probe.next();
  }

  @Override
  public void close() {
    try {
      if (probe != null) {
        probe.close();
      }
    } finally {
      try {
        if (memory != null) {
          memory.close();
        }
      } finally {
        if (kept != null) {
          // a cancelled execution keeps nothing: its statement may never run again
          ctx.joinBuilds().cache().release(kept, ctx.control().isCancelled());
          kept = null;
        }
      }
    }
  }
}
