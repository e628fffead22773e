package io.cairn.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLWarning;
import java.sql.Statement;

/**
 * The process {@link TestSpillInASmallHeap} starts with a small heap: a self-join of the table T of
 * the database at {@code args[0]} whose build side is larger than the heap, with the hints of
 * {@code args[1]} if given (NO_SERVER_JOIN: the driver's grace hash join; none: probed in the
 * store, in passes). Prints the join's row count, its checksum and the result set's warnings, one
 * per line.
 */
public final class SelfJoinInASmallHeap {
  private SelfJoinInASmallHeap() {}

  public static void main(String[] args) throws Exception {
    String hints = args.length > 1 && !args[1].isEmpty() ? "/*+ " + args[1] + " */ " : "";
    try (Connection c = DriverManager.getConnection(args[0]);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT "
                    + hints
                    + "A.ID, A.S, B.S FROM T A JOIN T B ON A.ID = B.ID AND A.S = B.S")) {
      long rows = 0;
      long checksum = 0;
      while (rs.next()) {
        rows++;
        checksum += rs.getLong(1) + rs.getString(2).length() + rs.getString(3).length();
      }
      System.out.println("rows=" + rows);
      System.out.println("checksum=" + checksum);
      for (SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
        System.out.println("warning=" + w.getMessage());
      }
    }
  }
}
