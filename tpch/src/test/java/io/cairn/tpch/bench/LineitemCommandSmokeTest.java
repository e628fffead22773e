package io.cairn.tpch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.tpch.cli.CairnTool;
import io.cairn.tpch.report.JsonReport;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineitemCommandSmokeTest {
  @TempDir Path dir;

  @Test
  void runsTheWholeSuiteAndWritesJsonAndChart() throws Exception {
    int exit =
        CairnTool.run(
            "bench",
            "lineitem",
            "--sf",
            "0.001",
            "--url",
            "jdbc:cairn:mem:lineitem_smoke",
            "--runs",
            "1",
            "--warmups",
            "0",
            "--lookups",
            "200",
            "--results",
            dir.toString());
    assertThat(exit).isZero();
    List<Path> json;
    try (Stream<Path> files = Files.list(dir)) {
      json = files.filter(p -> p.toString().endsWith(".json")).toList();
    }
    assertThat(json).hasSize(1);
    assertThat(
            json.get(0)
                .resolveSibling(json.get(0).getFileName().toString().replace(".json", ".png")))
        .exists();
    File file = json.get(0).toFile();
    JsonNode root = JsonReport.mapper().readTree(file);
    assertThat(root.path("machine").path("cores").asInt()).isPositive();
    Map<String, JsonNode> queries = new HashMap<>();
    for (JsonNode q : root.path("databases").get(0).path("queries")) {
      queries.put(q.path("name").asText(), q);
    }
    assertThat(queries.keySet())
        .contains("count", "orderby.first-row", "orderby.all-rows", "join-131072", "lookup");
    assertThat(queries.get("q1").path("check").asText()).startsWith("ok");
    assertThat(queries.get("q6").path("check").asText()).startsWith("ok");
    assertThat(queries.get("index-build").path("status").asText()).isEqualTo("ERROR");
    assertThat(queries.get("index-build").path("error").asText()).contains("CREATE LOCAL INDEX");
    assertThat(queries.get("eq-index").path("status").asText()).isEqualTo("ERROR");
    assertThat(queries.get("count").path("status").asText()).isEqualTo("ok");
    assertThat(queries.get("count").path("stats").path("medianMs").asDouble()).isPositive();
    assertThat(queries.get("lookup").path("check").asText()).isEqualTo("ok");
  }

  @Test
  void unknownQueryNameIsAUsageError() {
    assertThat(CairnTool.run("bench", "lineitem", "--only", "count,nope")).isEqualTo(2);
  }
}
