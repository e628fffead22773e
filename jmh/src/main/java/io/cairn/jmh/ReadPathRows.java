package io.cairn.jmh;

import java.math.BigDecimal;
import java.time.LocalDate;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The rows of the read-path benchmarks' table {@code T (K BIGINT PRIMARY KEY, QTY DECIMAL(15,2),
 * PRICE DOUBLE, D DATE, S VARCHAR)}: row {@code k} for {@code k} in {@code [0, rows)}, every value
 * a function of {@code k}, so that any query's answer can be computed without the store.
 *
 * <ul>
 *   <li>QTY: 0.00 to 49.99, {@code QTY < 10} holds for 20% of the rows;
 *   <li>D: 1992-01-01 to 1998-12-31, {@code D < DATE '1995-01-01'} holds for about 43%;
 *   <li>S: 12 to 16 characters.
 * </ul>
 */
final class ReadPathRows {
  /** Rows per table unless the {@code rows} parameter says otherwise. */
  static final int DEFAULT_ROWS = 1_000_000;

  static final String CREATE_TABLE =
      "CREATE TABLE T (K BIGINT PRIMARY KEY, QTY DECIMAL(15,2), PRICE DOUBLE, D DATE, S VARCHAR)";

  static final BigDecimal QTY_LIMIT = BigDecimal.TEN;
  static final LocalDate DATE_LIMIT = LocalDate.of(1995, 1, 1);
  private static final LocalDate FIRST_DATE = LocalDate.of(1992, 1, 1);
  private static final int DATE_SPAN_DAYS = 2557;

  private ReadPathRows() {}

  static BigDecimal qty(long k) {
    return BigDecimal.valueOf(Math.floorMod(k * 7919, 5000), 2);
  }

  static double price(long k) {
    return 900.0 + Math.floorMod(k * 104_729, 100_000) / 100.0;
  }

  static LocalDate date(long k) {
    return FIRST_DATE.plusDays(Math.floorMod(k * 31, DATE_SPAN_DAYS));
  }

  static String text(long k) {
    return "supplier#" + Long.toString(Math.floorMod(k * 2_654_435_761L, 1L << 32), 36);
  }

  /** Rows in {@code [0, rows)} with {@code QTY < 10}. */
  static long countQtyBelowLimit(long rows) {
    long n = 0;
    for (long k = 0; k < rows; k++) {
      if (qty(k).compareTo(QTY_LIMIT) < 0) {
        n++;
      }
    }
    return n;
  }

  /** {@code SUM(QTY)} over the rows in {@code [0, rows)} with {@code D < DATE '1995-01-01'}. */
  static BigDecimal sumQtyBeforeDateLimit(long rows) {
    long cents = 0;
    for (long k = 0; k < rows; k++) {
      if (date(k).isBefore(DATE_LIMIT)) {
        cents += qty(k).unscaledValue().longValue();
      }
    }
    return BigDecimal.valueOf(cents, 2);
  }

  /**
   * Fails unless one benchmark operation is one row: the scan benchmarks declare {@code
   * OperationsPerInvocation(DEFAULT_ROWS)}, so that ops/s are rows/s and {@code -prof gc}'s {@code
   * gc.alloc.rate.norm} is bytes per row; another {@code -p rows=N} needs {@code -opi N} as well.
   */
  static void checkOneOperationPerRow(BenchmarkParams params, int rows) {
    if (params.getOpsPerInvocation() != rows) {
      throw new IllegalArgumentException(
          "One operation must be one row: expected -opi ["
              + rows
              + "] (the rows parameter), found ["
              + params.getOpsPerInvocation()
              + "]; run the scans with -p rows=N -opi N");
    }
  }

  /** Fails unless one benchmark operation is one get (no {@code -opi} given to a get benchmark). */
  static void checkOneOperationPerGet(BenchmarkParams params) {
    if (params.getOpsPerInvocation() != 1) {
      throw new IllegalArgumentException(
          "One operation must be one get: expected -opi [1], found ["
              + params.getOpsPerInvocation()
              + "]; run the gets without -opi");
    }
  }
}
