package io.cairn.tpch.queries;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Reads answers in a form that does not depend on the database that produced them, and compares
 * them: numbers with a relative tolerance of 1e-6 (absolute 1e-9 near zero), strings after trimming
 * trailing spaces (CHAR padding), dates and timestamps by value.
 */
final class ResultCheck {
  static final double RELATIVE = 1e-6;
  static final double ABSOLUTE = 1e-9;

  /** An answer: the column labels and the normalized rows. */
  record Answer(List<String> columns, List<List<Object>> rows) {}

  /** The verdict of a comparison: {@code null} detail when the answers match. */
  record Verdict(boolean matches, String detail) {
    static final Verdict OK = new Verdict(true, null);

    static Verdict differs(String detail) {
      return new Verdict(false, detail);
    }
  }

  private ResultCheck() {}

  /** Reads all rows of {@code rs}, normalized. */
  static Answer read(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<String> columns = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      columns.add(md.getColumnLabel(i).toUpperCase(Locale.ROOT));
    }
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>(n);
      for (int i = 1; i <= n; i++) {
        row.add(normalize(rs.getObject(i)));
      }
      rows.add(row);
    }
    return new Answer(columns, rows);
  }

  /**
   * Numbers become BigDecimal (or Double for NaN and infinities), CHAR padding goes, dates stay.
   */
  static Object normalize(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : (Object) d;
    }
    if (v instanceof Number n) {
      return BigDecimal.valueOf(n.longValue());
    }
    if (v instanceof String s) {
      return s.stripTrailing();
    }
    if (v instanceof Character c) {
      return String.valueOf(c).stripTrailing();
    }
    if (v instanceof Date d) {
      return d.toLocalDate();
    }
    if (v instanceof Timestamp t) {
      return t.toLocalDateTime();
    }
    if (v instanceof Time t) {
      return t.toLocalTime();
    }
    if (v instanceof OffsetDateTime t) {
      return t.toLocalDateTime();
    }
    if (v instanceof LocalDate || v instanceof LocalDateTime || v instanceof Boolean) {
      return v;
    }
    return v.toString().stripTrailing();
  }

  /**
   * Compares {@code actual} with {@code expected}: row by row when {@code ordered}, otherwise as
   * multisets (both sorted first).
   */
  static Verdict compare(Answer expected, Answer actual, boolean ordered) {
    if (expected.columns().size() != actual.columns().size()) {
      return Verdict.differs(
          String.format(
              Locale.ROOT,
              "%d columns %s, expected %d %s",
              actual.columns().size(),
              actual.columns(),
              expected.columns().size(),
              expected.columns()));
    }
    if (expected.rows().size() != actual.rows().size()) {
      return Verdict.differs(
          String.format(
              Locale.ROOT,
              "%d rows, expected %d%s",
              actual.rows().size(),
              expected.rows().size(),
              firstDifference(expected, actual, ordered)
                  .map(d -> "; first difference: " + d)
                  .orElse("")));
    }
    var difference = firstDifference(expected, actual, ordered);
    if (difference.isEmpty()) {
      return Verdict.OK;
    }
    if (ordered && firstDifference(expected, actual, false).isEmpty()) {
      return Verdict.differs("same rows in another order: " + difference.get());
    }
    return Verdict.differs(difference.get());
  }

  private static java.util.Optional<String> firstDifference(
      Answer expected, Answer actual, boolean ordered) {
    List<List<Object>> e = expected.rows();
    List<List<Object>> a = actual.rows();
    if (!ordered) {
      e = sorted(e);
      a = sorted(a);
    }
    int rows = Math.min(e.size(), a.size());
    for (int r = 0; r < rows; r++) {
      List<Object> er = e.get(r);
      List<Object> ar = a.get(r);
      for (int c = 0; c < er.size(); c++) {
        if (!same(er.get(c), ar.get(c))) {
          return java.util.Optional.of(
              String.format(
                  Locale.ROOT,
                  "%srow %d column %d (%s): %s, expected %s; row %s, expected %s",
                  ordered ? "" : "sorted ",
                  r + 1,
                  c + 1,
                  actual.columns().get(c),
                  show(ar.get(c)),
                  show(er.get(c)),
                  showRow(ar),
                  showRow(er)));
        }
      }
    }
    if (e.size() != a.size()) {
      List<Object> extra = e.size() > a.size() ? e.get(rows) : a.get(rows);
      return java.util.Optional.of(
          String.format(
              Locale.ROOT,
              "row %d %s %s",
              rows + 1,
              e.size() > a.size() ? "missing, expected" : "unexpected:",
              showRow(extra)));
    }
    return java.util.Optional.empty();
  }

  /** True when two normalized values are equal (numbers within the tolerance). */
  static boolean same(Object expected, Object actual) {
    if (expected == null || actual == null) {
      return expected == actual;
    }
    if (expected instanceof BigDecimal e && actual instanceof BigDecimal a) {
      if (e.compareTo(a) == 0) {
        return true;
      }
      double x = e.doubleValue();
      double y = a.doubleValue();
      double diff = Math.abs(x - y);
      return diff <= ABSOLUTE || diff <= RELATIVE * Math.max(Math.abs(x), Math.abs(y));
    }
    return expected.equals(actual);
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(ROWS);
    return copy;
  }

  private static final Comparator<List<Object>> ROWS =
      (x, y) -> {
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
          int c = compareValues(x.get(i), y.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(x.size(), y.size());
      };

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareValues(Object x, Object y) {
    if (x == null || y == null) {
      return x == null ? (y == null ? 0 : -1) : 1;
    }
    if (x.getClass() == y.getClass() && x instanceof Comparable cx) {
      return cx.compareTo(y);
    }
    if (x instanceof BigDecimal && y instanceof BigDecimal) {
      return ((BigDecimal) x).compareTo((BigDecimal) y);
    }
    return x.getClass().getName().compareTo(y.getClass().getName());
  }

  static String show(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof String s) {
      return "'" + s + "'";
    }
    return v.toString();
  }

  static String showRow(List<Object> row) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < row.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(show(row.get(i)));
    }
    return b.append(']').toString();
  }
}
