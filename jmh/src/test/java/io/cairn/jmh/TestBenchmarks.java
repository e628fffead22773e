package io.cairn.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * One short iteration of every benchmark on a tiny table, in this JVM (no fork): the harness, the
 * setups' answer checks and the benchmark methods run; nothing is measured.
 */
class TestBenchmarks {
  private static final int ROWS = 3_000;

  @Test
  void cachedScan() throws RunnerException {
    assertRuns(BenchmarkCachedScan.class, 4, scan());
  }

  @Test
  void kvScan() throws RunnerException {
    assertRuns(BenchmarkKvScan.class, 6, scan());
  }

  @Test
  void pointGet() throws RunnerException {
    assertRuns(BenchmarkPointGet.class, 1, once());
  }

  @Test
  void kvGet() throws RunnerException {
    assertRuns(BenchmarkKvGet.class, 1, once());
  }

  @Test
  void joinPlanning() throws RunnerException {
    assertRuns(
        BenchmarkJoinPlanning.class,
        2,
        new OptionsBuilder()
            .param("tables", "4")
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(50))
            .shouldFailOnError(true));
  }

  @Test
  void opensTheStoreWithEveryCacheSetting() throws RunnerException {
    assertRuns(
        BenchmarkKvScan.class,
        6 * 2,
        scan().param("cache", "ON_HEAP", "NONE").param("cacheSize", "16m"));
  }

  private static ChainedOptionsBuilder scan() {
    return once().operationsPerInvocation(ROWS);
  }

  private static ChainedOptionsBuilder once() {
    return new OptionsBuilder()
        .param("rows", String.valueOf(ROWS))
        .forks(0)
        .warmupIterations(0)
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(50))
        .shouldFailOnError(true);
  }

  private static void assertRuns(Class<?> benchmark, int runs, ChainedOptionsBuilder options)
      throws RunnerException {
    Collection<RunResult> results =
        new Runner(options.include(benchmark.getName() + "\\.").build()).run();
    assertThat(results).hasSize(runs);
    for (RunResult r : results) {
      assertThat(r.getPrimaryResult().getScore()).as(r.getParams().getBenchmark()).isPositive();
    }
  }
}
