/**
 * Aggregate functions: {@link io.cairn.core.agg.AggregateCall} describes one call, {@link
 * io.cairn.core.agg.Aggregates#create} makes an {@link io.cairn.core.agg.Accumulator} per group.
 * Accumulators can be merged, so a server can compute partial states per region and the client
 * merge them: a call that {@link io.cairn.core.agg.Aggregates#isSplittable} writes its state as a
 * few plain values ({@link io.cairn.core.agg.Aggregates#partialTypes}) that can travel in a row,
 * and the final accumulator folds them in ({@link io.cairn.core.agg.Accumulator#mergePartial}).
 * Grouped aggregations, in the store and in the driver, key their groups by {@link
 * io.cairn.core.agg.GroupKey} and count their memory with {@link
 * io.cairn.core.agg.AggregationMemory}.
 */
package io.cairn.core.agg;
