package io.cairn.jdbc.internal;

import io.cairn.jdbc.internal.exec.DriverMemory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The child JVM of {@link TestQueryMemoryInSmallHeap}: in a small heap, runs queries whose state in
 * the driver is far bigger than the heap, then a small one, and prints one line per query: {@code
 * LABEL OK rows}, {@code LABEL SQLSTATE message} or {@code LABEL THROWABLE what}; then {@code POOL
 * bytes} (what the JVM's pool still holds).
 */
public final class SmallHeapQueries {
  private SmallHeapQueries() {}

  public static void main(String[] args) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:cairn:mem:smallheap");
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, V INTEGER, S VARCHAR(40))");
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)")) {
        for (int i = 0; i < 3000; i++) {
          ps.setInt(1, i);
          ps.setInt(2, i);
          ps.setString(3, "value-" + i);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      // 1M groups: every pair of 1,000 values
      report(
          c,
          "GROUPBY",
          "SELECT A.V, B.V, COUNT(*), MAX(A.S) FROM T A, T B WHERE A.ID < 1000 AND B.ID < 1000"
              + " GROUP BY A.V, B.V");
      // 9M joined rows to sort
      report(c, "ORDERBY", "SELECT A.ID, B.ID, A.S, B.S FROM T A, T B ORDER BY A.S, B.S");
      report(c, "SMALL", "SELECT V, COUNT(*) FROM T GROUP BY V ORDER BY V");
      System.out.println("POOL " + DriverMemory.jvm().used());
    }
  }

  private static void report(Connection c, String label, String sql) {
    long rows = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows++;
      }
      System.out.println(label + " OK " + rows);
    } catch (SQLException e) {
      System.out.println(label + " " + e.getSQLState() + " " + e.getMessage());
    } catch (Throwable t) {
      System.out.println(label + " THROWABLE " + t);
    }
    System.out.flush();
  }
}
