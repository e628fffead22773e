/**
 * {@code bin/cairn bench tpch}: the 22 TPC-H queries ({@link io.cairn.tpch.queries.TpchQueries}),
 * run on Cairn and checked against a reference database loaded with the same generated data ({@link
 * io.cairn.tpch.queries.ResultCheck}), with a text and JSON report ({@link
 * io.cairn.tpch.queries.TpchQueriesCommand}).
 */
package io.cairn.tpch.queries;
