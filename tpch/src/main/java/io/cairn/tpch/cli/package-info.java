/**
 * The command line of the tools module ({@code bin/cairn tpch|bench|pe}): the picocli root command
 * {@link io.cairn.tpch.cli.CairnTool} with its subcommands from the other packages, the options the
 * suites share ({@link io.cairn.tpch.cli.SuiteOptions}), the version ({@link
 * io.cairn.tpch.cli.Version}) and scratch directories removed on exit ({@link
 * io.cairn.tpch.cli.Cleanup}). The top of the module.
 */
package io.cairn.tpch.cli;
