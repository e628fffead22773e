package io.cairn.tpch.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestBarChart {
  @TempDir Path dir;

  @Test
  void writesPngWithMissingValuesOnLogAxis() throws Exception {
    BarChart chart =
        new BarChart("median ms", "ms", List.of("a", "b", "c"))
            .addSeries("cairn", Arrays.asList(1.0, 2000.0, null))
            .addSeries("duckdb", Arrays.asList(0.5, Double.NaN, 3.0));
    assertThat(chart.logarithmic()).isTrue();
    Path png = chart.writePng(dir.resolve("chart"), 800, 500);
    assertThat(png.getFileName().toString()).isEqualTo("chart.png");
    byte[] bytes = Files.readAllBytes(png);
    assertThat(bytes).hasSizeGreaterThan(100);
    assertThat(bytes[1]).isEqualTo((byte) 'P');
  }

  @Test
  void linearAxisForCloseValues() throws Exception {
    BarChart chart = new BarChart("t", "ms", List.of("a", "b")).addSeries("x", List.of(10.0, 20.0));
    assertThat(chart.logarithmic()).isFalse();
    assertThat(chart.writePng(dir.resolve("lin.png"), 400, 300)).exists();
  }
}
