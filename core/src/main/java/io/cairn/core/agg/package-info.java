/**
 * Aggregate functions: {@link io.cairn.core.agg.AggregateCall} describes one call, {@link
 * io.cairn.core.agg.Aggregates#create} makes an {@link io.cairn.core.agg.Accumulator} per group.
 * Accumulators can be merged, so a server can compute partial states per region and the client
 * merge them; shipping the state over the wire needs a serialisation of each accumulator's fields
 * (not written yet).
 */
package io.cairn.core.agg;
