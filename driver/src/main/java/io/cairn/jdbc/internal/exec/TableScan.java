package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.AsyncPageScans;
import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.HashProbe;
import io.cairn.kv.IndexRead;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvTable;
import io.cairn.kv.PageScanner;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.ScanNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a {@link ScanNode} in the store and streams its rows (partial aggregate states when the scan
 * has aggregates). At the first {@link #next()} it lays the scan out ({@link ScanLayout}): one
 * request read in this thread, as a scan always was, or a {@link ChunkedScan} of one request per
 * chunk. A cancel closes the store's scanners, which stops a scan that works for long within one
 * call (an aggregate, a selective filter).
 */
final class TableScan implements Operator {
  private ScanNode node;
  private final ExecContext ctx;

  /** Whether the scanner reads a local index and has returned no row yet. */
  private boolean indexNotYetRead;

  private RowScanner scanner;
  private Operator chunked;
  private KvSnapshot snapshot;
  private int sinceCheck;

  /**
   * Removes the single scanner's cancel action (see {@link
   * io.cairn.jdbc.internal.engine.ExecutionControl#onCancel}).
   */
  private Runnable unregister;

  /** A probing scan's probe step and where the store finds its table; null for other scans. */
  private final HashProbe probe;

  private final HashCacheLookup hashCaches;

  TableScan(ScanNode node, ExecContext ctx) {
    this(node, ctx, null, null);
  }

  /** A scan whose program probes {@code probe}, the store finding its table in {@code lookup}. */
  TableScan(ScanNode node, ExecContext ctx, HashProbe probe, HashCacheLookup lookup) {
    this.node = node;
    this.ctx = ctx;
    this.probe = probe;
    this.hashCaches = lookup;
  }

  private void open() {
    KvTable kv = ExecContext.kvTable(ctx.store(), node.table());
    if (ctx.pending().touches(node.table().kvTableName())) {
      // the transaction's own writes; the store's index does not know them: read the table
      RowScanner opened = OverlayScan.open(node.withIndex(Optional.empty()), kv, ctx);
      unregister = ctx.control().onCancel(opened::close);
      scanner = opened;
      return;
    }
    ScanLayout layout = ScanLayout.of(node, kv, ctx.eval(), ctx.parallelism());
    ScanProgram program = layout.program(node);
    if (probe != null) {
      program = program.withProbe(Optional.of(probe));
    }
    long readPoint = ctx.readPoint();
    if (!layout.isSingle() && readPoint == ScanRequest.LATEST) {
      // the statement's only scan (it took no snapshot): its chunks read at one read point
      snapshot = ctx.store().openSnapshot();
      readPoint = snapshot.readPoint();
    }
    if (layout.isSingle()) {
      RowScanner opened;
      try {
        opened =
            kv.scan(
                new ScanRequest(
                    layout.units().get(0).ranges(),
                    program,
                    ctx.eval(),
                    node.cacheBlocks(),
                    readPoint,
                    null,
                    indexRead(layout, layout.units().get(0)),
                    hashCaches));
      } catch (CairnException e) {
        if (layout.index() == null || e.errorCode() != ErrorCode.INDEX_NOT_FOUND) {
          throw e;
        }
        readTableInstead();
        return;
      }
      unregister = ctx.control().onCancel(opened::close);
      scanner = opened;
      indexNotYetRead = layout.index() != null;
      return;
    }
    List<PageScanner> scanners = new ArrayList<>();
    try {
      for (ScanChunks.Unit unit : layout.units()) {
        ScanRequest request =
            new ScanRequest(
                unit.ranges(),
                program,
                ctx.eval(),
                node.cacheBlocks(),
                readPoint,
                null,
                indexRead(layout, unit),
                hashCaches);
        scanners.add(
            kv instanceof AsyncPageScans async
                ? async.scanPages(request)
                : new PooledPageScanner(kv, request));
      }
    } catch (RuntimeException e) {
      try {
        Operators.closeAll(scanners);
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    boolean sorted = layout.merge() == ScanLayout.Merge.SORTED;
    indexNotYetRead = layout.index() != null;
    chunked =
        new ChunkedScan(
            ctx,
            layout.merge(),
            layout.parallelism(),
            layout.window(),
            scanners,
            sorted ? SortKey.comparator(node.orderBy()) : null,
            sorted ? node.offset() : 0,
            node.limit());
  }

  /** What {@code unit} of {@code layout} reads of a local index (null: the table's rows). */
  private static IndexRead indexRead(ScanLayout layout, ScanChunks.Unit unit) {
    return layout.index() == null ? null : layout.index().withRows(unit.indexRows());
  }

  @Override
  public Object[] next() {
    if (scanner == null && chunked == null) {
      ctx.control().check();
      open();
    }
    if (chunked != null) {
      try {
        Object[] row = chunked.next();
        indexNotYetRead = false;
        return row;
      } catch (CairnException e) {
        if (!indexNotYetRead || e.errorCode() != ErrorCode.INDEX_NOT_FOUND) {
          throw e;
        }
        // a chunk found the index gone (a DROP INDEX since planning): read the table
        indexNotYetRead = false;
        chunked.close();
        chunked = null;
        closeSnapshot();
        readTableInstead();
        return next();
      }
    }
    if (++sinceCheck >= Operators.CHECK_INTERVAL) {
      sinceCheck = 0;
      ctx.control().check();
    }
    try {
      Object[] row = scanner.next();
      indexNotYetRead = false;
      return row;
    } catch (CairnException e) {
      if (indexNotYetRead && e.errorCode() == ErrorCode.INDEX_NOT_FOUND) {
        // the server found the index gone (a DROP INDEX since planning): read the table
        indexNotYetRead = false;
        scanner.close();
        scanner = null;
        readTableInstead();
        return next();
      }
      // a scanner closed by a cancel fails: report the cancel
      try {
        ctx.control().check();
      } catch (CairnException stopped) {
        stopped.addSuppressed(e);
        throw stopped;
      }
      throw e;
    }
  }

  private void closeSnapshot() {
    if (snapshot != null) {
      snapshot.close();
      snapshot = null;
    }
  }

  /**
   * Plans this scan over the table's rows and opens it: the index it was planned with is gone (the
   * store answered INDEX_NOT_FOUND: dropped after planning), and the table answers the same.
   */
  private void readTableInstead() {
    node = node.withIndex(Optional.empty());
    open();
  }

  @Override
  public void close() {
    try {
      if (chunked != null) {
        chunked.close();
      }
      if (scanner != null) {
        scanner.close();
      }
    } finally {
      if (unregister != null) {
        unregister.run();
      }
      if (snapshot != null) {
        snapshot.close();
      }
    }
  }
}
