package io.cairn.planner.plan;

import io.cairn.core.type.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a {@link MarkJoinNode}'s left input as the build side of its probe: each left row's
 * {@code columns} (of {@code columnTypes}), then the row's number (a BIGINT, from 0 in the order
 * read). Only its mark join makes these rows; it is not run on its own.
 */
public record LeftRowsNode(List<Integer> columns, List<DataType> columnTypes) implements PlanNode {
  public LeftRowsNode {
    columns = List.copyOf(columns);
    columnTypes = List.copyOf(columnTypes);
    if (columns.size() != columnTypes.size()) {
      throw io.cairn.core.error.CairnException.internal(
          "Left rows: expected a type per column, found "
              + columns.size()
              + " columns and "
              + columnTypes.size()
              + " types");
    }
  }

  /** The column of the row's number. */
  public int numberColumn() {
    return columns.size();
  }

  @Override
  public List<DataType> outputTypes() {
    List<DataType> types = new ArrayList<>(columnTypes);
    types.add(DataType.BIGINT.withNullable(false));
    return types;
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of();
  }
}
