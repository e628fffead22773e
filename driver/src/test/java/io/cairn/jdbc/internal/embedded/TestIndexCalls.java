package io.cairn.jdbc.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.IndexDescriptor.State;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.SortOrder;
import io.cairn.jdbc.TestingDatabase;
import io.cairn.jdbc.internal.CairnConnection;
import io.cairn.jdbc.internal.session.DatabaseSession;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an embedded database's catalog asks of the store for local indexes, seen through a recording
 * store (which keeps no entries), and how DatabaseMetaData.getIndexInfo and SYSTEM.INDEXES list the
 * indexes recorded.
 */
class TestIndexCalls {
  private final TestingRecordingStore store = new TestingRecordingStore("index-calls");
  private final String key = "test:" + UUID.randomUUID();
  private EmbeddedDatabase database;
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    database = EmbeddedDatabase.acquire(key, () -> store, false);
    store.useSqlNames(database.catalog()::tables); // as EmbeddedDatabase does with its own store
    connection =
        new CairnConnection(
            new DatabaseSession(database, null), "jdbc:cairn:test", new Properties());
    TestingDatabase.execute(
        connection,
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), PRICE DECIMAL(15,2))");
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private TableDescriptor table() {
    return database.catalog().table(Catalog.DEFAULT_SCHEMA, "T").orElseThrow();
  }

  private IndexDescriptor draft(String name, boolean upper, SortOrder order, int... include) {
    TableDescriptor t = table();
    Expr name_ = new Expr.ColumnRef(1, t.columns().get(1).type());
    Expr part = upper ? new Expr.Call(Op.UPPER, List.of(name_), name_.type()) : name_;
    List<Integer> included = new ArrayList<>();
    for (int c : include) {
      included.add(c);
    }
    return new IndexDescriptor(
        0,
        name,
        List.of(new IndexColumn(part, upper ? "UPPER(NAME)" : "NAME", order)),
        included,
        State.BUILDING);
  }

  @Test
  void createDefinesTheIndexBuildingBuildsItAndDefinesItReadable() {
    Catalog catalog = database.catalog();
    IndexDescriptor i =
        catalog
            .createIndex("PUBLIC", "T", draft("I", false, SortOrder.ASC), false, null)
            .orElseThrow();
    IndexDescriptor j =
        catalog
            .createIndex("PUBLIC", "T", draft("J", true, SortOrder.DESC, 2), false, null)
            .orElseThrow();
    int a = i.indexId();
    int b = j.indexId();
    assertThat(store.callsOn(table().kvTableName()))
        .filteredOn(c -> c.contains("Index"))
        .containsExactly(
            "defineIndexes []", // CREATE TABLE: the layout, for the column statistics
            "defineIndexes [" + a + " building]",
            "buildIndex " + a,
            "defineIndexes [" + a + " readable]",
            "defineIndexes [" + a + " readable, " + b + " building]",
            "buildIndex " + b,
            "defineIndexes [" + a + " readable, " + b + " readable]");

    store.calls.clear();
    assertThat(catalog.dropIndex("PUBLIC", "I", "T", false)).isTrue();
    assertThat(catalog.verifyIndex("PUBLIC", "T", "J").consistent()).isTrue();
    assertThat(store.callsOn(table().kvTableName()))
        .filteredOn(c -> c.contains("Index"))
        .containsExactly("defineIndexes [" + b + " readable]", "verifyIndex " + b);
  }

  @Test
  void metadataAndSystemIndexesListTheRecordedIndexes() throws SQLException {
    Catalog catalog = database.catalog();
    IndexDescriptor i =
        catalog
            .createIndex("PUBLIC", "T", draft("I", false, SortOrder.ASC), false, null)
            .orElseThrow();
    IndexDescriptor j =
        catalog
            .createIndex("PUBLIC", "T", draft("J", true, SortOrder.DESC, 2), false, null)
            .orElseThrow();

    List<String> info = new ArrayList<>();
    try (ResultSet rs = connection.getMetaData().getIndexInfo(null, "PUBLIC", "T", false, true)) {
      while (rs.next()) {
        info.add(
            rs.getString("INDEX_NAME")
                + " "
                + rs.getShort("ORDINAL_POSITION")
                + " "
                + rs.getString("COLUMN_NAME")
                + " "
                + rs.getString("ASC_OR_DESC")
                + " "
                + rs.getBoolean("NON_UNIQUE")
                + " "
                + rs.getShort("TYPE"));
      }
    }
    assertThat(info).containsExactly("I 1 NAME A true 3", "J 1 UPPER(NAME) D true 3");
    try (ResultSet rs = connection.getMetaData().getIndexInfo(null, "PUBLIC", "T", true, true)) {
      assertThat(rs.next()).as("no unique indexes").isFalse();
    }
    assertThat(TestingDatabase.rows(connection, "SELECT * FROM SYSTEM.INDEXES"))
        .containsExactly(
            "PUBLIC,T,I," + i.indexId() + ",ACTIVE,NAME,null",
            "PUBLIC,T,J," + j.indexId() + ",ACTIVE,UPPER(NAME) DESC,PRICE");
  }
}
