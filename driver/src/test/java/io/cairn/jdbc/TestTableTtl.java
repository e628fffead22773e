package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TTL end to end on both embedded stores (jdbc:cairn:mem: and jdbc:cairn:file:): rows expire for
 * SELECT, COUNT(*) and INSERT's duplicate check, a row written again lives TTL from its last write,
 * ALTER TABLE SET TTL applies at once, and a durable table keeps expiring after a reopen. The tests
 * wait for time to pass (TTL is about time), polling with a deadline.
 */
@EmbeddedOnly("jdbc:cairn:file: databases in this JVM, and the in-memory store beside them")
class TestTableTtl {
  private static final long DEADLINE_MILLIS = 15_000;

  @TempDir Path directory;

  private String memoryUrl() {
    return "jdbc:cairn:mem:ttl-" + UUID.randomUUID();
  }

  private String fileUrl() {
    return "jdbc:cairn:file:" + directory;
  }

  /** Waits until {@code COUNT(*)} of {@code table} is {@code count}; returns when (epoch ms). */
  private static long awaitCount(Connection c, String table, long count)
      throws SQLException, InterruptedException {
    long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
    while (true) {
      String n = TestingDatabase.rows(c, "SELECT COUNT(*) FROM " + table).get(0);
      long now = System.currentTimeMillis();
      if (n.equals(Long.toString(count))) {
        return now;
      }
      assertThat(now)
          .as("waiting for %s rows in %s, found %s", count, table, n)
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static void rowsExpire(String url) throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      TestingDatabase.execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10)) TTL=1");
      long written = System.currentTimeMillis();
      TestingDatabase.execute(c, "UPSERT INTO T VALUES (1, 'a'), (2, 'b')", "FLUSH TABLE T");
      assertThat(TestingDatabase.rows(c, "SELECT ID, V FROM T")).containsExactly("1,a", "2,b");
      long gone = awaitCount(c, "T", 0);
      assertThat(gone - written).as("not before the TTL").isGreaterThanOrEqualTo(1000);
      assertThat(TestingDatabase.rows(c, "SELECT ID, V FROM T")).isEmpty();
      assertThat(TestingDatabase.rows(c, "SELECT V FROM T WHERE ID = 1")).isEmpty();
      TestingDatabase.execute(c, "MAJOR_COMPACT TABLE T");
      assertThat(TestingDatabase.rows(c, "SELECT ID FROM T")).isEmpty();
      TestingDatabase.execute(
          c, "INSERT INTO T VALUES (1, 'again')"); // the expired row is no duplicate
      assertThat(TestingDatabase.rows(c, "SELECT ID, V FROM T")).containsExactly("1,again");
    }
  }

  private static void writesAndAlterCount(String url) throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      TestingDatabase.execute(c, "CREATE TABLE U (ID INTEGER PRIMARY KEY, V VARCHAR(10))");
      TestingDatabase.execute(c, "UPSERT INTO U VALUES (1, 'a'), (2, 'b')");
      Thread.sleep(1200); // rows 1 and 2 are now over a second old
      long updated = System.currentTimeMillis();
      TestingDatabase.execute(c, "UPDATE U SET V = 'b2' WHERE ID = 2");
      assertThat(TestingDatabase.rows(c, "SELECT ID FROM U")).containsExactly("1", "2");
      TestingDatabase.execute(c, "ALTER TABLE U SET TTL=1");
      assertThat(TestingDatabase.rows(c, "SELECT ID, V FROM U"))
          .as("at once")
          .containsExactly("2,b2");
      long gone = awaitCount(c, "U", 0);
      assertThat(gone - updated).as("row 2 lives from its update").isGreaterThanOrEqualTo(1000);
    }
  }

  @Test
  void rowsExpireInMemory() throws Exception {
    rowsExpire(memoryUrl());
  }

  @Test
  void rowsExpireOnDisk() throws Exception {
    rowsExpire(fileUrl());
  }

  @Test
  void writesAndAlterCountInMemory() throws Exception {
    writesAndAlterCount(memoryUrl());
  }

  @Test
  void writesAndAlterCountOnDisk() throws Exception {
    writesAndAlterCount(fileUrl());
  }

  @Test
  void aDurableTableExpiresAfterAReopen() throws Exception {
    long written;
    try (Connection c = DriverManager.getConnection(fileUrl())) {
      TestingDatabase.execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY) TTL=2");
      written = System.currentTimeMillis();
      TestingDatabase.execute(c, "UPSERT INTO T VALUES (1)");
    }
    Thread.sleep(1000);
    long reopened = System.currentTimeMillis();
    try (Connection c = DriverManager.getConnection(fileUrl())) {
      assertThat(TestingDatabase.rows(c, "SELECT ID FROM T")).containsExactly("1");
      long gone = awaitCount(c, "T", 0);
      assertThat(gone - written).isGreaterThanOrEqualTo(2000);
      assertThat(gone - reopened).as("counted from the write, not the reopen").isLessThan(1900);
    }
  }
}
