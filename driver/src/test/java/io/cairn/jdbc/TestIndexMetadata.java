package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.IndexDescriptor.State;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.SortOrder;
import io.cairn.jdbc.internal.TestingCatalogs;
import io.cairn.kv.IndexCheck;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Local indexes as the catalog keeps them and the metadata lists them, embedded and against a
 * server (where the server's catalog builds them): created through the connection's catalog (as
 * CREATE INDEX does), listed by DatabaseMetaData.getIndexInfo and SYSTEM.INDEXES, verified,
 * dropped, and bad input refused with the table and its other indexes untouched.
 */
class TestIndexMetadata {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("index-metadata");
  private Catalog catalog;

  @BeforeEach
  void tables() throws SQLException {
    db.execute(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), PRICE DECIMAL(15,2))",
        "CREATE TABLE S2.U (ID INTEGER PRIMARY KEY, NAME VARCHAR(20))",
        "CREATE TABLE NOKEY (NAME VARCHAR(20))",
        "UPSERT INTO T VALUES (1, 'b', 2.50), (2, 'a', 1.00), (3, NULL, 7.25)");
    catalog = TestingCatalogs.catalog(db.connection());
  }

  private TableDescriptor table(String schema, String name) {
    return catalog.table(schema, name).orElseThrow();
  }

  /**
   * A draft over {@code schema.table}'s columns: each part a column name, "UPPER(c)", + " DESC".
   */
  private IndexDescriptor draft(String schema, String table, String name, String... parts) {
    TableDescriptor t = table(schema, table);
    List<IndexColumn> columns = new ArrayList<>();
    for (String part : parts) {
      boolean desc = part.endsWith(" DESC");
      String sql = desc ? part.substring(0, part.length() - 5) : part;
      boolean upper = sql.startsWith("UPPER(");
      String column = upper ? sql.substring(6, sql.length() - 1) : sql;
      int index = t.columnIndex(column).orElseThrow();
      Expr expr = new Expr.ColumnRef(index, t.columns().get(index).type());
      if (upper) {
        expr = new Expr.Call(Op.UPPER, List.of(expr), expr.type());
      }
      columns.add(new IndexColumn(expr, sql, desc ? SortOrder.DESC : SortOrder.ASC));
    }
    return new IndexDescriptor(0, name, columns, List.of(), State.BUILDING);
  }

  private IndexDescriptor including(IndexDescriptor draft, String table, String... columns) {
    TableDescriptor t = table("PUBLIC", table);
    List<Integer> include = new ArrayList<>();
    for (String c : columns) {
      include.add(t.columnIndex(c).orElseThrow());
    }
    return new IndexDescriptor(0, draft.name(), draft.columns(), include, draft.state());
  }

  private List<String> indexInfo(String schema, String table, boolean unique) throws SQLException {
    DatabaseMetaData metaData = db.connection().getMetaData();
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = metaData.getIndexInfo(null, schema, table, unique, true)) {
      assertThat(rs.getMetaData().getColumnCount()).isEqualTo(13);
      while (rs.next()) {
        assertThat(rs.getBoolean("NON_UNIQUE")).isTrue();
        assertThat(rs.getShort("TYPE")).isEqualTo(DatabaseMetaData.tableIndexOther);
        rows.add(
            rs.getString("TABLE_SCHEM")
                + "."
                + rs.getString("TABLE_NAME")
                + " "
                + rs.getString("INDEX_NAME")
                + " "
                + rs.getShort("ORDINAL_POSITION")
                + " "
                + rs.getString("COLUMN_NAME")
                + " "
                + rs.getString("ASC_OR_DESC"));
      }
    }
    return rows;
  }

  @Test
  void getIndexInfoAndSystemIndexesListTheIndexesWithTheirPartsAndState() throws SQLException {
    IndexDescriptor byName =
        catalog
            .createIndex(
                "PUBLIC", "T", draft("PUBLIC", "T", "BY_NAME", "NAME", "PRICE DESC"), false, null)
            .orElseThrow();
    IndexDescriptor byUpper =
        catalog
            .createIndex(
                "PUBLIC",
                "T",
                including(draft("PUBLIC", "T", "BY_UPPER", "UPPER(NAME) DESC"), "T", "PRICE"),
                false,
                null)
            .orElseThrow();
    assertThat(catalog.createIndex("S2", "U", draft("S2", "U", "U_NAME", "NAME"), false, null))
        .isPresent();
    assertThat(byName.state()).isEqualTo(State.ACTIVE);
    assertThat(table("PUBLIC", "T").indexes()).containsExactly(byName, byUpper);

    assertThat(indexInfo("PUBLIC", "T", false))
        .containsExactly(
            "PUBLIC.T BY_NAME 1 NAME A",
            "PUBLIC.T BY_NAME 2 PRICE D",
            "PUBLIC.T BY_UPPER 1 UPPER(NAME) D");
    assertThat(indexInfo("PUBLIC", "T", true)).as("no unique indexes").isEmpty();
    assertThat(indexInfo(null, null, false))
        .containsExactly(
            "PUBLIC.T BY_NAME 1 NAME A",
            "PUBLIC.T BY_NAME 2 PRICE D",
            "PUBLIC.T BY_UPPER 1 UPPER(NAME) D",
            "S2.U U_NAME 1 NAME A");
    assertThat(indexInfo("S2", "T", false)).isEmpty();

    assertThat(
            db.rows(
                "SELECT TABLE_SCHEM, TABLE_NAME, INDEX_NAME, INDEX_ID, STATE, INDEX_COLUMNS,"
                    + " INCLUDE_COLUMNS FROM SYSTEM.INDEXES"))
        .containsExactly(
            "PUBLIC,T,BY_NAME," + byName.indexId() + ",ACTIVE,NAME, PRICE DESC,null",
            "PUBLIC,T,BY_UPPER," + byUpper.indexId() + ",ACTIVE,UPPER(NAME) DESC,PRICE",
            "S2,U,U_NAME,"
                + table("S2", "U").index("U_NAME").orElseThrow().indexId()
                + ",ACTIVE,NAME,null");
    assertThat(db.rows("SELECT COUNT(*) FROM SYSTEM.INDEXES WHERE TABLE_NAME = 'T'"))
        .containsExactly("2");
  }

  @Test
  void aBuiltIndexAgreesWithItsTableAndDroppingItListsItNoMore() throws SQLException {
    IndexDescriptor byName =
        catalog
            .createIndex("PUBLIC", "T", draft("PUBLIC", "T", "BY_NAME", "NAME"), false, null)
            .orElseThrow();
    db.execute("UPSERT INTO T VALUES (4, 'd', 0.50)", "DELETE FROM T WHERE ID = 1");
    IndexCheck check = catalog.verifyIndex("PUBLIC", "T", "BY_NAME");
    assertThat(check.consistent()).as("%s", check).isTrue();
    assertThat(check.rows()).isEqualTo(3);
    assertThat(check.entries()).isEqualTo(3);

    assertThat(catalog.dropIndex("PUBLIC", "BY_NAME", "T", false)).isTrue();
    assertThat(indexInfo("PUBLIC", "T", false)).isEmpty();
    assertThat(db.rows("SELECT COUNT(*) FROM SYSTEM.INDEXES")).containsExactly("0");
    assertThat(catalog.dropIndex("PUBLIC", "BY_NAME", null, true)).isFalse();
    // the name is free again, under a new id
    IndexDescriptor again =
        catalog
            .createIndex("PUBLIC", "T", draft("PUBLIC", "T", "BY_NAME", "PRICE"), false, null)
            .orElseThrow();
    assertThat(again.indexId()).isNotEqualTo(byName.indexId());
    IndexDescriptor rebuilt = catalog.rebuildIndex("PUBLIC", "T", "BY_NAME", null);
    assertThat(rebuilt.indexId()).isNotEqualTo(again.indexId());
    assertThat(rebuilt.state()).isEqualTo(State.ACTIVE);
    assertThat(catalog.verifyIndex("PUBLIC", "T", "BY_NAME").consistent()).isTrue();
  }

  @Test
  void badInputIsRefusedAndLeavesTheTableAndItsIndexesUntouched() throws SQLException {
    assertThat(catalog.createIndex("PUBLIC", "T", draft("PUBLIC", "T", "I", "NAME"), false, null))
        .isPresent();
    TableDescriptor before = table("PUBLIC", "T");

    assertFails(
        () -> catalog.createIndex("PUBLIC", "T", draft("PUBLIC", "T", "I", "PRICE"), false, null),
        ErrorCode.INDEX_ALREADY_EXISTS,
        "Index [PUBLIC.I] already exists");
    assertThat(catalog.createIndex("PUBLIC", "T", draft("PUBLIC", "T", "I", "PRICE"), true, null))
        .isEmpty();
    assertFails(
        () ->
            catalog.createIndex(
                "PUBLIC", "NOKEY", draft("PUBLIC", "NOKEY", "J", "NAME"), false, null),
        ErrorCode.NOT_SUPPORTED,
        "has no primary key");
    assertFails(
        () ->
            catalog.createIndex("SYSTEM", "STATS", draft("PUBLIC", "T", "J", "NAME"), false, null),
        ErrorCode.NOT_SUPPORTED,
        "read-only system view");
    assertFails(
        () ->
            catalog.createIndex(
                "PUBLIC", "MISSING", draft("PUBLIC", "T", "J", "NAME"), false, null),
        ErrorCode.TABLE_NOT_FOUND,
        "Table [PUBLIC.MISSING] does not exist");
    assertFails(
        () -> catalog.dropIndex("PUBLIC", "MISSING", null, false),
        ErrorCode.INDEX_NOT_FOUND,
        "Index [PUBLIC.MISSING] does not exist");
    assertFails(
        () -> catalog.rebuildIndex("PUBLIC", "T", "MISSING", null),
        ErrorCode.INDEX_NOT_FOUND,
        "Index [PUBLIC.MISSING] of table [PUBLIC.T] does not exist");

    assertThat(table("PUBLIC", "T")).isEqualTo(before);
    assertThat(db.rows("SELECT ID FROM T ORDER BY ID")).containsExactly("1", "2", "3");
    assertThat(indexInfo("PUBLIC", null, false)).containsExactly("PUBLIC.T I 1 NAME A");
  }

  private static void assertFails(ThrowingCallable call, ErrorCode code, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
        .hasMessageContaining(message);
  }
}
