/**
 * What the tools' commands share on the command line: the options of the suites ({@link
 * io.cairn.tpch.cli.SuiteOptions}), of repeated runs ({@link io.cairn.tpch.cli.RunOptions}) and of
 * a scratch directory created for a run and removed after it unless kept ({@link
 * io.cairn.tpch.cli.WorkDirectoryOptions}), as picocli mixins, the version every command prints
 * ({@link io.cairn.tpch.cli.Version}) and the JVM's allocation and collection counters of {@code
 * bench cache} and {@code bench lineitem} ({@link io.cairn.tpch.cli.JvmMeters}). Below every
 * command package; uses none of them.
 */
package io.cairn.tpch.cli;
