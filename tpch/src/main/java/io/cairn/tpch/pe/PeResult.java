package io.cairn.tpch.pe;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** A PE run's results, as printed and as written to JSON with --results. */
record PeResult(
    String command,
    String testClass,
    Map<String, Object> options,
    List<Client> clients,
    Client aggregate,
    List<String> notes) {

  /**
   * One client's (or, for {@code aggregate}, all clients') figures. MB are 2^20 bytes of (26-byte
   * row key + valueSize) per row, as HBase PE counts them.
   */
  record Client(
      String name,
      long offset,
      long ops,
      long rows,
      double elapsedMs,
      double opsPerSec,
      double mbPerSec,
      long found,
      long expected,
      Latency latencyUs) {}

  /** Latency in microseconds (recorded in nanoseconds, so sub-microsecond operations show). */
  record Latency(
      long count,
      double min,
      double avg,
      double stddev,
      double p50,
      double p75,
      double p95,
      double p99,
      double p999,
      double p9999,
      double max) {
    static Latency of(Histogram h) {
      return new Latency(
          h.getTotalCount(),
          us(h.getMinValue()),
          h.getMean() / 1000.0,
          h.getStdDeviation() / 1000.0,
          us(h.getValueAtPercentile(50)),
          us(h.getValueAtPercentile(75)),
          us(h.getValueAtPercentile(95)),
          us(h.getValueAtPercentile(99)),
          us(h.getValueAtPercentile(99.9)),
          us(h.getValueAtPercentile(99.99)),
          us(h.getMaxValue()));
    }

    private static double us(long nanos) {
      return nanos / 1000.0;
    }
  }
}
