package io.cairn.jdbc.internal.exec;

import io.cairn.kv.KvSnapshot;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;

/**
 * The snapshots of statements: every scan of a statement reads at one read point, pinned by a
 * {@link KvSnapshot} that the statement closes when it ends. A statement whose plan has at most one
 * scan takes none up front: its scan takes one only when it runs more than one request ({@link
 * TableScan}), so point lookups and one-chunk scans cost nothing more.
 */
public final class Snapshots {
  /** No snapshot: every scan reads at the latest read point when it opens. */
  public static final KvSnapshot LATEST = KvSnapshot.LATEST;

  private Snapshots() {}

  /**
   * How many table scans {@code plan} runs (each scan node runs once, a probing one after its build
   * side's).
   */
  public static int scans(PlanNode plan) {
    int n = plan instanceof ScanNode ? 1 : 0;
    for (PlanNode input : plan.inputs()) {
      n += scans(input);
    }
    return n;
  }
}
