package io.cairn.planner.plan;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The subplans a plan runs more than once that the executor computes once and reads as often as
 * they occur: a WITH query (or view) read twice, as TPC-H Q15 reads its revenue view in the FROM
 * and in the scalar subquery of its MAX. Plans are records: equal subtrees are equal nodes. Only
 * subplans ending in an aggregation (under filters, projections and sorts of its rows) are shared:
 * their rows are few, and computing them again costs a whole scan.
 */
public final class SharedSubplans {
  private SharedSubplans() {}

  /**
   * The shared subplans of {@code plan} with the number of times each runs, in the order a walk
   * from the root meets them first. A shared subplan's own subplans count once, however often it
   * occurs (it runs once).
   */
  public static Map<PlanNode, Integer> of(PlanNode plan) {
    if (aggregations(plan) < 2) {
      return Map.of(); // nothing to share: no node hashed (a point lookup's plan, every execution)
    }
    Map<PlanNode, Integer> counts = new LinkedHashMap<>();
    count(plan, counts);
    Map<PlanNode, Integer> shared = new LinkedHashMap<>();
    counts.forEach(
        (node, n) -> {
          if (n > 1 && worthSharing(node)) {
            shared.put(node, n);
          }
        });
    return shared.isEmpty() ? Map.of() : shared;
  }

  private static void count(PlanNode node, Map<PlanNode, Integer> counts) {
    int n = counts.merge(node, 1, Integer::sum);
    if (n == 1 || !worthSharing(node)) {
      for (PlanNode input : node.inputs()) {
        count(input, counts);
      }
    }
  }

  private static int aggregations(PlanNode node) {
    int n = node instanceof AggregateNode ? 1 : 0;
    for (PlanNode input : node.inputs()) {
      n += aggregations(input);
    }
    return n;
  }

  /** An aggregation, under filters, projections and sorts of its rows. */
  public static boolean worthSharing(PlanNode node) {
    PlanNode n = node;
    while (n instanceof FilterNode || n instanceof ProjectNode || n instanceof SortNode) {
      n = n.inputs().get(0);
    }
    return n instanceof AggregateNode;
  }
}
