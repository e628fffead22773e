package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import java.util.List;
import java.util.Optional;

/**
 * The probe of a broadcast hash join that a {@link ScanNode} runs in the store ({@link
 * io.cairn.kv.HashProbe}): the executor runs {@code build} first (bounded), hashes its rows by
 * {@code buildKeys} and hands them to the store; the scan's rows the filter keeps are probed with
 * {@code probeKeys} (expressions over the table row). The scan's projection, aggregates, order and
 * limit then read the joined row: the table's columns, the row key pseudo-column, then {@code
 * build}'s columns. {@code residual} (over the joined row) is part of the match condition. Kinds:
 * INNER, LEFT, SEMI, ANTI (NOT EXISTS; {@code nullAware}: NOT IN).
 */
public record JoinProbe(
    PlanNode build,
    List<Integer> buildKeys,
    List<Expr> probeKeys,
    JoinNode.Kind kind,
    Optional<Expr> residual,
    boolean nullAware) {
  public JoinProbe {
    requireNonNull(build, "build is null");
    buildKeys = List.copyOf(buildKeys);
    probeKeys = List.copyOf(probeKeys);
    requireNonNull(kind, "kind is null");
    requireNonNull(residual, "residual is null");
    if (buildKeys.isEmpty() || buildKeys.size() != probeKeys.size()) {
      throw CairnException.internal(
          "A join probe: expected as many build keys as probe keys (>= 1), found "
              + buildKeys
              + " and "
              + probeKeys.size());
    }
    if (kind == JoinNode.Kind.RIGHT || kind == JoinNode.Kind.FULL) {
      throw CairnException.internal("A join probe runs INNER, LEFT, SEMI or ANTI, found " + kind);
    }
  }
}
