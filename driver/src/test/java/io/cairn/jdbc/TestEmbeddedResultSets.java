package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Result set life cycle, maxRows and result set metadata on real queries. */
class TestEmbeddedResultSets {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("resultsets-" + UUID.randomUUID()));
    try (Statement s = connection.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(20) NOT NULL, QTY BIGINT,"
              + " PRICE DECIMAL(8,2))");
    }
    try (PreparedStatement ps = connection.prepareStatement("UPSERT INTO T VALUES (?, ?, ?, ?)")) {
      for (int i = 1; i <= 100; i++) {
        ps.setInt(1, i);
        ps.setString(2, "n" + i);
        ps.setLong(3, i);
        ps.setBigDecimal(4, java.math.BigDecimal.valueOf(i, 1));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  @Test
  void closingTheStatementClosesItsResultSet() throws SQLException {
    Statement s = connection.createStatement();
    ResultSet rs = s.executeQuery("SELECT ID FROM T ORDER BY ID");
    assertThat(rs.next()).isTrue();
    assertThat(rs.getStatement()).isSameAs(s);
    s.close();
    assertThat(rs.isClosed()).isTrue();
    SQLException e = catchThrowableOfType(rs::next, SQLException.class);
    assertThat(e.getSQLState()).isNotNull();
    assertThat((Throwable) catchThrowableOfType(() -> rs.getInt(1), SQLException.class))
        .isNotNull();
  }

  @Test
  void readingAfterCloseFails() throws SQLException {
    try (Statement s = connection.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT ID, NAME FROM T");
      assertThat(rs.next()).isTrue();
      rs.close();
      assertThat(rs.isClosed()).isTrue();
      assertThat((Throwable) catchThrowableOfType(rs::next, SQLException.class)).isNotNull();
      assertThat((Throwable) catchThrowableOfType(() -> rs.getString(2), SQLException.class))
          .isNotNull();
      assertThat((Throwable) catchThrowableOfType(rs::getMetaData, SQLException.class)).isNotNull();
      rs.close(); // closing twice is a no-op
      // The statement is still open and usable.
      assertThat(s.isClosed()).isFalse();
      try (ResultSet again = s.executeQuery("SELECT COUNT(*) FROM T")) {
        assertThat(again.next()).isTrue();
        assertThat(again.getInt(1)).isEqualTo(100);
      }
    }
  }

  @Test
  void aNewExecutionClosesThePreviousResultSet() throws SQLException {
    try (Statement s = connection.createStatement()) {
      ResultSet first = s.executeQuery("SELECT ID FROM T");
      ResultSet second = s.executeQuery("SELECT NAME FROM T");
      assertThat(first.isClosed()).isTrue();
      assertThat(second.next()).isTrue();
    }
  }

  @Test
  void maxRowsLimitsTheResult() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.setMaxRows(5);
      assertThat(s.getMaxRows()).isEqualTo(5);
      int rows = 0;
      try (ResultSet rs = s.executeQuery("SELECT ID FROM T ORDER BY ID DESC")) {
        while (rs.next()) {
          rows++;
          assertThat(rs.getInt(1)).isEqualTo(101 - rows);
        }
      }
      assertThat(rows).isEqualTo(5);
      // A smaller LIMIT in the query wins.
      rows = 0;
      try (ResultSet rs = s.executeQuery("SELECT ID FROM T LIMIT 3")) {
        while (rs.next()) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(3);
      s.setMaxRows(0);
      rows = 0;
      try (ResultSet rs = s.executeQuery("SELECT ID FROM T")) {
        while (rs.next()) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(100);
    }
    try (PreparedStatement ps = connection.prepareStatement("SELECT ID FROM T WHERE ID > ?")) {
      ps.setMaxRows(5);
      ps.setInt(1, 10);
      int rows = 0;
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(5);
    }
  }

  @Test
  void metadataOfColumnsAliasesAndExpressions() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT ID, NAME AS LABEL, QTY * 2, PRICE + 1 AS P1, UPPER(NAME) AS U,"
                    + " CAST(NULL AS INTEGER) AS N FROM T WHERE ID = 1")) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(6);

      assertThat(md.getColumnLabel(1)).isEqualTo("ID");
      assertThat(md.getColumnName(1)).isEqualTo("ID");
      assertThat(md.getColumnType(1)).isEqualTo(Types.INTEGER);
      assertThat(md.getColumnTypeName(1)).isEqualTo("INTEGER");
      assertThat(md.isNullable(1)).isEqualTo(ResultSetMetaData.columnNoNulls);
      assertThat(md.getTableName(1)).isEqualTo("T");
      assertThat(md.getSchemaName(1)).isEqualTo("PUBLIC");
      assertThat(md.getColumnClassName(1)).isEqualTo(Integer.class.getName());

      assertThat(md.getColumnLabel(2)).isEqualTo("LABEL");
      assertThat(md.getColumnName(2)).isEqualTo("NAME");
      assertThat(md.getColumnType(2)).isEqualTo(Types.VARCHAR);
      assertThat(md.getPrecision(2)).isEqualTo(20);
      assertThat(md.isNullable(2)).isEqualTo(ResultSetMetaData.columnNoNulls);
      assertThat(md.getTableName(2)).isEqualTo("T");

      assertThat(md.getColumnLabel(3)).isNotEmpty();
      assertThat(md.getColumnType(3)).isEqualTo(Types.BIGINT);
      assertThat(md.isNullable(3)).isEqualTo(ResultSetMetaData.columnNullable);
      assertThat(md.getTableName(3)).isEmpty();

      assertThat(md.getColumnLabel(4)).isEqualTo("P1");
      assertThat(md.getColumnType(4)).isEqualTo(Types.DECIMAL);
      assertThat(md.getScale(4)).isEqualTo(2);
      assertThat(md.isNullable(4)).isEqualTo(ResultSetMetaData.columnNullable);

      assertThat(md.getColumnLabel(5)).isEqualTo("U");
      assertThat(md.getColumnType(5)).isEqualTo(Types.VARCHAR);
      assertThat(md.isNullable(5)).isEqualTo(ResultSetMetaData.columnNoNulls);

      assertThat(md.getColumnLabel(6)).isEqualTo("N");
      assertThat(md.getColumnType(6)).isEqualTo(Types.INTEGER);
      assertThat(md.isNullable(6)).isEqualTo(ResultSetMetaData.columnNullable);

      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt("ID")).isEqualTo(1);
      assertThat(rs.getString("LABEL")).isEqualTo("n1");
      assertThat(rs.getLong(3)).isEqualTo(2);
      assertThat(rs.getBigDecimal("P1")).isEqualByComparingTo("1.1");
      assertThat(rs.getString("u")).isEqualTo("N1");
      assertThat(rs.getObject("N")).isNull();
      assertThat(rs.findColumn("label")).isEqualTo(2);
    }
  }

  @Test
  void metadataOfAPreparedQueryBeforeExecution() throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT NAME, SUM(QTY) AS TOTAL FROM T WHERE ID < ? GROUP BY NAME")) {
      ResultSetMetaData md = ps.getMetaData();
      assertThat(md.getColumnCount()).isEqualTo(2);
      assertThat(md.getColumnLabel(1)).isEqualTo("NAME");
      assertThat(md.getTableName(1)).isEqualTo("T");
      assertThat(md.getColumnLabel(2)).isEqualTo("TOTAL");
      assertThat(md.getColumnType(2)).isEqualTo(Types.BIGINT);
      assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(1);
      assertThat(ps.getParameterMetaData().getParameterType(1)).isEqualTo(Types.INTEGER);
    }
  }
}
