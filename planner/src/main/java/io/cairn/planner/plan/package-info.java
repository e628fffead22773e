/**
 * Cairn's physical plans, the planner's output and the executors' input: immutable records, a
 * sealed tree of {@link io.cairn.planner.plan.PlanNode}s ({@link io.cairn.planner.plan.ScanNode}
 * runs in the store as a scan program, every other node in the driver's executor) under a {@link
 * io.cairn.planner.plan.StatementPlan}. Knows no Calcite: uses only core (types, expressions,
 * aggregates, the KV SPI's scan programs), so the driver's executor can run a plan without the
 * planner's internals.
 */
package io.cairn.planner.plan;
