package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The USE_SORT_MERGE_JOIN hint runs a query block's equi-joins as sort-merge joins: the same answer
 * as the hash join for every kind, NULL and duplicate keys, decimals equal at other scales, several
 * key columns and residual conditions; in a small query memory its sorts spill.
 */
class TestSortMergeJoins {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("sort-merge-join");

  @BeforeEach
  void load() throws SQLException {
    db.execute(
        "CREATE TABLE A (ID INTEGER PRIMARY KEY, K INTEGER, K2 VARCHAR(4), D DECIMAL(10,2))",
        "CREATE TABLE B (ID INTEGER PRIMARY KEY, K INTEGER, K2 VARCHAR(4), D DECIMAL(12,3))");
    try (PreparedStatement a =
            db.connection().prepareStatement("UPSERT INTO A VALUES (?, ?, ?, ?)");
        PreparedStatement b =
            db.connection().prepareStatement("UPSERT INTO B VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < 600; i++) {
        a.setInt(1, i);
        a.setObject(2, i % 13 == 0 ? null : i % 40);
        a.setString(3, "k" + (i % 3));
        a.setBigDecimal(4, java.math.BigDecimal.valueOf(i % 50, 1));
        a.addBatch();
        b.setInt(1, i);
        b.setObject(2, i % 17 == 0 ? null : (i % 50) + 20); // 20..69: some only in B
        b.setString(3, "k" + (i % 2));
        b.setBigDecimal(4, java.math.BigDecimal.valueOf((i % 70) * 10L, 3)); // 0.010 = 0.01
        b.addBatch();
      }
      a.executeBatch();
      b.executeBatch();
    }
  }

  private void assertSameAsHashJoin(String select) throws SQLException {
    String merge = "SELECT /*+ USE_SORT_MERGE_JOIN */ " + select;
    assertThat(String.join("\n", db.explain(merge))).contains("CLIENT SORT-MERGE");
    List<String> got = new ArrayList<>(db.rows(merge));
    List<String> want = new ArrayList<>(db.rows("SELECT /*+ NO_SERVER_JOIN */ " + select));
    got.sort(null);
    want.sort(null);
    assertThat(got).as(select).isNotEmpty().isEqualTo(want);
  }

  @Test
  void everyKindAnswersAsTheHashJoin() throws SQLException {
    assertSameAsHashJoin("A.ID, B.ID FROM A JOIN B ON A.K = B.K");
    assertSameAsHashJoin("A.ID, B.ID FROM A LEFT JOIN B ON A.K = B.K");
    assertSameAsHashJoin("A.ID, B.ID FROM A RIGHT JOIN B ON A.K = B.K");
    assertSameAsHashJoin("A.ID, B.ID FROM A FULL JOIN B ON A.K = B.K");
    assertSameAsHashJoin("A.ID FROM A WHERE EXISTS (SELECT 1 FROM B WHERE B.K = A.K)");
    assertSameAsHashJoin("A.ID FROM A WHERE NOT EXISTS (SELECT 1 FROM B WHERE B.K = A.K)");
  }

  @Test
  void severalKeysResidualsAndDecimalsOfOtherScales() throws SQLException {
    assertSameAsHashJoin("A.ID, B.ID FROM A JOIN B ON A.K = B.K AND A.K2 = B.K2");
    assertSameAsHashJoin("A.ID, B.ID FROM A FULL JOIN B ON A.K = B.K AND A.ID < B.ID");
    assertSameAsHashJoin("A.ID, B.ID FROM A LEFT JOIN B ON A.D = B.D");
    assertSameAsHashJoin("COUNT(*), SUM(B.ID) FROM A JOIN B ON A.K = B.K WHERE A.ID > 100");
  }

  @Test
  void itsSortsSpillInASmallQueryMemory() throws SQLException {
    String sql =
        "SELECT /*+ USE_SORT_MERGE_JOIN */ A.ID, B.ID, B.K2 FROM A FULL JOIN B ON A.K = B.K";
    List<String> want = new ArrayList<>(db.rows(sql));
    try (java.sql.Connection small =
            java.sql.DriverManager.getConnection(db.url() + ";queryMemoryMaxBytes=16k");
        java.sql.Statement s = small.createStatement();
        java.sql.ResultSet rs = s.executeQuery(sql)) {
      List<String> got = new ArrayList<>();
      while (rs.next()) {
        got.add(rs.getObject(1) + "," + rs.getObject(2) + "," + rs.getObject(3));
      }
      got.sort(null);
      want.sort(null);
      assertThat(got).isEqualTo(want);
      List<String> warnings = new ArrayList<>();
      for (java.sql.SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
        warnings.add(w.getMessage());
      }
      assertThat(warnings).anyMatch(w -> w.contains("spilled"));
    }
  }
}
