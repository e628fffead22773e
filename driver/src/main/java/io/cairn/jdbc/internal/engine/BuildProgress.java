package io.cairn.jdbc.internal.engine;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;

/**
 * How far the build of index {@code index} on table {@code table} (schema-qualified) is: the rows
 * indexed so far, about how many the table holds ({@code estimatedRows} from its statistics; -1
 * when unknown), the time since the build started, and whether this is the final report.
 */
public record BuildProgress(
    String index,
    String table,
    long rowsIndexed,
    long estimatedRows,
    Duration elapsed,
    boolean finished) {
  public BuildProgress {
    requireNonNull(index, "index is null");
    requireNonNull(table, "table is null");
    requireNonNull(elapsed, "elapsed is null");
  }

  /**
   * The percentage done from the estimate: 0 to 99 while the build runs (an estimate may be short),
   * 100 once finished; -1 when the table's size is unknown.
   */
  public int percent() {
    if (finished) {
      return 100;
    }
    if (estimatedRows <= 0) {
      return -1;
    }
    return (int) Math.min(99, rowsIndexed * 100 / estimatedRows);
  }

  /**
   * One line for a person: {@code Building index I on PUBLIC.T: 3,000,000 rows (50%), 2.1 s}, and
   * at the end {@code Built index I on PUBLIC.T: 6,001,215 rows in 4.2 s}.
   */
  public String describe() {
    double seconds = elapsed.toNanos() / 1e9;
    if (finished) {
      return String.format(
          Locale.ROOT,
          "Built index %s on %s: %,d rows in %.1f s",
          index,
          table,
          rowsIndexed,
          seconds);
    }
    int percent = percent();
    return String.format(
        Locale.ROOT,
        "Building index %s on %s: %,d rows%s, %.1f s",
        index,
        table,
        rowsIndexed,
        percent < 0 ? "" : " (" + percent + "%)",
        seconds);
  }
}
