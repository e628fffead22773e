package io.cairn.tpch.bench;

import io.cairn.tpch.report.Stats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one query of the suite did on one database: its runs (nanoseconds), their statistics, the
 * rows it returned, the answer check and extra figures (first-row times, lookup latencies). A query
 * that failed has status {@code ERROR}, the database's message in {@code error}, and no stats; one
 * that the database cannot run at all (CREATE INDEX where there is no such statement) has status
 * {@code n/a}, the reason in {@code error}, and no stats either.
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
  public static final String NOT_APPLICABLE = "n/a";

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

  static QueryResult notApplicable(String name, String sql, String reason) {
    return new QueryResult(
        name, sql, NOT_APPLICABLE, reason, List.of(), null, 0, null, new LinkedHashMap<>());
  }

  /** This result with {@code check} as its answer check. */
  QueryResult withCheck(String check) {
    return new QueryResult(name, sql, status, error, runsNanos, stats, rows, check, extra);
  }

  /** True when the query has no figures: it failed ({@code ERROR}) or is {@code n/a}. */
  public boolean failed() {
    return !OK.equals(status);
  }
}
