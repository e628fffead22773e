package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import java.util.List;

/**
 * A SEMI or ANTI {@code join} run as a mark join: its left input, the preserved side, is the build
 * side. The executor reads the left rows, numbers them and hands them as the build side ({@link
 * LeftRowsNode}) to {@code probe}, a scan of the join's right input probing them in the store: an
 * INNER probe on the join's keys with the join's residual, whose projection is the number of the
 * left row each match marks. The join then outputs, in their order, the left rows marked (SEMI) or
 * never marked (ANTI). Planned when the left input is estimated far smaller than the right (TPC-H
 * Q21: 76,000 rows of a join against LINEITEM's 6,000,000), so that the big side is neither hashed
 * nor sent to the driver: its scan returns only the numbers of the rows it marks. {@code join} is
 * the same join run in the driver (a hash join building the right input), which the executor falls
 * back to when the left rows do not fit the query's memory.
 */
public record MarkJoinNode(JoinNode join, ScanNode probe) implements PlanNode {
  public MarkJoinNode {
    requireNonNull(join, "join is null");
    requireNonNull(probe, "probe is null");
    if (join.kind() != JoinNode.Kind.SEMI && join.kind() != JoinNode.Kind.ANTI) {
      throw CairnException.internal("A mark join is SEMI or ANTI, found " + join.kind());
    }
    if (probe.probe().isEmpty()
        || probe.probe().get().kind() != JoinNode.Kind.INNER
        || !(probe.probe().get().build() instanceof LeftRowsNode)
        || probe.projection().size() != 1) {
      throw CairnException.internal(
          "A mark join's probe: expected an INNER probe of its left rows projecting their number");
    }
  }

  /** The left rows as the probe's build side. */
  public LeftRowsNode leftRows() {
    return (LeftRowsNode) probe.probe().get().build();
  }

  @Override
  public List<DataType> outputTypes() {
    return join.outputTypes();
  }

  /** The left input, then the probing scan (whose build side is the left's rows). */
  @Override
  public List<PlanNode> inputs() {
    return List.of(join.left(), probe);
  }
}
