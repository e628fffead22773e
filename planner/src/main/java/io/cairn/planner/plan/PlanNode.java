package io.cairn.planner.plan;

import io.cairn.core.type.DataType;
import java.util.List;

/**
 * Cairn's immutable physical plan: a tree of operators. {@link ScanNode} runs inside the store's
 * scanner (server side); every other node runs in the client executor. Rows flowing between nodes
 * are {@code Object[]} with one value per {@link #outputTypes()} entry.
 */
public sealed interface PlanNode
    permits ScanNode,
        FilterNode,
        ProjectNode,
        AggregateNode,
        SortNode,
        JoinNode,
        MarkJoinNode,
        LeftRowsNode,
        SetOpNode,
        ValuesNode,
        WindowNode {
  List<DataType> outputTypes();

  List<PlanNode> inputs();
}
