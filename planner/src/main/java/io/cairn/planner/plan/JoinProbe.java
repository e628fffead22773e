package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.TypeName;
import java.util.ArrayList;
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

  /**
   * This probe with the key pair on the first primary-key column of a table of {@code layout} moved
   * first, where another pair is first: the first pair is the one looked up ({@link #looksUpKeys})
   * and tested before decoding ({@code KeySetFilter}); the keys match the same rows in any order
   * (TPC-H Q2: PARTSUPP probed ON PS_SUPPLYCOST = $B0 AND PS_PARTKEY = $B1 reads the build side's
   * parts' rows, not the whole table).
   */
  public JoinProbe withPrimaryKeyFirst(RowLayout layout) {
    if (layout.hiddenRowId()) {
      return this;
    }
    int keyColumn = layout.keyColumns().get(0).columnIndex();
    for (int i = 1; i < probeKeys.size(); i++) {
      if (probeKeys.get(i) instanceof Expr.ColumnRef ref && ref.index() == keyColumn) {
        List<Integer> builds = new ArrayList<>(buildKeys);
        List<Expr> probes = new ArrayList<>(probeKeys);
        builds.add(0, builds.remove(i));
        probes.add(0, probes.remove(i));
        return new JoinProbe(build, builds, probes, kind, residual, nullAware);
      }
    }
    return this;
  }

  /**
   * Whether the executor may read only the build keys' rows of a table of {@code layout} (a lookup
   * join, when the build side turns out to have few keys): an INNER or SEMI probe whose first key
   * is the table's first primary-key column, of an integer, DATE or VARCHAR type, that the build
   * key's type matches.
   */
  public boolean looksUpKeys(RowLayout layout) {
    if ((kind != JoinNode.Kind.INNER && kind != JoinNode.Kind.SEMI)
        || layout.hiddenRowId()
        || !(probeKeys.get(0) instanceof Expr.ColumnRef ref)
        || layout.keyColumns().get(0).columnIndex() != ref.index()) {
      return false;
    }
    TypeName t = layout.columnType(ref.index()).name();
    boolean lookable = t.isExactInteger() || t == TypeName.DATE || t == TypeName.VARCHAR;
    return lookable
        && ref.type().name() == t
        && build.outputTypes().get(buildKeys.get(0)).name() == t;
  }
}
