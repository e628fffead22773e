package io.cairn.tpch.queries;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.tpch.CairnTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code bench tpch} at SF 0.01 in process, against the default in-memory DuckDB reference,
 * and pins the queries Cairn answers correctly today: a query that regresses fails the build.
 */
class TestTpchQueriesSmoke {
  /** The queries observed ok at SF 0.01: all 22. Never remove one to make the build pass. */
  static final Set<String> OK_TODAY =
      Set.of(
          "Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8", "Q9", "Q10", "Q11", "Q12", "Q13", "Q14",
          "Q15", "Q16", "Q17", "Q18", "Q19", "Q20", "Q21", "Q22");

  @Test
  void allQueriesRunAndTheCorrectOnesStayCorrect(@TempDir Path results) throws IOException {
    int exit =
        CairnTool.run(
            "bench",
            "tpch",
            "--sf",
            "0.01",
            "--runs",
            "1",
            "--warmups",
            "0",
            "--timeout-seconds",
            "120",
            "--results",
            results.toString());

    assertThat(exit).isZero();
    List<Path> files;
    try (Stream<Path> list = Files.list(results)) {
      files = list.filter(p -> p.getFileName().toString().matches("tpch-.*\\.json")).toList();
    }
    assertThat(files).hasSize(1);
    JsonNode report = new ObjectMapper().readTree(files.get(0).toFile());
    JsonNode queries = report.get("queries");
    List<String> names = new ArrayList<>();
    Set<String> ok = new TreeSet<>();
    for (JsonNode q : queries) {
      String name = q.get("query").asText();
      names.add(name);
      assertThat(q.get("status").asText())
          .as("status of %s", name)
          .isIn("ok", "wrong", "error", "timeout", "unchecked");
      assertThat(q.get("referenceError").isNull())
          .as("the reference answers %s: %s", name, q.get("referenceError"))
          .isTrue();
      if (q.get("status").asText().equals("ok")) {
        ok.add(name);
        JsonNode cairn = q.get("runs").get(0);
        // one measured run and no warm-up: the first run is the measured one
        assertThat(cairn.get("firstMs").asDouble())
            .as("first run of %s", name)
            .isEqualTo(cairn.get("timesMs").get(0).asDouble());
      }
    }
    List<String> all = new ArrayList<>();
    for (int i = 1; i <= 22; i++) {
      all.add("Q" + i);
    }
    assertThat(names).containsExactlyElementsOf(all);
    assertThat(ok).as("queries answered correctly").containsAll(OK_TODAY);
    assertThat(report.get("machine").get("cores").asInt()).isPositive();
    assertThat(report.get("machine").get("jvmArguments").isArray()).isTrue();
    assertThat(report.get("parameters").get("sf").asDouble()).isEqualTo(0.01);
  }

  @Test
  void usageErrorsExitWithTwo() {
    assertThat(CairnTool.run("bench", "tpch", "--queries", "23")).isEqualTo(2);
    assertThat(CairnTool.run("bench", "tpch", "--runs", "0")).isEqualTo(2);
    assertThat(CairnTool.run("bench", "tpch", "--sf", "0.005")).isEqualTo(2);
    assertThat(CairnTool.run("bench", "tpch", "--help")).isZero();
  }
}
