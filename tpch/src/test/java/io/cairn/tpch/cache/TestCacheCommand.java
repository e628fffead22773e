package io.cairn.tpch.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.SuppressForbidden;
import io.cairn.tpch.CairnTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCacheCommand {
  @TempDir Path dir;

  @Test
  void printsEveryMeasurement() {
    Run run =
        run(
            "bench",
            "cache",
            "--rows",
            "20000",
            "--duration",
            "2s",
            "--iterations",
            "1",
            "--warmups",
            "0",
            "--warmup-time",
            "200ms",
            "--gets",
            "200",
            "--range-rows",
            "500",
            "--cache-size",
            "16m",
            "--dir",
            dir.resolve("store").toString());
    assertThat(run.exit).as(run.out).isZero();
    assertThat(run.out)
        .contains("Machine: ", "max direct memory")
        .contains("T: 20,000 rows; block files")
        .contains("measurement", "rows/s", "disk MB/s", "uncompressed MB/s", "heap B/op", "GC ms")
        .contains("hit %", "Block cache after two full scans: L1 (heap)")
        .contains("COUNT(*)  ", "COUNT(*) WHERE QTY < 10  ")
        .contains("COUNT(*) /*+ NO_CACHE */", "COUNT(*) WHERE QTY < 10 /*+ NO_CACHE */")
        .contains("L2 off-heap 16m", "none (OS page cache)", "NO_CACHE, cold L2", "L1 on-heap 16m")
        .contains("point get, SELECT * WHERE K = ?")
        .contains("COUNT(*), clients at once")
        .contains("mixed 2 s: all clients", "  range scans of 500 rows", "  point gets");
    assertThat(run.out.lines().filter(l -> l.startsWith("COUNT(*), clients at once"))).hasSize(3);
    assertThat(run.out.lines().filter(l -> l.startsWith("mixed 2 s: all clients"))).hasSize(2);
    assertThat(Files.exists(dir.resolve("store"))).as("deleted without --keep").isFalse();
  }

  @Test
  void rejectsBadOptionsBeforeLoading() {
    assertThat(run("bench", "cache", "--rows", "0").exit).isEqualTo(2);
    assertThat(run("bench", "cache", "--duration", "soon").exit).isEqualTo(2);
    assertThat(run("bench", "cache", "--compression", "ZIP").exit).isEqualTo(2);
    assertThat(run("bench", "cache", "--rows", "10", "--range-rows", "11").exit).isEqualTo(2);
  }

  @Test
  void helpDescribesTheMeasurements() {
    Run run = run("bench", "cache", "--help");
    assertThat(run.exit).isZero();
    assertThat(run.out)
        .contains("--rows", "--duration", "--cache-size", "NO_CACHE", "GC")
        .contains("(20% of the rows)", "hit % = block cache hits");
  }

  @Test
  void parsesDurations() {
    CacheCommand.DurationConverter c = new CacheCommand.DurationConverter();
    assertThat(c.convert("60s")).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(c.convert("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(c.convert("7")).isEqualTo(Duration.ofSeconds(7));
  }

  private record Run(int exit, String out) {}

  @SuppressForbidden(reason = "captures the command's standard output")
  private static Run run(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = CairnTool.run(args);
    } finally {
      System.setOut(original);
    }
    return new Run(exit, captured.toString(StandardCharsets.UTF_8));
  }
}
