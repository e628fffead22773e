/**
 * How the tools report what they measured: medians and percentiles ({@link
 * io.cairn.tpch.report.Stats}), text tables ({@link io.cairn.tpch.report.TextTable}), JSON reports
 * ({@link io.cairn.tpch.report.JsonReport}) and bar charts ({@link io.cairn.tpch.report.BarChart}).
 * The bottom of the module: uses no other package of it.
 */
package io.cairn.tpch.report;
