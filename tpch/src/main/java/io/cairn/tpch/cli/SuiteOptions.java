package io.cairn.tpch.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options that the query-suite commands ({@code bench lineitem}, {@code bench tpch}) share: how
 * many times each query runs, measured and not ({@link RunOptions}), and how many writers load the
 * data. Used as a picocli {@code @Mixin}; each command passes its own defaults, which {@code
 * --help} shows.
 */
public final class SuiteOptions {
  @Mixin RunOptions runOptions;

  @Option(
      names = "--threads",
      description = "Parallel writers when loading. Default: the number of cores.")
  int threads = Runtime.getRuntime().availableProcessors();

  /** Picocli calls this only when a command declares the mixin without a value. */
  public SuiteOptions() {
    this(1, 0);
  }

  /** The options with these defaults for {@code --runs} and {@code --warmups}. */
  public SuiteOptions(int runs, int warmups) {
    this.runOptions = new RunOptions(runs, warmups);
  }

  /** Measured runs per query. */
  public int runs() {
    return runOptions.runs();
  }

  /** Unmeasured warm-up runs per query, before the measured ones. */
  public int warmups() {
    return runOptions.warmups();
  }

  /** Parallel writers when loading. */
  public int threads() {
    return threads;
  }
}
