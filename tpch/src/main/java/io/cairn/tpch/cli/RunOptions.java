package io.cairn.tpch.cli;

import picocli.CommandLine.Option;

/**
 * {@code --runs} and {@code --warmups}: how many times each query runs, measured and not. A picocli
 * {@code @Mixin} of the commands that time queries ({@code bench lineitem} and {@code bench tpch}
 * through {@link SuiteOptions}, {@code bench server}); each command passes its own defaults, which
 * {@code --help} shows.
 */
public final class RunOptions {
  @Option(names = "--runs", description = "Measured runs per query. Default: ${DEFAULT-VALUE}.")
  int runs;

  @Option(
      names = "--warmups",
      description = "Unmeasured warm-up runs per query. Default: ${DEFAULT-VALUE}.")
  int warmups;

  /** Picocli calls this only when a command declares the mixin without a value. */
  public RunOptions() {
    this(1, 0);
  }

  /** The options with these defaults. */
  public RunOptions(int runs, int warmups) {
    this.runs = runs;
    this.warmups = warmups;
  }

  /** Measured runs per query. */
  public int runs() {
    return runs;
  }

  /** Unmeasured warm-up runs per query, before the measured ones. */
  public int warmups() {
    return warmups;
  }
}
