/**
 * The tools module's entry point ({@code bin/cairn tpch|bench|pe|index}): the picocli root command
 * {@link io.cairn.tpch.CairnTool}, which registers the commands of the packages below it (load,
 * bench, queries, pe, server, cache, footprint, index). The top of the module.
 */
package io.cairn.tpch;
