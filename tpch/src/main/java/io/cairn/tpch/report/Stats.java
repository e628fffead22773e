package io.cairn.tpch.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Summary of a list of durations measured in nanoseconds, expressed in milliseconds: the number of
 * runs, min, median (the mean of the two middle values for an even count), max and mean.
 */
public record Stats(int count, double minMs, double medianMs, double maxMs, double meanMs) {
  private static final double NANOS_PER_MS = 1e6;

  /** Statistics of {@code nanos}; fails on an empty list (there is nothing to summarise). */
  public static Stats ofNanos(List<Long> nanos) {
    if (nanos.isEmpty()) {
      throw new IllegalArgumentException("No runs to summarise: the list of durations is empty");
    }
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    int n = sorted.size();
    double median =
        n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) / 2.0 + sorted.get(n / 2) / 2.0);
    double sum = 0;
    for (long v : sorted) {
      sum += v;
    }
    return new Stats(
        n,
        sorted.get(0) / NANOS_PER_MS,
        median / NANOS_PER_MS,
        sorted.get(n - 1) / NANOS_PER_MS,
        sum / n / NANOS_PER_MS);
  }

  /** Items per second at the median duration ({@code items / median}); 0 when the median is 0. */
  public double perSecondAtMedian(double items) {
    return medianMs <= 0 ? 0 : items / (medianMs / 1000.0);
  }
}
