package io.cairn.tpch.cli;

import picocli.CommandLine.Option;

/**
 * The options that the query-suite commands ({@code bench lineitem}, {@code bench tpch}) share: how
 * many times each query runs, measured and not, and how many writers load the data. Used as a
 * picocli {@code @Mixin}; each command passes its own defaults, which {@code --help} shows.
 */
public final class SuiteOptions {
  @Option(names = "--runs", description = "Measured runs per query. Default: ${DEFAULT-VALUE}.")
  int runs;

  @Option(
      names = "--warmups",
      description = "Unmeasured warm-up runs per query. Default: ${DEFAULT-VALUE}.")
  int warmups;

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

  /** Parallel writers when loading. */
  public int threads() {
    return threads;
  }
}
