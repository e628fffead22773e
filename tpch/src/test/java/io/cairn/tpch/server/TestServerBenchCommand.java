package io.cairn.tpch.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.SuppressForbidden;
import io.cairn.tpch.CairnTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code bench server} tiny, end to end against a real server process. */
class TestServerBenchCommand {
  @TempDir Path dir;

  @Test
  void printsEveryMeasurement() throws Exception {
    Run run =
        run(
            "bench",
            "server",
            "--rows",
            "2000",
            "--seconds",
            "1",
            "--warmup",
            "0.2",
            "--jit-warmup",
            "0.5",
            "--runs",
            "2",
            "--warmups",
            "0",
            "--batch",
            "300",
            "--server-heap",
            "256m",
            "--server-classpath",
            testClassPath(),
            "--dir",
            dir.resolve("work").toString(),
            "--results",
            dir.resolve("results").toString());
    assertThat(run.exit).as(run.out).isZero();
    assertThat(run.out)
        .contains("Machine: ", "cores", "load average")
        .contains("accepts connections after", "JIT warm-up: 0.5 s")
        .contains("T: 2,000 rows", "both databases in memory")
        .contains("metric", "embedded", "loopback", "loopback/embedded")
        .contains("load, rows/s (1 writer, batches of 300)")
        .contains("SELECT * FROM T: median ms", "raw MB/s to the client")
        .contains("SELECT COUNT(*) FROM T: median ms")
        .contains("SELECT * WHERE GRP = 7 (2 rows, 0.10%): median ms")
        .contains("Server stopped gracefully")
        .doesNotContain("WARNING");
    for (String clients : List.of("1 client", "8 clients", "64 clients")) {
      assertThat(run.out).contains("lookups, " + clients + ": lookups/s");
    }
    List<String> rows = tableRows(run.out);
    // context switches come from /proc (Linux)
    int perClients = Files.isDirectory(Path.of("/proc/self/task")) ? 7 : 6;
    assertThat(rows).hasSize(1 + 3 * perClients + 4 + 3 + 3);
    for (String row : rows) {
      // metric, then embedded, loopback and their ratio: two numbers and their ratio (none when the
      // embedded figure is 0)
      assertThat(row).as(run.out).matches(".*\\S  +[0-9.,]+  +[0-9.,]+(  +[0-9.]+)?");
    }
    assertThat(Files.exists(dir.resolve("work"))).as("deleted without --keep").isFalse();
    try (Stream<Path> files = Files.list(dir.resolve("results"))) {
      List<Path> json = files.toList();
      assertThat(json).hasSize(1);
      assertThat(Files.readString(json.get(0), StandardCharsets.UTF_8))
          .contains("\"benchmark\" : \"server\"")
          .contains("\"loopbackOverEmbedded\"")
          .contains("\"p999Us\"")
          .contains("\"serverKilled\" : false");
    }
  }

  @Test
  void rejectsBadOptionsBeforeStartingTheServer() {
    assertThat(run("bench", "server", "--rows", "0").exit).isEqualTo(2);
    assertThat(run("bench", "server", "--clients", "0").exit).isEqualTo(2);
    assertThat(run("bench", "server", "--seconds", "0").exit).isEqualTo(2);
    assertThat(run("bench", "server", "--store", "disk").exit).isEqualTo(2);
    assertThat(run("bench", "server", "--server-heap", "lots").exit).isEqualTo(2);
  }

  @Test
  void helpDescribesTheMeasurements() {
    Run run = run("bench", "server", "--help");
    assertThat(run.exit).isZero();
    assertThat(run.out)
        .contains("--rows", "--clients", "--seconds", "--store", "--server-heap")
        .contains("multiplexes", "p99.9", "GRP = 7");
  }

  @Test
  void noteIsThirtyToSixtyCharacters() {
    for (long id = 0; id < 10_000; id++) {
      assertThat(BenchTable.note(id).length()).isBetween(30, 60);
    }
    BenchTable.Contents contents = BenchTable.Contents.of(100_000);
    assertThat(contents.selectiveRows()).isEqualTo(100);
    assertThat(contents.rawBytes() / 100_000.0).isBetween(85.0, 115.0);
  }

  /** The lines between the table's rule and the line after its last row. */
  private static List<String> tableRows(String out) {
    List<String> lines = out.lines().toList();
    int header = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("metric ")) {
        header = i;
      }
    }
    assertThat(header).as(out).isNotNegative();
    return lines.subList(header + 2, lines.size()).stream()
        .takeWhile(l -> !l.startsWith("loopback/embedded:"))
        .toList();
  }

  /** The test class path: surefire's (its booter jar only points to it) or this JVM's. */
  private static String testClassPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank()
        ? surefire
        : System.getProperty("java.class.path");
  }

  private record Run(int exit, String out) {}

  /** Runs the command; its standard error follows its output so that a failure shows its cause. */
  @SuppressForbidden(reason = "captures the command's standard output and error")
  private static Run run(String... args) {
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      exit = CairnTool.run(args);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    String errors = err.toString(StandardCharsets.UTF_8);
    return new Run(
        exit,
        out.toString(StandardCharsets.UTF_8) + (errors.isEmpty() ? "" : "stderr:\n" + errors));
  }
}
