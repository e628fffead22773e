package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** DatabaseMetaData against real tables of the embedded engine. */
class TestEmbeddedDatabaseMetaData {
  private Connection connection;
  private DatabaseMetaData metaData;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("metadata-" + UUID.randomUUID()));
    metaData = connection.getMetaData();
    try (Statement s = connection.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE ALLTYPES (K1 VARCHAR(8) NOT NULL, K2 BIGINT NOT NULL, K3 DATE NOT NULL,"
              + " BO BOOLEAN, TI TINYINT, SI SMALLINT, I INTEGER NOT NULL, F FLOAT, D DOUBLE,"
              + " DE DECIMAL(12,3), CH CHAR(4), VC VARCHAR(20), VU VARCHAR, TM TIME,"
              + " TS TIMESTAMP, VB VARBINARY(16),"
              + " CONSTRAINT PK PRIMARY KEY (K2 DESC, K1, K3 DESC))");
      s.executeUpdate("CREATE TABLE S1.T (ID INTEGER PRIMARY KEY)");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void tables() throws SQLException {
    List<String> names = new ArrayList<>();
    try (ResultSet rs = metaData.getTables(null, null, "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
        assertThat(rs.getString("TABLE_TYPE")).isEqualTo("TABLE");
      }
    }
    assertThat(names).contains("PUBLIC.ALLTYPES", "S1.T");
    try (ResultSet rs = metaData.getTables(null, "S1", "T", null)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("S1");
      assertThat(rs.getString("TABLE_NAME")).isEqualTo("T");
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = metaData.getTables(null, "PUBLIC", "ALL%", null)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("TABLE_NAME")).isEqualTo("ALLTYPES");
      assertThat(rs.next()).isFalse();
    }
    try (ResultSet rs = metaData.getTables(null, null, "NO_SUCH", null)) {
      assertThat(rs.next()).isFalse();
    }
  }

  private record Column(
      String name, int type, String typeName, int size, int digits, int nullable, int position) {}

  @Test
  void columns() throws SQLException {
    List<Column> columns = new ArrayList<>();
    try (ResultSet rs = metaData.getColumns(null, "PUBLIC", "ALLTYPES", "%")) {
      while (rs.next()) {
        assertThat(rs.getString("TABLE_NAME")).isEqualTo("ALLTYPES");
        int digits = rs.getInt("DECIMAL_DIGITS");
        columns.add(
            new Column(
                rs.getString("COLUMN_NAME"),
                rs.getInt("DATA_TYPE"),
                rs.getString("TYPE_NAME"),
                rs.getInt("COLUMN_SIZE"),
                digits,
                rs.getInt("NULLABLE"),
                rs.getInt("ORDINAL_POSITION")));
        assertThat(rs.getString("IS_NULLABLE"))
            .isEqualTo(rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls ? "NO" : "YES");
      }
    }
    int no = DatabaseMetaData.columnNoNulls;
    int yes = DatabaseMetaData.columnNullable;
    assertThat(columns)
        .containsExactly(
            new Column("K1", Types.VARCHAR, "VARCHAR", 8, 0, no, 1),
            new Column("K2", Types.BIGINT, "BIGINT", 19, 0, no, 2),
            new Column("K3", Types.DATE, "DATE", 10, 0, no, 3),
            new Column("BO", Types.BOOLEAN, "BOOLEAN", 1, 0, yes, 4),
            new Column("TI", Types.TINYINT, "TINYINT", 3, 0, yes, 5),
            new Column("SI", Types.SMALLINT, "SMALLINT", 5, 0, yes, 6),
            new Column("I", Types.INTEGER, "INTEGER", 10, 0, no, 7),
            new Column("F", Types.REAL, "FLOAT", 7, 0, yes, 8),
            new Column("D", Types.DOUBLE, "DOUBLE", 15, 0, yes, 9),
            new Column("DE", Types.DECIMAL, "DECIMAL", 12, 3, yes, 10),
            new Column("CH", Types.CHAR, "CHAR", 4, 0, yes, 11),
            new Column("VC", Types.VARCHAR, "VARCHAR", 20, 0, yes, 12),
            new Column("VU", Types.VARCHAR, "VARCHAR", Integer.MAX_VALUE, 0, yes, 13),
            new Column("TM", Types.TIME, "TIME", 18, 9, yes, 14),
            new Column("TS", Types.TIMESTAMP, "TIMESTAMP", 29, 9, yes, 15),
            new Column("VB", Types.VARBINARY, "VARBINARY", 16, 0, yes, 16));

    try (ResultSet rs = metaData.getColumns(null, null, "ALLTYPES", "K_")) {
      List<String> keyColumns = new ArrayList<>();
      while (rs.next()) {
        keyColumns.add(rs.getString("COLUMN_NAME"));
      }
      assertThat(keyColumns).containsExactly("K1", "K2", "K3");
    }
  }

  @Test
  void primaryKeysInKeyOrder() throws SQLException {
    List<String> keys = new ArrayList<>();
    try (ResultSet rs = metaData.getPrimaryKeys(null, "PUBLIC", "ALLTYPES")) {
      while (rs.next()) {
        assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("PUBLIC");
        assertThat(rs.getString("TABLE_NAME")).isEqualTo("ALLTYPES");
        keys.add(rs.getShort("KEY_SEQ") + ":" + rs.getString("COLUMN_NAME"));
      }
    }
    // JDBC orders by COLUMN_NAME; KEY_SEQ gives the key order (K2 DESC, K1, K3 DESC).
    assertThat(keys).containsExactly("2:K1", "1:K2", "3:K3");
    try (ResultSet rs = metaData.getPrimaryKeys(null, "S1", "T")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("COLUMN_NAME")).isEqualTo("ID");
      assertThat(rs.getShort("KEY_SEQ")).isEqualTo((short) 1);
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void schemas() throws SQLException {
    List<String> schemas = new ArrayList<>();
    try (ResultSet rs = metaData.getSchemas()) {
      while (rs.next()) {
        schemas.add(rs.getString("TABLE_SCHEM"));
      }
    }
    assertThat(schemas).contains("PUBLIC", "S1").doesNotHaveDuplicates();
    try (ResultSet rs = metaData.getSchemas(null, "S%")) {
      List<String> matching = new ArrayList<>();
      while (rs.next()) {
        matching.add(rs.getString("TABLE_SCHEM"));
      }
      assertThat(matching).contains("S1").doesNotContain("PUBLIC");
    }
  }

  @Test
  void descendingKeyReadsInKeyOrder() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.executeUpdate(
          "UPSERT INTO ALLTYPES (K1, K2, K3, I) VALUES ('a', 1, DATE '2000-01-01', 1),"
              + " ('a', 2, DATE '2000-01-01', 2), ('b', 2, DATE '1999-01-01', 3),"
              + " ('b', 2, DATE '2001-01-01', 4)");
      List<Integer> order = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT I FROM ALLTYPES ORDER BY K2 DESC, K1, K3 DESC")) {
        while (rs.next()) {
          order.add(rs.getInt(1));
        }
      }
      assertThat(order).containsExactly(2, 4, 3, 1);
    }
  }
}
