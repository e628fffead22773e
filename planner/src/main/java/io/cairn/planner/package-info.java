/**
 * Cairn's SQL front end: SQL text to an immutable physical plan ({@code io.cairn.planner.plan}).
 * {@link io.cairn.planner.CairnPlanner} is the facade and plan cache: it classifies the text once
 * (sql-grammar's statement classifier), sends DDL to Cairn's grammar ({@link
 * io.cairn.planner.DdlTranslator}, with an index's key parts planned as queries by {@link
 * io.cairn.planner.IndexExpressions}) and queries and DML through Calcite ({@link
 * io.cairn.planner.QueryPlanner}: parse, validate, convert; {@link
 * io.cairn.planner.LogicalOptimizer}: the rule phases), whose logical plan {@link
 * io.cairn.planner.PhysicalPlanner} (and {@link io.cairn.planner.DmlTranslator} for writes) turns
 * into Cairn's nodes with filters, key ranges, sorts and partial aggregates pushed into the scan.
 * Hints ({@link io.cairn.planner.Hints}), EXPLAIN ({@link io.cairn.planner.Explainer}) and error
 * positions ({@link io.cairn.planner.Errors}) live here too. Uses core (the catalog, types,
 * expressions) and sql-grammar; knows neither the store nor the driver. A planner is thread-safe;
 * each statement is planned on a planning thread with a large stack ({@link
 * io.cairn.planner.PlanningThreads}) while its caller waits, and stops when cancelled.
 */
package io.cairn.planner;
