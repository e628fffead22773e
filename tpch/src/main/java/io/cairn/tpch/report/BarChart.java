package io.cairn.tpch.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Writes a grouped bar chart as PNG with XChart: one group per category (e.g. a query), one bar per
 * series (e.g. a database). Missing values ({@code null}, NaN, or not positive on a log axis) are
 * left out of the chart. The value axis is logarithmic when the positive values span more than two
 * orders of magnitude ({@link #LOG_SPAN}).
 */
public final class BarChart {
  /** Max/min ratio of the values above which the value axis is logarithmic. */
  public static final double LOG_SPAN = 100;

  private final String title;
  private final String valueAxis;
  private final List<String> categories;
  private final Map<String, List<Double>> series = new LinkedHashMap<>();

  public BarChart(String title, String valueAxis, List<String> categories) {
    this.title = title;
    this.valueAxis = valueAxis;
    this.categories = List.copyOf(categories);
  }

  /** Adds a series with one value per category ({@code null} when missing). */
  public BarChart addSeries(String name, List<Double> values) {
    if (values.size() != categories.size()) {
      throw new IllegalArgumentException(
          "Series ["
              + name
              + "] has "
              + values.size()
              + " values for "
              + categories.size()
              + " categories");
    }
    series.put(name, new ArrayList<>(values));
    return this;
  }

  /** True when the chart would use a logarithmic value axis. */
  public boolean logarithmic() {
    double min = minPositive();
    double max = 0;
    for (List<Double> values : series.values()) {
      for (Double v : values) {
        if (usable(v, false)) {
          max = Math.max(max, v);
        }
      }
    }
    return max > 0 && max / min > LOG_SPAN;
  }

  private double minPositive() {
    double min = Double.POSITIVE_INFINITY;
    for (List<Double> values : series.values()) {
      for (Double v : values) {
        if (usable(v, true)) {
          min = Math.min(min, v);
        }
      }
    }
    return min;
  }

  /** Writes the chart to {@code file} (PNG; ".png" is added when missing) and returns the path. */
  public Path writePng(Path file, int width, int height) throws IOException {
    if (series.isEmpty()) {
      throw new IllegalStateException("Chart [" + title + "] has no series");
    }
    boolean log = logarithmic();
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(width)
            .height(height)
            .title(title)
            .xAxisTitle("")
            .yAxisTitle(valueAxis + (log ? " (log scale)" : ""))
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setYAxisLogarithmic(log);
    if (log) {
      // Bars start at the axis minimum, which must be positive on a log axis: a decade below the
      // smallest value.
      chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(minPositive()))));
    }
    chart.getStyler().setXAxisLabelRotation(60);
    chart.getStyler().setAvailableSpaceFill(0.8);
    chart.getStyler().setOverlapped(false);
    for (Map.Entry<String, List<Double>> e : series.entrySet()) {
      List<Double> values = new ArrayList<>();
      for (Double v : e.getValue()) {
        values.add(usable(v, log) ? v : null);
      }
      chart.addSeries(e.getKey(), categories, values);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    String name = file.toString();
    String base = name.endsWith(".png") ? name.substring(0, name.length() - 4) : name;
    BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
    return Path.of(base + ".png");
  }

  private static boolean usable(Double v, boolean log) {
    return v != null && !v.isNaN() && !v.isInfinite() && (v > 0 || (!log && v >= 0));
  }
}
