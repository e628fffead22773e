package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestCairnDatabaseMetaData {
  TestingSession session;
  Connection connection;
  DatabaseMetaData md;

  static TableDescriptor table(
      long id, String schema, String name, List<ColumnDescriptor> columns, int... keyColumns) {
    List<KeyColumn> key = new ArrayList<>();
    for (int k : keyColumns) {
      key.add(new KeyColumn(k, SortOrder.ASC));
    }
    return new TableDescriptor(id, schema, name, columns, key, Map.of(), 1);
  }

  @BeforeEach
  void setUp() throws SQLException {
    session = new TestingSession();
    session.table(
        table(
            1,
            "PUBLIC",
            "ORDERS",
            List.of(
                new ColumnDescriptor("O_ORDERKEY", 1, DataType.BIGINT.withNullable(false)),
                new ColumnDescriptor("O_TOTAL", 2, DataType.decimal(15, 2)),
                new ColumnDescriptor("O_COMMENT", 3, DataType.varchar(79)),
                new ColumnDescriptor("O_DATE", 4, DataType.DATE)),
            0));
    session.table(
        table(
            2,
            "PUBLIC",
            "LINE_ITEM",
            List.of(
                new ColumnDescriptor("L_ORDERKEY", 1, DataType.BIGINT.withNullable(false)),
                new ColumnDescriptor("L_LINENUMBER", 2, DataType.INTEGER.withNullable(false)),
                new ColumnDescriptor("L_PRICE", 3, DataType.DOUBLE)),
            1,
            0));
    session.table(
        table(
            3,
            "SALES",
            "LINEXITEM",
            List.of(new ColumnDescriptor("X", 1, DataType.FLOAT)),
            new int[0]));
    connection = new CairnConnection(session, "jdbc:cairn:mem:test", new Properties());
    md = connection.getMetaData();
  }

  static List<String> columnNames(ResultSet rs) throws SQLException {
    ResultSetMetaData rsmd = rs.getMetaData();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= rsmd.getColumnCount(); i++) {
      names.add(rsmd.getColumnLabel(i));
    }
    return names;
  }

  static List<String> column(ResultSet rs, String label) throws SQLException {
    List<String> values = new ArrayList<>();
    while (rs.next()) {
      values.add(rs.getString(label));
    }
    rs.close();
    return values;
  }

  @Test
  void productAndDriver() throws SQLException {
    assertThat(md.getDatabaseProductName()).isEqualTo("Cairn");
    assertThat(md.getDriverName()).isEqualTo("Cairn JDBC Driver");
    assertThat(md.getDriverVersion()).isEqualTo("0.1.0");
    assertThat(md.getDriverMajorVersion()).isZero();
    assertThat(md.getDriverMinorVersion()).isEqualTo(1);
    assertThat(md.getJDBCMajorVersion()).isEqualTo(4);
    assertThat(md.getJDBCMinorVersion()).isEqualTo(2);
    assertThat(md.getURL()).isEqualTo("jdbc:cairn:mem:test");
    assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
    assertThat(md.storesUpperCaseIdentifiers()).isTrue();
    assertThat(md.storesLowerCaseIdentifiers()).isFalse();
    assertThat(md.supportsANSI92EntryLevelSQL()).isTrue();
    assertThat(md.supportsFullOuterJoins()).isTrue();
    assertThat(md.supportsUnion()).isTrue();
    assertThat(md.supportsBatchUpdates()).isTrue();
    assertThat(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED))
        .isTrue();
    assertThat(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE)).isFalse();
    assertThat(md.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE)).isFalse();
    assertThat(md.getDefaultTransactionIsolation())
        .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
    assertThat(md.getConnection()).isSameAs(connection);
    assertThat(md.getSearchStringEscape()).isEqualTo("\\");
  }

  @Test
  void sqllineSequence() throws SQLException {
    // What sqlline does on !tables and for completion.
    DatabaseMetaData meta = connection.getMetaData();
    ResultSet tables = meta.getTables(null, null, "%", null);
    assertThat(columnNames(tables))
        .containsExactly(
            "TABLE_CAT",
            "TABLE_SCHEM",
            "TABLE_NAME",
            "TABLE_TYPE",
            "REMARKS",
            "TYPE_CAT",
            "TYPE_SCHEM",
            "TYPE_NAME",
            "SELF_REFERENCING_COL_NAME",
            "REF_GENERATION");
    List<String> rows = new ArrayList<>();
    while (tables.next()) {
      assertThat(tables.getString("TABLE_CAT")).isNull();
      rows.add(
          tables.getString("TABLE_SCHEM")
              + "."
              + tables.getString("TABLE_NAME")
              + ":"
              + tables.getString("TABLE_TYPE"));
    }
    assertThat(rows)
        .containsExactly("PUBLIC.LINE_ITEM:TABLE", "PUBLIC.ORDERS:TABLE", "SALES.LINEXITEM:TABLE");
    assertThat(tables.getStatement()).isNull();
    assertThat(column(meta.getColumns(null, null, "%", "%"), "COLUMN_NAME")).hasSize(8);
    assertThat(column(meta.getSchemas(), "TABLE_SCHEM")).containsExactly("PUBLIC", "SALES");
    assertThat(column(meta.getCatalogs(), "TABLE_CAT")).isEmpty();
    assertThat(column(meta.getTableTypes(), "TABLE_TYPE")).containsExactly("SYSTEM TABLE", "TABLE");
    assertThat(meta.getSQLKeywords()).isNotNull();
    assertThat(meta.getNumericFunctions()).isNotNull();
  }

  @Test
  void tablePatternsAndFilters() throws SQLException {
    assertThat(column(md.getTables(null, "PUBLIC", null, null), "TABLE_NAME"))
        .containsExactly("LINE_ITEM", "ORDERS");
    assertThat(column(md.getTables(null, null, "LINE_ITEM", null), "TABLE_NAME"))
        .containsExactly("LINE_ITEM", "LINEXITEM");
    assertThat(column(md.getTables(null, null, "LINE\\_ITEM", null), "TABLE_NAME"))
        .containsExactly("LINE_ITEM");
    assertThat(column(md.getTables(null, "S%", "%ITEM", null), "TABLE_NAME"))
        .containsExactly("LINEXITEM");
    assertThat(column(md.getTables(null, null, "orders", null), "TABLE_NAME")).isEmpty();
    assertThat(column(md.getTables(null, null, "%", new String[] {"VIEW"}), "TABLE_NAME"))
        .isEmpty();
    assertThat(column(md.getTables(null, null, "%", new String[] {"TABLE"}), "TABLE_NAME"))
        .hasSize(3);
    assertThat(
            column(
                md.getTables(null, null, "%", new String[] {null, "VIEW", "table"}), "TABLE_NAME"))
        .hasSize(3);
    assertThat(column(md.getTables("CAT", null, "%", null), "TABLE_NAME")).isEmpty();
    assertThat(column(md.getTables("", null, "%", null), "TABLE_NAME")).hasSize(3);
    assertThat(CairnDatabaseMetaData.matches("a.c", "abc")).isFalse();
    assertThat(CairnDatabaseMetaData.matches("a%c", "a.c")).isTrue();
    assertThat(CairnDatabaseMetaData.matches("100\\%", "100%")).isTrue();
    assertThat(CairnDatabaseMetaData.matches("100\\%", "1000")).isFalse();
  }

  @Test
  void columns() throws SQLException {
    ResultSet rs = md.getColumns(null, "PUBLIC", "ORDERS", null);
    assertThat(columnNames(rs))
        .containsExactly(
            "TABLE_CAT",
            "TABLE_SCHEM",
            "TABLE_NAME",
            "COLUMN_NAME",
            "DATA_TYPE",
            "TYPE_NAME",
            "COLUMN_SIZE",
            "BUFFER_LENGTH",
            "DECIMAL_DIGITS",
            "NUM_PREC_RADIX",
            "NULLABLE",
            "REMARKS",
            "COLUMN_DEF",
            "SQL_DATA_TYPE",
            "SQL_DATETIME_SUB",
            "CHAR_OCTET_LENGTH",
            "ORDINAL_POSITION",
            "IS_NULLABLE",
            "SCOPE_CATALOG",
            "SCOPE_SCHEMA",
            "SCOPE_TABLE",
            "SOURCE_DATA_TYPE",
            "IS_AUTOINCREMENT",
            "IS_GENERATEDCOLUMN");
    assertThat(rs.next()).isTrue();
    assertThat(rs.getString("COLUMN_NAME")).isEqualTo("O_ORDERKEY");
    assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.BIGINT);
    assertThat(rs.getInt("NULLABLE")).isEqualTo(DatabaseMetaData.columnNoNulls);
    assertThat(rs.getString("IS_NULLABLE")).isEqualTo("NO");
    assertThat(rs.getInt("ORDINAL_POSITION")).isEqualTo(1);
    assertThat(rs.next()).isTrue();
    assertThat(rs.getString("TYPE_NAME")).isEqualTo("DECIMAL");
    assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.DECIMAL);
    assertThat(rs.getInt("COLUMN_SIZE")).isEqualTo(15);
    assertThat(rs.getInt("DECIMAL_DIGITS")).isEqualTo(2);
    assertThat(rs.getInt("NUM_PREC_RADIX")).isEqualTo(10);
    assertThat(rs.getString("IS_NULLABLE")).isEqualTo("YES");
    assertThat(rs.getShort("SOURCE_DATA_TYPE")).isZero();
    assertThat(rs.wasNull()).isTrue();
    assertThat(rs.next()).isTrue();
    assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.VARCHAR);
    assertThat(rs.getInt("COLUMN_SIZE")).isEqualTo(79);
    assertThat(rs.getObject("DECIMAL_DIGITS")).isNull();
    assertThat(rs.getInt("CHAR_OCTET_LENGTH")).isEqualTo(79 * 4);
    assertThat(rs.next()).isTrue();
    assertThat(rs.getInt("DATA_TYPE")).isEqualTo(Types.DATE);
    assertThat(rs.getInt("ORDINAL_POSITION")).isEqualTo(4);
    assertThat(rs.next()).isFalse();
    assertThat(column(md.getColumns(null, null, "LINEXITEM", "X"), "TYPE_NAME"))
        .containsExactly("FLOAT");
    ResultSet real = md.getColumns(null, null, "LINEXITEM", "X");
    real.next();
    assertThat(real.getInt("DATA_TYPE")).isEqualTo(Types.REAL);
  }

  @Test
  void primaryKeys() throws SQLException {
    ResultSet rs = md.getPrimaryKeys(null, "PUBLIC", "LINE_ITEM");
    assertThat(columnNames(rs))
        .containsExactly(
            "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
    assertThat(rs.next()).isTrue();
    assertThat(rs.getString("COLUMN_NAME")).isEqualTo("L_LINENUMBER");
    assertThat(rs.getInt("KEY_SEQ")).isEqualTo(1);
    assertThat(rs.getObject("KEY_SEQ")).isEqualTo(1);
    assertThat(rs.next()).isTrue();
    assertThat(rs.getString("COLUMN_NAME")).isEqualTo("L_ORDERKEY");
    assertThat(rs.getInt("KEY_SEQ")).isEqualTo(2);
    assertThat(rs.next()).isFalse();
    assertThat(column(md.getPrimaryKeys(null, null, "LINEXITEM"), "COLUMN_NAME")).isEmpty();
  }

  @Test
  void typeInfo() throws SQLException {
    ResultSet rs = md.getTypeInfo();
    assertThat(columnNames(rs))
        .containsExactly(
            "TYPE_NAME",
            "DATA_TYPE",
            "PRECISION",
            "LITERAL_PREFIX",
            "LITERAL_SUFFIX",
            "CREATE_PARAMS",
            "NULLABLE",
            "CASE_SENSITIVE",
            "SEARCHABLE",
            "UNSIGNED_ATTRIBUTE",
            "FIXED_PREC_SCALE",
            "AUTO_INCREMENT",
            "LOCAL_TYPE_NAME",
            "MINIMUM_SCALE",
            "MAXIMUM_SCALE",
            "SQL_DATA_TYPE",
            "SQL_DATETIME_SUB",
            "NUM_PREC_RADIX");
    List<Integer> dataTypes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (rs.next()) {
      dataTypes.add(rs.getInt("DATA_TYPE"));
      names.add(rs.getString("TYPE_NAME"));
    }
    assertThat(dataTypes).isSorted();
    assertThat(names).contains("VARCHAR", "DECIMAL", "TIMESTAMP", "BOOLEAN", "FLOAT", "DOUBLE");
  }

  @Test
  void emptyResultSetsHaveJdbcColumns() throws SQLException {
    assertThat(columnNames(md.getIndexInfo(null, null, "ORDERS", false, true)))
        .containsExactly(
            "TABLE_CAT",
            "TABLE_SCHEM",
            "TABLE_NAME",
            "NON_UNIQUE",
            "INDEX_QUALIFIER",
            "INDEX_NAME",
            "TYPE",
            "ORDINAL_POSITION",
            "COLUMN_NAME",
            "ASC_OR_DESC",
            "CARDINALITY",
            "PAGES",
            "FILTER_CONDITION");
    List<String> fk =
        List.of(
            "PKTABLE_CAT",
            "PKTABLE_SCHEM",
            "PKTABLE_NAME",
            "PKCOLUMN_NAME",
            "FKTABLE_CAT",
            "FKTABLE_SCHEM",
            "FKTABLE_NAME",
            "FKCOLUMN_NAME",
            "KEY_SEQ",
            "UPDATE_RULE",
            "DELETE_RULE",
            "FK_NAME",
            "PK_NAME",
            "DEFERRABILITY");
    assertThat(columnNames(md.getImportedKeys(null, null, "ORDERS"))).isEqualTo(fk);
    assertThat(columnNames(md.getExportedKeys(null, null, "ORDERS"))).isEqualTo(fk);
    assertThat(columnNames(md.getCrossReference(null, null, "A", null, null, "B"))).isEqualTo(fk);
    assertThat(columnNames(md.getProcedures(null, null, "%")))
        .containsExactly(
            "PROCEDURE_CAT",
            "PROCEDURE_SCHEM",
            "PROCEDURE_NAME",
            "RESERVED1",
            "RESERVED2",
            "RESERVED3",
            "REMARKS",
            "PROCEDURE_TYPE",
            "SPECIFIC_NAME");
    assertThat(columnNames(md.getProcedureColumns(null, null, "%", "%"))).hasSize(20);
    assertThat(columnNames(md.getFunctions(null, null, "%")))
        .containsExactly(
            "FUNCTION_CAT",
            "FUNCTION_SCHEM",
            "FUNCTION_NAME",
            "REMARKS",
            "FUNCTION_TYPE",
            "SPECIFIC_NAME");
    assertThat(columnNames(md.getFunctionColumns(null, null, "%", "%"))).hasSize(17);
    assertThat(columnNames(md.getUDTs(null, null, "%", null)))
        .containsExactly(
            "TYPE_CAT",
            "TYPE_SCHEM",
            "TYPE_NAME",
            "CLASS_NAME",
            "DATA_TYPE",
            "REMARKS",
            "BASE_TYPE");
    assertThat(columnNames(md.getSuperTables(null, null, "%")))
        .containsExactly("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "SUPERTABLE_NAME");
    assertThat(columnNames(md.getSuperTypes(null, null, "%")))
        .containsExactly(
            "TYPE_CAT",
            "TYPE_SCHEM",
            "TYPE_NAME",
            "SUPERTYPE_CAT",
            "SUPERTYPE_SCHEM",
            "SUPERTYPE_NAME");
    assertThat(columnNames(md.getAttributes(null, null, "%", "%"))).hasSize(21);
    assertThat(columnNames(md.getPseudoColumns(null, null, "%", "%"))).hasSize(12);
    assertThat(columnNames(md.getColumnPrivileges(null, null, "ORDERS", "%")))
        .containsExactly(
            "TABLE_CAT",
            "TABLE_SCHEM",
            "TABLE_NAME",
            "COLUMN_NAME",
            "GRANTOR",
            "GRANTEE",
            "PRIVILEGE",
            "IS_GRANTABLE");
    assertThat(columnNames(md.getTablePrivileges(null, null, "%"))).hasSize(7);
    List<String> rowId =
        List.of(
            "SCOPE",
            "COLUMN_NAME",
            "DATA_TYPE",
            "TYPE_NAME",
            "COLUMN_SIZE",
            "BUFFER_LENGTH",
            "DECIMAL_DIGITS",
            "PSEUDO_COLUMN");
    assertThat(columnNames(md.getVersionColumns(null, null, "ORDERS"))).isEqualTo(rowId);
    assertThat(columnNames(md.getBestRowIdentifier(null, null, "ORDERS", 0, true)))
        .isEqualTo(rowId);
    ResultSet clientInfo = md.getClientInfoProperties();
    assertThat(columnNames(clientInfo))
        .containsExactly("NAME", "MAX_LEN", "DEFAULT_VALUE", "DESCRIPTION");
    assertThat(column(clientInfo, "NAME")).contains("ApplicationName");
    assertThat(md.getIndexInfo(null, null, "ORDERS", false, true).next()).isFalse();
  }

  @Test
  void closedConnectionFailsMetadataQueries() throws SQLException {
    connection.close();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> md.getTables(null, null, "%", null))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("08003");
  }
}
