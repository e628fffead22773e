package io.cairn.jdbc.internal.exec;

import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.KvTable;
import io.cairn.kv.RowScanner;
import io.cairn.planner.plan.ScanNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One scan of a probing {@link ScanNode} over one hash table ({@code probe} names its cache): the
 * table handed to the store ({@link io.cairn.kv.KvStore#putHashCache}) and the scan run there, or,
 * in a transaction that wrote to the probed table, the same program run in the driver over the
 * table's rows and those writes ({@link OverlayScan}). Closing closes the scan and removes the
 * cache; {@link BroadcastJoin} runs one, {@link ProbePasses} one per pass.
 */
final class ProbingScan implements Operator {
  private final ExecContext ctx;
  private final String cacheId;

  /** The scan in the store, or null. */
  private final Operator scan;

  /** The program run in the driver, and the removal of its cancel action; or null. */
  private final RowScanner overlay;

  private final Runnable unregister;

  private ProbingScan(
      ExecContext ctx, String cacheId, Operator scan, RowScanner overlay, Runnable unregister) {
    this.ctx = ctx;
    this.cacheId = cacheId;
    this.scan = scan;
    this.overlay = overlay;
    this.unregister = unregister;
  }

  /** Whether {@code node}'s scan reads a transaction's own writes (then it runs in the driver). */
  static boolean inDriver(ScanNode node, ExecContext ctx) {
    return ctx.pending().touches(node.table().kvTableName());
  }

  /** Starts the scan of {@code node} probing {@code table} through {@code probe}. */
  static ProbingScan open(ScanNode node, ExecContext ctx, HashProbe probe, JoinHashTable table) {
    String id = probe.cacheId();
    HashCacheLookup lookup = cache -> cache.equals(id) ? table : null;
    if (inDriver(node, ctx)) {
      KvTable kv = ExecContext.kvTable(ctx.store(), node.table());
      RowScanner opened = OverlayScan.open(node, kv, ctx, probe, lookup);
      return new ProbingScan(ctx, null, null, opened, ctx.control().onCancel(opened::close));
    }
    ctx.store().putHashCache(id, table);
    return new ProbingScan(ctx, id, new TableScan(node, ctx, probe, lookup), null, null);
  }

  /**
   * Starts the scan of {@code probing} in the store probing a table that a {@link JoinBuildCache}
   * keeps there as {@code table} (put by it, removed by it): closing closes only the scan.
   */
  static ProbingScan openKept(BroadcastJoin.Probing probing, ExecContext ctx, JoinHashTable table) {
    String id = probing.probe().cacheId();
    HashCacheLookup lookup = cache -> cache.equals(id) ? table : null;
    return new ProbingScan(
        ctx, null, new TableScan(probing.node(), ctx, probing.probe(), lookup), null, null);
  }

  @Override
  public Object[] next() {
    return scan != null ? scan.next() : overlay.next();
  }

  @Override
  public void close() {
    List<AutoCloseable> closing = new ArrayList<>();
    closing.add(scan);
    closing.add(overlay);
    closing.add(unregister == null ? null : unregister::run);
    closing.add(cacheId == null ? null : () -> ctx.store().removeHashCache(cacheId));
    io.cairn.core.io.Closeables.closeAllUnchecked(closing);
  }
}
