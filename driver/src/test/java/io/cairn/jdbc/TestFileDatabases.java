package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdbc:cairn:file:DIR} end to end on the durable store: a database shared by the connections
 * of the JVM, closed with the last one (its lock released), reopened with its data. Needs {@code
 * io.cairn.store.Stores.open}; until the durable store lands these tests fail with its
 * NOT_SUPPORTED error.
 */
@EmbeddedOnly("jdbc:cairn:file: databases: directories, locks and reopening in this JVM")
class TestFileDatabases {
  @TempDir Path directory;

  private String url() {
    return "jdbc:cairn:file:" + directory;
  }

  @Test
  void connectionsShareTheDatabaseAndTheLastOneClosesIt() throws SQLException {
    try (Connection a = DriverManager.getConnection(url());
        Connection b = DriverManager.getConnection(url() + "/.")) {
      TestingDatabase.execute(a, "CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10))");
      TestingDatabase.execute(b, "UPSERT INTO T VALUES (1, 'one')");
      assertThat(TestingDatabase.rows(a, "SELECT ID, V FROM T")).containsExactly("1,one");
    }
    // Closed with the last connection: its data is on disk, its lock released.
    try (Connection c = DriverManager.getConnection(url())) {
      assertThat(TestingDatabase.rows(c, "SELECT ID, V FROM T")).containsExactly("1,one");
      TestingDatabase.execute(c, "UPSERT INTO T VALUES (2, 'two')");
    }
    try (Connection c = DriverManager.getConnection(url())) {
      assertThat(TestingDatabase.rows(c, "SELECT ID FROM T ORDER BY ID")).containsExactly("1", "2");
    }
  }

  @Test
  void storageStatementsKeepTheData() throws SQLException {
    try (Connection c = DriverManager.getConnection(url() + ";durability=FSYNC")) {
      TestingDatabase.execute(
          c,
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10)) COMPRESSION=LZ4"
              + " SPLIT ON (100, 200)",
          "UPSERT INTO T VALUES (1, 'a'), (150, 'b'), (250, 'c')",
          "FLUSH TABLE T",
          "UPSERT INTO T VALUES (150, 'B')",
          "DELETE FROM T WHERE ID = 1",
          "FLUSH TABLE T",
          "ALTER TABLE T SET COMPRESSION='ZSTD', DATA_BLOCK_ENCODING='FAST_DIFF'",
          "COMPACT TABLE T",
          "MAJOR_COMPACT TABLE T");
      assertThat(TestingDatabase.rows(c, "SELECT ID, V FROM T ORDER BY ID"))
          .containsExactly("150,B", "250,c");
    }
    try (Connection c = DriverManager.getConnection(url())) {
      assertThat(TestingDatabase.rows(c, "SELECT ID, V FROM T ORDER BY ID"))
          .containsExactly("150,B", "250,c");
    }
  }

  @Test
  void splitTableSplitsEveryRegionThatHoldsData() throws Exception {
    try (Connection c = DriverManager.getConnection(url())) {
      TestingDatabase.execute(
          c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10)) SPLIT ON (1000)");
      try (java.sql.PreparedStatement p = c.prepareStatement("UPSERT INTO T VALUES (?, 'v')")) {
        for (int i = 0; i < 2000; i++) {
          p.setInt(1, i);
          p.addBatch();
        }
        p.executeBatch();
      }
      TestingDatabase.execute(c, "SPLIT TABLE T");
      assertThat(TestingDatabase.rows(c, "SELECT COUNT(*), MIN(ID), MAX(ID) FROM T"))
          .containsExactly("2000,0,1999");
    }
    try (io.cairn.kv.KvStore store =
        io.cairn.store.Stores.open(directory.toAbsolutePath(), java.util.Map.of())) {
      String kvName =
          io.cairn.core.catalog.Catalog.open(store)
              .table("PUBLIC", "T")
              .orElseThrow()
              .kvTableName();
      // both regions held data: four now, in key order, each with its rows in files
      java.util.List<io.cairn.kv.RegionInfo> regions = store.table(kvName).orElseThrow().regions();
      assertThat(regions).hasSize(4);
      assertThat(regions).allSatisfy(r -> assertThat(r.fileBytes()).isPositive());
    }
    try (Connection c = DriverManager.getConnection(url())) {
      assertThat(TestingDatabase.rows(c, "SELECT COUNT(*) FROM T WHERE ID >= 500 AND ID < 1500"))
          .containsExactly("1000");
    }
  }

  @Test
  void theLockIsReleasedWhenTheLastConnectionCloses() throws Exception {
    try (Connection c = DriverManager.getConnection(url())) {
      TestingDatabase.execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY)");
    }
    // Nothing of this JVM holds the store now: it can be opened directly, as another process would.
    try (io.cairn.kv.KvStore store =
        io.cairn.store.Stores.open(directory.toAbsolutePath(), java.util.Map.of())) {
      assertThat(store.table(io.cairn.core.catalog.Catalog.CATALOG_TABLE)).isPresent();
    }
  }

  @Test
  void relativeDirectoriesAreResolvedFromTheWorkingDirectory() throws Exception {
    Path workingDirectory = Paths.get("").toAbsolutePath();
    Path target = Files.createTempDirectory(workingDirectory.resolve("target"), "file-url-");
    Path relative = workingDirectory.relativize(target);
    try (Connection c = DriverManager.getConnection("jdbc:cairn:file:" + relative)) {
      TestingDatabase.execute(
          c, "CREATE TABLE T (ID INTEGER PRIMARY KEY)", "UPSERT INTO T VALUES (7)");
    }
    try (Connection c =
        DriverManager.getConnection("jdbc:cairn:file:" + target, new Properties())) {
      assertThat(TestingDatabase.rows(c, "SELECT ID FROM T")).containsExactly("7");
    }
    try (var files = Files.list(target)) {
      assertThat(files.count()).isPositive();
    }
  }
}
