package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SYSTEM.BLOCK_CACHE and SYSTEM.BUFFER_POOL on a durable database: they show the cache filling and
 * being hit, answer SQL like tables, refuse writes and DDL, and match the JMX beans.
 */
@EmbeddedOnly("reads the block cache and buffer pool of a durable store opened in this JVM")
class TestSystemViews {
  @TempDir Path dir;
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("cairn.block-cache.size", "8m");
    connection = DriverManager.getConnection("jdbc:cairn:file:" + dir, properties);
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE T (K INTEGER PRIMARY KEY, V VARCHAR(100))");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 2000; i++) {
        values
            .append(i == 0 ? "" : ", ")
            .append("(")
            .append(i)
            .append(", 'value ")
            .append(i)
            .append("')");
      }
      s.executeUpdate("UPSERT INTO T VALUES " + values);
      connection.commit();
      s.executeUpdate("FLUSH TABLE T");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private long value(String sql) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getLong(1);
    }
  }

  @Test
  void blockCacheFillsAndIsHit() throws SQLException {
    long hitsBefore = value("SELECT HITS FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'");
    assertThat(value("SELECT COUNT(*) FROM T WHERE V LIKE 'value%'")).isEqualTo(2000);
    long blocks = value("SELECT BLOCKS FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'");
    assertThat(blocks).isPositive();
    assertThat(value("SELECT COUNT(*) FROM T WHERE V LIKE 'value%'")).isEqualTo(2000);
    assertThat(value("SELECT HITS FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'") - hitsBefore)
        .isGreaterThanOrEqualTo(blocks);
    // whole 520 KiB buckets of the configured 8 MiB
    assertThat(value("SELECT CAPACITY_BYTES FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'"))
        .isBetween(7L << 20, 8L << 20);
    assertThat(value("SELECT COUNT(*) FROM SYSTEM.BLOCK_CACHE")).isEqualTo(3); // L1, L2, VECTORS
    assertThat(value("SELECT MAX_BUFFERS FROM SYSTEM.BUFFER_POOL")).isPositive();
    assertThat(value("SELECT USED_BUFFERS FROM SYSTEM.BUFFER_POOL")).isZero();
  }

  @Test
  void blocksKeptAsVectorsAreShownAndHit() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE W (K INTEGER PRIMARY KEY, D DECIMAL(10, 2)) BLOCKSIZE=1024");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 3000; i++) {
        values.append(i == 0 ? "" : ", ").append("(").append(i).append(", ").append(i % 97);
        values.append(".25)");
      }
      s.executeUpdate("UPSERT INTO W VALUES " + values);
      connection.commit();
      s.executeUpdate("FLUSH TABLE W");
    }
    String vectors = "FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'VECTORS'";
    String sum = "SELECT SUM(D) FROM W WHERE D > 10";
    assertThat(value(sum)).isEqualTo(expectedSum());
    long blocks = value("SELECT BLOCKS " + vectors);
    assertThat(blocks).as("blocks kept as vectors").isPositive();
    assertThat(value("SELECT BYTES " + vectors)).isPositive();
    long hits = value("SELECT HITS " + vectors);
    assertThat(value(sum)).isEqualTo(expectedSum());
    assertThat(value("SELECT HITS " + vectors) - hits).isGreaterThanOrEqualTo(blocks);
    assertThat(value("SELECT CAPACITY_BYTES " + vectors)).isPositive();
  }

  /** SUM(D) over D > 10 of W's rows, truncated: D = i % 97 + 0.25. */
  private static long expectedSum() {
    double sum = 0;
    for (int i = 0; i < 3000; i++) {
      double d = i % 97 + 0.25;
      sum += d > 10 ? d : 0;
    }
    return (long) sum;
  }

  @Test
  void noCacheScansReadThroughTheCacheWithoutFillingIt() throws SQLException {
    String l2 = "SELECT BLOCKS FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'";
    assertThat(value(l2)).isZero();
    assertThat(value("SELECT /*+ NO_CACHE */ COUNT(*) FROM T WHERE V LIKE 'value%'"))
        .isEqualTo(2000);
    assertThat(value(l2)).as("a NO_CACHE scan adds no data block").isZero();
    assertThat(value("SELECT USED_BUFFERS FROM SYSTEM.BUFFER_POOL")).isZero();
    assertThat(value("SELECT COUNT(*) FROM T WHERE V LIKE 'value%'")).isEqualTo(2000);
    long blocks = value(l2);
    assertThat(blocks).isPositive();
    long hits = value("SELECT HITS FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'");
    assertThat(value("SELECT /*+ NO_CACHE */ COUNT(*) FROM T WHERE V LIKE 'value%'"))
        .isEqualTo(2000);
    assertThat(value("SELECT HITS FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'") - hits)
        .as("a NO_CACHE scan still reads cached blocks")
        .isGreaterThanOrEqualTo(blocks);
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN SELECT /*+ NO_CACHE */ * FROM T WHERE K > 5")) {
      StringBuilder plan = new StringBuilder();
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
      assertThat(plan.toString()).contains("CLIENT 1-CHUNK RANGE SCAN OVER PUBLIC.T", "(NO_CACHE)");
    }
  }

  @Test
  void jmxShowsTheSameFigures() throws Exception {
    value("SELECT COUNT(*) FROM T");
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name =
        new ObjectName(
            "io.cairn:type=BlockCache,store=" + ObjectName.quote(dir.toString()) + ",level=L2");
    assertThat((Long) server.getAttribute(name, "Blocks"))
        .isEqualTo(value("SELECT BLOCKS FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'"));
    assertThat((Long) server.getAttribute(name, "CapacityBytes"))
        .isEqualTo(value("SELECT CAPACITY_BYTES FROM SYSTEM.BLOCK_CACHE WHERE LEVEL = 'L2'"));
    ObjectName pool =
        new ObjectName("io.cairn:type=BufferPool,store=" + ObjectName.quote(dir.toString()));
    assertThat((Integer) server.getAttribute(pool, "MaxBuffers")).isPositive();
  }

  @Test
  void theSystemSchemaIsWrittenAsInPhoenix() throws SQLException {
    // SYSTEM is a keyword of Calcite's parser: unquoted before a dot it names the schema
    assertThat(value("select count(*) from system . block_cache where 'system.x' <> ''"))
        .isEqualTo(3);
    assertThat(value("SELECT COUNT(*) FROM \"SYSTEM\".BUFFER_POOL")).isEqualTo(1);
    assertThat(value("SELECT COUNT(*) FROM T /* system.x */ WHERE 'SYSTEM.' = 'SYSTEM.'"))
        .isEqualTo(2000);
  }

  @Test
  void metadataListsTheViewsAsSystemTables() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs =
        connection.getMetaData().getTables(null, "SYSTEM", "%", new String[] {"SYSTEM TABLE"})) {
      while (rs.next()) {
        rows.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
      }
    }
    assertThat(rows)
        .containsExactly(
            "SYSTEM.BLOCK_CACHE",
            "SYSTEM.BUFFER_POOL",
            "SYSTEM.INDEXES",
            "SYSTEM.INDEX_STATS",
            "SYSTEM.STATS");
    try (ResultSet rs =
        connection.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("TABLE_NAME")).isEqualTo("T");
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void statisticsOfAFlushSurviveAReopen() throws SQLException {
    String sql =
        "SELECT SUM(ROW_COUNT), COUNT(*), MIN(COLLECTED_AT) FROM SYSTEM.STATS"
            + " WHERE TABLE_SCHEM = 'PUBLIC' AND TABLE_NAME = 'T'";
    List<String> collected = strings(sql);
    assertThat(collected.get(0)).startsWith("2000,1,");
    connection.close();
    connection = DriverManager.getConnection("jdbc:cairn:file:" + dir);
    assertThat(strings(sql))
        .as("read back from the store, not collected again")
        .isEqualTo(collected);
  }

  private List<String> strings(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          values.add(String.valueOf(rs.getObject(i)));
        }
        out.add(String.join(",", values));
      }
    }
    return out;
  }

  @Test
  void anInMemoryDatabaseHasNoCache() throws SQLException {
    try (Connection mem = DriverManager.getConnection("jdbc:cairn:mem:views-" + dir.hashCode());
        Statement s = mem.createStatement()) {
      for (String view : new String[] {"SYSTEM.BLOCK_CACHE", "SYSTEM.BUFFER_POOL"}) {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + view)) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).as(view).isZero();
        }
      }
    }
  }

  @Test
  void viewsAreReadOnly() {
    assertFails("UPSERT INTO SYSTEM.BLOCK_CACHE (LEVEL) VALUES ('L3')", "read-only system view");
    assertFails("DELETE FROM SYSTEM.BUFFER_POOL", "read-only system view");
    assertFails("DELETE FROM SYSTEM.STATS", "read-only system view");
    assertFails("UPDATE SYSTEM.STATS SET ROW_COUNT = 1", "read-only system view");
    assertFails("DROP TABLE SYSTEM.BLOCK_CACHE", "read-only system view");
    assertFails("ALTER TABLE SYSTEM.BLOCK_CACHE SET TTL=5", "read-only system view");
    assertFails("CREATE TABLE SYSTEM.BLOCK_CACHE (K INTEGER PRIMARY KEY)", "already exists");
  }

  private void assertFails(String sql, String fragment) {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
      connection.commit();
    } catch (SQLException e) {
      assertThat(e.getMessage()).as(sql).contains(fragment);
      return;
    }
    throw new AssertionError("expected an SQLException from: " + sql);
  }
}
