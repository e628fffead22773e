package io.cairn.jdbc.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.jdbc.TestingDatabase;
import io.cairn.jdbc.internal.CairnConnection;
import io.cairn.jdbc.internal.session.DatabaseSession;
import io.cairn.kv.Durability;
import io.cairn.kv.TableSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the SQL statements of the durable store ask of the KV SPI, seen through a recording store.
 */
class TestEmbeddedStorageCalls {
  private final TestingRecordingStore store = new TestingRecordingStore("recording");
  private final String key = "test:" + UUID.randomUUID();

  private Connection connect(Durability durability) {
    EmbeddedDatabase database = EmbeddedDatabase.acquire(key, () -> store, false);
    return new CairnConnection(
        new DatabaseSession(database, durability), "jdbc:cairn:test", new Properties());
  }

  private TableDescriptor table(String name) {
    EmbeddedDatabase database = EmbeddedDatabase.acquire(key, () -> store, false);
    try {
      return database.catalog().table(Catalog.DEFAULT_SCHEMA, name).orElseThrow();
    } finally {
      database.release();
    }
  }

  @Test
  void splitPointsReachTheStoreAsKeyPrefixes() throws SQLException {
    try (Connection c = connect(null)) {
      TestingDatabase.execute(
          c,
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR) COMPRESSION=ZSTD, TTL=60"
              + " SPLIT ON (10, 10 * 2, '30')",
          "CREATE TABLE D (K VARCHAR(5), N INTEGER, CONSTRAINT PK PRIMARY KEY (K DESC, N))"
              + " SPLIT ON ('m', 'f')",
          "CREATE TABLE P (ID INTEGER PRIMARY KEY)");
      TableDescriptor t = table("T");
      RowCodec codec = new RowCodec(t.layout());
      assertThat(store.specs.get(t.kvTableName()))
          .isEqualTo(
              new TableSpec(
                  Map.of("COMPRESSION", "ZSTD", "TTL", "60"),
                  List.of(
                      codec.encodeKeyPrefix(List.of(10)),
                      codec.encodeKeyPrefix(List.of(20)),
                      codec.encodeKeyPrefix(List.of(30)))));
      TableDescriptor d = table("D");
      RowCodec descending = new RowCodec(d.layout());
      List<Bytes> points = store.specs.get(d.kvTableName()).splitPoints();
      assertThat(points)
          .containsExactly(
              descending.encodeKeyPrefix(List.of("m")), descending.encodeKeyPrefix(List.of("f")));
      // A DESC key inverts the bytes: 'm' sorts before 'f'.
      assertThat(points.get(0).compareTo(points.get(1))).isNegative();
      assertThat(store.specs.get(table("P").kvTableName())).isEqualTo(TableSpec.DEFAULT);
    }
  }

  @Test
  void alterFlushAndCompactReachTheTable() throws SQLException {
    try (Connection c = connect(null)) {
      TestingDatabase.execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY) TTL=60, COMPRESSION=LZ4");
      String kv = table("T").kvTableName();
      long version = catalogVersion();
      TestingDatabase.execute(
          c,
          "ALTER TABLE T SET COMPRESSION='zstd', DATA_BLOCK_ENCODING=FAST_DIFF",
          "FLUSH TABLE T",
          "COMPACT TABLE T",
          "MAJOR_COMPACT TABLE T");
      assertThat(store.callsOn(kv))
          .containsExactly(
              "defineIndexes []", // CREATE TABLE: the layout, for the column statistics
              "alter {COMPRESSION=ZSTD, DATA_BLOCK_ENCODING=FAST_DIFF}",
              "flush",
              "compact minor",
              "compact major");
      assertThat(table("T").options())
          .isEqualTo(
              Map.of("COMPRESSION", "ZSTD", "DATA_BLOCK_ENCODING", "FAST_DIFF", "TTL", "60"));
      assertThat(catalogVersion()).isGreaterThan(version);
      // Recorded in the catalog table, not only in memory.
      assertThat(Catalog.open(store).table(Catalog.DEFAULT_SCHEMA, "T").orElseThrow().options())
          .containsEntry("COMPRESSION", "ZSTD");
    }
  }

  @Test
  void aBatchOfBlindUpsertsIsOneWriteOthersOneWritePerEntry() throws SQLException {
    try (Connection c = connect(null)) {
      TestingDatabase.execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(3))");
      String kv = table("T").kvTableName();
      int before = store.callsOn(kv).size();
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
        for (int id = 0; id < 100; id++) {
          ps.setInt(1, id);
          ps.setString(2, "v");
          ps.addBatch();
        }
        assertThat(ps.executeBatch()).hasSize(100).containsOnly(1);
      }
      assertThat(store.callsOn(kv).subList(before, store.callsOn(kv).size()))
          .containsExactly("mutate null");
      // INSERT checks each key: one write per entry, as a partial-column UPSERT (it reads)
      before = store.callsOn(kv).size();
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO T VALUES (?, ?)")) {
        for (int id = 100; id < 103; id++) {
          ps.setInt(1, id);
          ps.setString(2, "v");
          ps.addBatch();
        }
        assertThat(ps.executeBatch()).hasSize(3);
      }
      assertThat(store.callsOn(kv).subList(before, store.callsOn(kv).size())).hasSize(3);
    }
  }

  @Test
  void writesCarryTheConnectionsDurability() throws SQLException {
    try (Connection c = connect(null)) {
      TestingDatabase.execute(
          c, "CREATE TABLE T (ID INTEGER PRIMARY KEY)", "UPSERT INTO T VALUES (1)");
    }
    String kv = table("T").kvTableName();
    try (Connection c = connect(Durability.FSYNC)) {
      TestingDatabase.execute(c, "UPSERT INTO T VALUES (2)", "DELETE FROM T WHERE ID = 1");
      c.setAutoCommit(false);
      TestingDatabase.execute(c, "UPSERT INTO T VALUES (3)");
      c.commit();
    }
    try (Connection c = connect(Durability.SKIP)) {
      TestingDatabase.execute(c, "INSERT INTO T VALUES (4)");
    }
    assertThat(store.callsOn(kv))
        .containsExactly(
            "defineIndexes []", // CREATE TABLE: the layout, for the column statistics
            "mutate null",
            "mutate FSYNC",
            "mutate FSYNC",
            "mutate FSYNC",
            "mutate SKIP");
    // Catalog writes are at least SYNC whatever the connection asks, and flushed at once.
    try (Connection c = connect(Durability.SKIP)) {
      TestingDatabase.execute(c, "CREATE TABLE U (ID INTEGER PRIMARY KEY)", "DROP TABLE U");
    }
    assertThat(store.callsOn(Catalog.CATALOG_TABLE))
        .isNotEmpty()
        .allMatch(call -> call.equals("mutate SYNC") || call.equals("flush"))
        .contains("flush");
  }

  @Test
  void fileDatabasesCloseWithTheirLastConnectionAndReopen() throws SQLException {
    AtomicInteger opened = new AtomicInteger();
    String file = "file:/test/" + UUID.randomUUID();
    TestingRecordingStore[] stores = new TestingRecordingStore[2];
    EmbeddedDatabase first =
        EmbeddedDatabase.acquire(
            file, () -> stores[opened.getAndIncrement()] = new TestingRecordingStore("a"), true);
    EmbeddedDatabase second =
        EmbeddedDatabase.acquire(file, () -> stores[opened.getAndIncrement()], true);
    assertThat(second).isSameAs(first);
    assertThat(opened).hasValue(1);
    assertThat(first.connections()).isEqualTo(2);
    first.release();
    assertThat(first.isClosed()).isFalse();
    assertThat(stores[0].closes).isZero();
    second.release();
    assertThat(first.isClosed()).isTrue();
    assertThat(stores[0].closes).isEqualTo(1);

    EmbeddedDatabase reopened =
        EmbeddedDatabase.acquire(
            file, () -> stores[opened.getAndIncrement()] = new TestingRecordingStore("b"), true);
    assertThat(reopened).isNotSameAs(first);
    assertThat(opened).hasValue(2);
    try (Connection c =
        new CairnConnection(new DatabaseSession(reopened, null), "jdbc:cairn:x", null)) {
      TestingDatabase.execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY)");
    }
    assertThat(reopened.isClosed()).isTrue();
    assertThat(stores[1].closes).isEqualTo(1);
  }

  @Test
  void inMemoryDatabasesStayOpen() {
    String name = "mem:stays-" + UUID.randomUUID();
    EmbeddedDatabase database = EmbeddedDatabase.acquireInMemory(name);
    database.release();
    assertThat(database.isClosed()).isFalse();
    assertThat(EmbeddedDatabase.acquireInMemory(name)).isSameAs(database);
  }

  @Test
  void storeFailureOnOpenLeavesNothingRegistered() {
    String file = "file:/failing/" + UUID.randomUUID();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                EmbeddedDatabase.acquire(
                    file,
                    () -> {
                      throw new IllegalStateException("cannot open");
                    },
                    true))
        .hasMessage("cannot open");
    EmbeddedDatabase database =
        EmbeddedDatabase.acquire(file, () -> new TestingRecordingStore("ok"), true);
    assertThat(database.connections()).isEqualTo(1);
    database.release();
  }

  private long catalogVersion() {
    EmbeddedDatabase database = EmbeddedDatabase.acquire(key, () -> store, false);
    try {
      return database.catalog().version();
    } finally {
      database.release();
    }
  }
}
