package io.cairn.tpch.bench;

import io.cairn.tpch.report.Stats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one query of the suite did on one database: its runs (nanoseconds), their statistics, the
 * rows it returned, the answer check and extra figures (first-row times, lookup latencies). A query
 * that failed has status {@code ERROR}, the database's message in {@code error}, and no stats.
 */
public record QueryResult(
    String name,
    String sql,
    String status,
    String error,
    List<Long> runsNanos,
    Stats stats,
    long rows,
    String check,
    Map<String, Object> extra) {
  public static final String OK = "ok";
  public static final String ERROR = "ERROR";

  static QueryResult ok(
      String name,
      String sql,
      List<Long> runs,
      long rows,
      String check,
      Map<String, Object> extra) {
    return new QueryResult(
        name, sql, OK, null, List.copyOf(runs), Stats.ofNanos(runs), rows, check, extra);
  }

  static QueryResult error(String name, String sql, String message) {
    return new QueryResult(
        name, sql, ERROR, message, List.of(), null, 0, null, new LinkedHashMap<>());
  }

  public boolean failed() {
    return ERROR.equals(status);
  }
}
