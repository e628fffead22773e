package io.cairn.tpch.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.tpch.CairnTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestFootprintCommandSmoke {
  @TempDir Path dir;

  @Test
  @io.cairn.core.SuppressForbidden(reason = "captures the command's standard output")
  void printsBytesPerRowForEachSetting() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit =
          CairnTool.run(
              "bench",
              "footprint",
              "--rows",
              "3000",
              "--sf",
              "0",
              "--encodings",
              "none,fast_diff",
              "--compressions",
              "NONE,ZSTD",
              "--dir",
              dir.resolve("fp").toString());
    } finally {
      System.setOut(original);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(out).isZero();
    assertThat(out)
        .contains("NONE       NONE")
        .contains("FAST_DIFF  ZSTD")
        .contains("HBase bytes/row");
    assertThat(Files.exists(dir.resolve("fp"))).as("deleted without --keep").isFalse();
  }

  @Test
  void rejectsAnUnknownEncodingBeforeLoading() {
    int exit = CairnTool.run("bench", "footprint", "--rows", "10", "--encodings", "ZIP");
    assertThat(exit).isEqualTo(2);
  }
}
