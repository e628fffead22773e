package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Statistics of local indexes (issue 17) through SQL, embedded (in memory), against a server and on
 * HBase: UPDATE STATISTICS collects each index's chunks and distinct first-part values,
 * SYSTEM.INDEX_STATS shows them under the index's name, DROP INDEX drops them, and the planner's
 * choice follows them.
 */
class TestIndexStatisticsSql {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("index-stats");

  @BeforeEach
  void autoCommit() throws SQLException {
    db.connection().setAutoCommit(true);
  }

  /** Rows ID in [0, rows) with Q = {@code q(ID)} and a NOTE. */
  private void load(int rows, java.util.function.IntUnaryOperator q) throws SQLException {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      values
          .append(i == 0 ? "" : ", ")
          .append('(')
          .append(i)
          .append(", ")
          .append(q.applyAsInt(i))
          .append(", 'n")
          .append(i)
          .append("')");
    }
    db.update("UPSERT INTO T VALUES " + values);
  }

  @Test
  void indexStatsViewShowsChunksAndDistinctValuesUnderTheIndexName() throws SQLException {
    db.update(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER, NOTE VARCHAR(20)) GUIDE_POSTS_WIDTH=1");
    load(40, i -> i % 4);
    db.update("CREATE INDEX T_Q ON T (Q)");
    db.update("CREATE INDEX T_NOTE ON T (NOTE DESC)");
    db.update("UPDATE STATISTICS T");
    assertThat(
            db.rows(
                "SELECT INDEX_NAME, COUNT(*), SUM(ROW_COUNT), MAX(DISTINCT_COUNT),"
                    + " MAX(GUIDE_POSTS_WIDTH) FROM SYSTEM.INDEX_STATS"
                    + " WHERE TABLE_SCHEM = 'PUBLIC' AND TABLE_NAME = 'T'"
                    + " GROUP BY INDEX_NAME ORDER BY INDEX_NAME"))
        .as("a guide post after every entry")
        .containsExactly("T_NOTE,40,40,40,1", "T_Q,40,40,4,1");
    // each region's chunks cover the index's key range in order, in entry keys (hex)
    List<String> keys =
        db.rows(
            "SELECT START_KEY, STOP_KEY FROM SYSTEM.INDEX_STATS WHERE INDEX_NAME = 'T_Q'"
                + " ORDER BY START_KEY");
    for (int i = 1; i < keys.size(); i++) {
      assertThat(keys.get(i).split(",")[0]).isEqualTo(keys.get(i - 1).split(",")[1]);
    }
    assertThat(keys.get(0)).startsWith("80");
    assertThat(
            db.rows(
                "SELECT COUNT(*) FROM SYSTEM.INDEX_STATS WHERE INDEX_NAME = 'T_Q'"
                    + " AND (COLLECTED_AT IS NULL OR BYTE_COUNT <= 0)"))
        .containsExactly("0");
    // the table's own statistics leave the entries out
    assertThat(db.rows("SELECT SUM(ROW_COUNT) FROM SYSTEM.STATS WHERE TABLE_NAME = 'T'"))
        .containsExactly("40");

    db.update("DROP INDEX T_Q");
    assertThat(
            db.rows(
                "SELECT INDEX_NAME, SUM(ROW_COUNT) FROM SYSTEM.INDEX_STATS WHERE TABLE_NAME = 'T'"
                    + " GROUP BY INDEX_NAME"))
        .containsExactly("T_NOTE,40");
    db.update("DROP TABLE T");
    assertThat(db.rows("SELECT COUNT(*) FROM SYSTEM.INDEX_STATS")).containsExactly("0");
  }

  @Test
  void theChoiceFollowsTheStatistics() throws SQLException {
    db.update(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER, NOTE VARCHAR(20)) GUIDE_POSTS_WIDTH=1");
    load(2000, i -> i % 10 == 0 ? i : 0); // Q = 0 in 90% of the rows (and ID 0), else unique
    db.update("CREATE INDEX T_Q ON T (Q)");
    db.update("UPDATE STATISTICS T");
    assertThat(db.rows("SELECT SUM(ROW_COUNT) FROM SYSTEM.INDEX_STATS WHERE INDEX_NAME = 'T_Q'"))
        .containsExactly("2000");
    if (TestUrls.remote()) {
      return; // a remote connection's row counts may be a second old: the choice is checked here
    }
    assertThat(String.join("\n", db.rows("EXPLAIN SELECT * FROM T WHERE Q = 0")))
        .as("90% of the rows, looked up")
        .doesNotContain("SCAN INDEX");
    assertThat(String.join("\n", db.rows("EXPLAIN SELECT * FROM T WHERE Q = 1500")))
        .contains("SCAN INDEX T_Q ON PUBLIC.T");
    assertThat(db.rows("SELECT COUNT(*) FROM T WHERE Q = 0")).containsExactly("1801");
    assertThat(db.rows("SELECT ID, NOTE FROM T WHERE Q = 1500")).containsExactly("1500,n1500");
  }
}
