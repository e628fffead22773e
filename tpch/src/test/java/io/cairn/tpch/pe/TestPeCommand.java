package io.cairn.tpch.pe;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.tpch.CairnTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs every pe command at tiny size in-process and checks what reads find. */
final class TestPeCommand {
  private static final String[] SMALL = {
    "--rows", "2000", "--valueSize", "100", "--clients", "2", "--seed", "7"
  };

  private record Run(int exitCode, String out, String err) {}

  private static synchronized Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream o = new PrintStream(out, true, UTF_8);
        PrintStream e = new PrintStream(err, true, UTF_8)) {
      System.setOut(o);
      System.setErr(e);
      int code = CairnTool.run(args);
      return new Run(code, out.toString(UTF_8), err.toString(UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  private static Run small(String command, String... more) {
    List<String> args = new ArrayList<>(List.of("pe", command));
    args.addAll(List.of(SMALL));
    args.addAll(List.of(more));
    return run(args.toArray(new String[0]));
  }

  private static long[] found(String out) {
    Matcher m = Pattern.compile("Rows found: ([\\d,]+) of ([\\d,]+) expected").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return new long[] {
      Long.parseLong(m.group(1).replace(",", "")), Long.parseLong(m.group(2).replace(",", ""))
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"randomWrite", "sequentialWrite"})
  void writesFinish(String command) {
    Run r = small(command);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("[TestClient-0] Finished class io.cairn.tpch.pe.PeWorkload$")
        .contains("at offset 0 for 2000 rows")
        .contains("at offset 2000 for 2000 rows")
        .contains("Summary of timings (ms)")
        .contains("p99.99=");
  }

  @ParameterizedTest
  @ValueSource(strings = {"sequentialRead", "randomRead", "scan", "scanRange10", "scanRange100"})
  void readsFindEveryRow(String command) {
    Run r = small(command);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("Table TestTable does not exist: writing 4,000 rows");
    long[] found = found(r.out());
    assertThat(found[0]).as(r.out()).isEqualTo(found[1]);
    long expected =
        switch (command) {
          case "scanRange100" -> 2 * (2000 / 100) * 100;
          case "scanRange10" -> 2 * (2000 / 10) * 10;
          default -> 4000;
        };
    assertThat(found[1]).isEqualTo(expected);
  }

  @Test
  void scanRange1000AndMultiGet() {
    Run r = small("scanRange1000");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(found(r.out())).containsExactly(4000, 4000);

    Run m = small("randomRead", "--multiGet", "10");
    assertThat(m.exitCode()).as(m.err()).isZero();
    assertThat(found(m.out())).containsExactly(4000, 4000);
    assertThat(m.out()).contains("RandomReadTest latency (us), 200 measures");
  }

  @Test
  void filterScanMatchesNothing() {
    Run r = small("filterScan");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(found(r.out())).containsExactly(0, 0);
    assertThat(r.out()).contains("at offset 2000 for 2000 rows");
  }

  @Test
  void resultsAsJson(@TempDir Path dir) throws Exception {
    Run r =
        small(
            "sequentialWrite",
            "--results",
            dir.toString(),
            "--compress",
            "lz4",
            "--blockEncoding",
            "FAST_DIFF",
            "--presplit",
            "4");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("the in-memory store ignores them");
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> json = files.toList();
      assertThat(json).hasSize(1);
      String text = Files.readString(json.get(0), UTF_8);
      assertThat(text)
          .contains("\"command\" : \"sequentialWrite\"")
          .contains("\"compress\" : \"LZ4\"")
          .contains("\"p9999\"")
          .contains("\"name\" : \"TestClient-1\"");
    }
  }

  @Test
  void runsOnADurableStoreWithItsOptions(@TempDir Path dir) {
    String url = "jdbc:cairn:file:" + dir.resolve("pe");
    Run write = small("sequentialWrite", "--url", url, "--compress", "zstd", "--presplit", "3");
    assertThat(write.exitCode()).as(write.err()).isZero();
    assertThat(write.out()).doesNotContain("ignores them");
    Run read = small("randomRead", "--url", url);
    assertThat(read.exitCode()).as(read.err()).isZero();
    assertThat(found(read.out())[0]).isEqualTo(found(read.out())[1]).isPositive();
  }

  @Test
  void badValuesAreUsageErrors() {
    Run compress = run("pe", "randomRead", "--compress", "brotli");
    assertThat(compress.exitCode()).isEqualTo(2);
    assertThat(compress.err())
        .contains("--compress")
        .contains("[NONE, LZ4, SNAPPY, ZSTD, GZIP]")
        .contains("brotli");

    Run encoding = run("pe", "randomRead", "--blockEncoding", "DIFF");
    assertThat(encoding.exitCode()).isEqualTo(2);
    assertThat(encoding.err())
        .contains("--blockEncoding")
        .contains("[NONE, PREFIX, FAST_DIFF, ROW_INDEX]");

    Run command = run("pe", "randomReed");
    assertThat(command.exitCode()).isEqualTo(2);
    assertThat(command.err()).contains("randomRead, randomWrite").contains("randomReed");

    Run url = run("pe", "scan", "--url", "jdbc:cairn://localhost:1");
    assertThat(url.exitCode()).isEqualTo(2);
    assertThat(url.err()).contains("--url").contains("jdbc:cairn:mem:NAME");

    Run rows = run("pe", "scan", "--rows", "0");
    assertThat(rows.exitCode()).isEqualTo(2);
    assertThat(rows.err()).contains("--rows");
  }
}
