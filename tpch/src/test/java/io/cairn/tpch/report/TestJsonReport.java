package io.cairn.tpch.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestJsonReport {
  @TempDir Path dir;

  @Test
  void writesRecordsAndMachineInfo() throws Exception {
    Path file =
        JsonReport.write(
            dir.resolve("sub")
                .resolve(JsonReport.fileName("x", LocalDateTime.of(2024, 1, 2, 3, 4, 5))),
            Map.of(
                "machine",
                JsonReport.MachineInfo.current(),
                "stats",
                Stats.ofNanos(List.of(1_000_000L, 3_000_000L))));
    assertThat(file.getFileName().toString()).isEqualTo("x-20240102-030405.json");
    JsonNode root = JsonReport.mapper().readTree(file.toFile());
    assertThat(root.path("machine").path("cores").asInt()).isPositive();
    assertThat(root.path("machine").path("maxHeapBytes").asLong()).isPositive();
    assertThat(root.path("machine").path("jvmArguments").isArray()).isTrue();
    assertThat(root.path("stats").path("medianMs").asDouble()).isEqualTo(2.0);
  }
}
