package io.cairn.jdbc.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.jdbc.internal.CairnConnection;
import io.cairn.jdbc.internal.session.DatabaseSession;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A read-modify-write statement whose conditional batch fails with a write conflict (made by the
 * recording store, as if another commit had changed a row it read) runs again at a new snapshot,
 * within bounds: it succeeds once the conflicts stop, fails with 40001 naming its attempts past
 * them, stops at a cancel; statements without a read-modify-write never carry the condition.
 */
class TestConflictRetries {
  private final TestingRecordingStore store = new TestingRecordingStore("conflicts");
  private Connection c;
  private Statement s;

  @BeforeEach
  void open() throws SQLException {
    EmbeddedDatabase database =
        EmbeddedDatabase.acquire("test:" + UUID.randomUUID(), () -> store, false);
    c =
        new CairnConnection(
            new DatabaseSession(database, null), "jdbc:cairn:test", new Properties());
    s = c.createStatement();
    s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL, V VARCHAR(5))");
    s.executeUpdate("UPSERT INTO T VALUES (1, 0, 'a'), (2, 0, 'b')");
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  private long mutates() {
    return store.calls.stream().filter(call -> call.contains(" mutate ")).count();
  }

  private long n(int id) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT N FROM T WHERE ID = " + id)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  @Test
  void aConflictingStatementRunsAgainUntilItCommits() throws SQLException {
    for (String sql :
        new String[] {
          "UPDATE T SET N = N + 1 WHERE ID = 1",
          "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = N + 1",
          "UPSERT INTO T (ID, N) SELECT ID, N + 1 FROM T WHERE ID = 1",
          "UPSERT INTO T (ID, N) VALUES (1, 4)"
        }) {
      long before = n(1);
      long calls = mutates();
      store.conflicts.set(3);
      assertThat(s.executeUpdate(sql)).as(sql).isEqualTo(1);
      assertThat(store.conflicts.get()).as(sql).isZero();
      assertThat(mutates() - calls).as(sql + ": three conflicts, then the commit").isEqualTo(4);
      assertThat(n(1)).as(sql).isIn(before + 1, 4L);
    }
    store.conflicts.set(2);
    assertThat(s.executeUpdate("DELETE FROM T WHERE ID = 2")).isEqualTo(1);
    assertThat(store.conflicts.get()).isZero();
  }

  @Test
  void pastItsAttemptsItFailsWithAWriteConflict() throws SQLException {
    store.conflicts.set(Integer.MAX_VALUE);
    long calls = mutates();
    assertThatThrownBy(() -> s.executeUpdate("UPDATE T SET N = N + 1"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("40001"))
        .hasMessageContaining("after [100] attempts")
        .hasMessageContaining("PUBLIC.T");
    assertThat(mutates() - calls).isEqualTo(100);
    store.conflicts.set(0);
    assertThat(n(1)).isZero();
    assertThat(n(2)).isZero();
  }

  @Test
  void aCancelStopsTheRetries() throws SQLException {
    store.conflicts.set(Integer.MAX_VALUE);
    long calls = mutates();
    int[] seen = new int[1];
    store.onConflict =
        () -> {
          if (++seen[0] == 3) {
            try {
              s.cancel();
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          }
        };
    assertThatThrownBy(() -> s.executeUpdate("UPDATE T SET N = N + 1 WHERE ID = 1"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
    assertThat(mutates() - calls).isEqualTo(3);
    store.conflicts.set(0);
    assertThat(n(1)).isZero();
  }

  @Test
  void blindWritesAndInsertsCarryNoCondition() throws SQLException {
    store.conflicts.set(1);
    assertThat(s.executeUpdate("UPSERT INTO T VALUES (3, 3, 'c')")).isEqualTo(1);
    assertThat(s.executeUpdate("INSERT INTO T SELECT ID + 10, N, V FROM T")).isEqualTo(3);
    assertThat(store.conflicts.get()).as("no conditional batch").isEqualTo(1);
    assertThat(n(13)).isEqualTo(3);
  }
}
