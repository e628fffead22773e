package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.tpch.CairnTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL of TPC-H on HBase: {@code bench tpch --sf 0.01} loads the eight tables into the
 * mini-cluster through {@code jdbc:cairn:hbase:} and runs the 22 queries once, each answer checked
 * against DuckDB's over the same data (joins, subqueries, GROUP BY, ORDER BY, LIMIT, with filters,
 * projections and aggregates run in the region server).
 */
@ExtendWith(MiniHBase.class)
class TestHBaseTpch {
  @Test
  void all22QueriesAnswerRight(HBaseTestingUtility hbase, @TempDir Path results)
      throws IOException {
    String url =
        "jdbc:cairn:hbase:127.0.0.1:"
            + hbase.getConfiguration().get("hbase.zookeeper.property.clientPort")
            + ";cairn.hbase.namespace=tpch";
    int exit =
        CairnTool.run(
            "bench",
            "tpch",
            "--sf",
            "0.01",
            "--url",
            url,
            "--runs",
            "1",
            "--warmups",
            "0",
            "--timeout-seconds",
            "120",
            "--results",
            results.toString());
    assertThat(exit).isZero();
    Path report;
    try (Stream<Path> files = Files.list(results)) {
      report =
          files
              .filter(p -> p.getFileName().toString().matches("tpch-.*\\.json"))
              .findFirst()
              .orElseThrow();
    }
    Map<String, String> status = new TreeMap<>();
    for (JsonNode q : new ObjectMapper().readTree(report.toFile()).get("queries")) {
      status.put(q.get("query").asText(), q.get("status").asText());
    }
    assertThat(status).hasSize(22);
    List<String> notOk =
        status.entrySet().stream()
            .filter(e -> !e.getValue().equals("ok"))
            .map(e -> e.getKey() + " " + e.getValue())
            .toList();
    assertThat(notOk).as(Files.readString(report)).isEmpty();
  }
}
