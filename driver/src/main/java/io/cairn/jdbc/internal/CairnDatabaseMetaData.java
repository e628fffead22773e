package io.cairn.jdbc.internal;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What Cairn tells BI tools and sqlline about itself. Catalog result sets are built in memory from
 * {@code Session.tables()} and served through {@link CairnResultSet}; kinds of objects Cairn does
 * not have (procedures, functions, UDTs, foreign keys, privileges, ...) give empty result sets with
 * the columns the JDBC javadoc names. Cairn has no catalogs: TABLE_CAT is always null.
 */
public final class CairnDatabaseMetaData implements DatabaseMetaData {
  static final String TABLE_TYPE = "TABLE";

  /** The type of the read-only SYSTEM views (SYSTEM.BLOCK_CACHE, ...). */
  static final String SYSTEM_TABLE_TYPE = "SYSTEM TABLE";

  private final CairnConnection connection;

  CairnDatabaseMetaData(CairnConnection connection) {
    this.connection = connection;
  }

  // ---------------------------------------------------------------------------------------------
  // Product, driver, names

  @Override
  public String getDatabaseProductName() {
    return DriverInfo.PRODUCT_NAME;
  }

  @Override
  public String getDatabaseProductVersion() {
    return DriverInfo.VERSION;
  }

  @Override
  public int getDatabaseMajorVersion() {
    return DriverInfo.MAJOR_VERSION;
  }

  @Override
  public int getDatabaseMinorVersion() {
    return DriverInfo.MINOR_VERSION;
  }

  @Override
  public String getDriverName() {
    return DriverInfo.DRIVER_NAME;
  }

  @Override
  public String getDriverVersion() {
    return DriverInfo.VERSION;
  }

  @Override
  public int getDriverMajorVersion() {
    return DriverInfo.MAJOR_VERSION;
  }

  @Override
  public int getDriverMinorVersion() {
    return DriverInfo.MINOR_VERSION;
  }

  @Override
  public int getJDBCMajorVersion() {
    return 4;
  }

  @Override
  public int getJDBCMinorVersion() {
    return 2;
  }

  @Override
  public String getURL() {
    return connection.url();
  }

  @Override
  public String getUserName() {
    return connection.user();
  }

  @Override
  public Connection getConnection() throws SQLException {
    connection.checkOpen();
    return connection;
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    return connection.isReadOnly();
  }

  @Override
  public String getIdentifierQuoteString() {
    return "\"";
  }

  /** Words Cairn reserves beyond SQL:2003. */
  @Override
  public String getSQLKeywords() {
    return "UPSERT";
  }

  // The function lists are left empty until the engine publishes what its evaluator supports:
  // an empty list makes tools push down less, a wrong list makes their queries fail.

  @Override
  public String getNumericFunctions() {
    return "";
  }

  @Override
  public String getStringFunctions() {
    return "";
  }

  @Override
  public String getSystemFunctions() {
    return "";
  }

  @Override
  public String getTimeDateFunctions() {
    return "";
  }

  @Override
  public String getSearchStringEscape() {
    return "\\";
  }

  @Override
  public String getExtraNameCharacters() {
    return "";
  }

  @Override
  public String getSchemaTerm() {
    return "schema";
  }

  @Override
  public String getProcedureTerm() {
    return "procedure";
  }

  @Override
  public String getCatalogTerm() {
    return "catalog";
  }

  @Override
  public String getCatalogSeparator() {
    return ".";
  }

  @Override
  public int getDefaultTransactionIsolation() {
    return Connection.TRANSACTION_REPEATABLE_READ; // snapshot isolation
  }

  @Override
  public boolean supportsTransactionIsolationLevel(int level) {
    return level == Connection.TRANSACTION_READ_UNCOMMITTED
        || level == Connection.TRANSACTION_READ_COMMITTED
        || level == Connection.TRANSACTION_REPEATABLE_READ;
  }

  @Override
  public boolean supportsResultSetType(int type) {
    return type == ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public boolean supportsResultSetConcurrency(int type, int concurrency) {
    return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public boolean supportsResultSetHoldability(int holdability) {
    return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public int getResultSetHoldability() {
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public boolean supportsConvert(int fromType, int toType) {
    return false;
  }

  @Override
  public RowIdLifetime getRowIdLifetime() {
    return RowIdLifetime.ROWID_UNSUPPORTED;
  }

  @Override
  public int getSQLStateType() {
    return sqlStateSQL;
  }

  @Override
  public boolean autoCommitFailureClosesAllResultSets() {
    return false;
  }

  @Override
  public boolean allProceduresAreCallable() {
    return false;
  }

  @Override
  public boolean allTablesAreSelectable() {
    return true;
  }

  @Override
  public boolean dataDefinitionCausesTransactionCommit() {
    return false;
  }

  @Override
  public boolean dataDefinitionIgnoredInTransactions() {
    return false;
  }

  @Override
  public boolean doesMaxRowSizeIncludeBlobs() {
    return false;
  }

  @Override
  public boolean generatedKeyAlwaysReturned() {
    return false;
  }

  @Override
  public boolean isCatalogAtStart() {
    return false;
  }

  @Override
  public boolean locatorsUpdateCopy() {
    return false;
  }

  @Override
  public boolean nullPlusNonNullIsNull() {
    return true;
  }

  @Override
  public boolean nullsAreSortedAtEnd() {
    return false;
  }

  @Override
  public boolean nullsAreSortedAtStart() {
    return false;
  }

  @Override
  public boolean nullsAreSortedHigh() {
    return false;
  }

  @Override
  public boolean nullsAreSortedLow() {
    // The planner's NullCollation.LOW: NULLs first in ASC, last in DESC (Phoenix and the key
    // order).
    return true;
  }

  @Override
  public boolean storesLowerCaseIdentifiers() {
    return false;
  }

  @Override
  public boolean storesLowerCaseQuotedIdentifiers() {
    return false;
  }

  @Override
  public boolean storesMixedCaseIdentifiers() {
    return false;
  }

  @Override
  public boolean storesMixedCaseQuotedIdentifiers() {
    return true;
  }

  @Override
  public boolean storesUpperCaseIdentifiers() {
    return true;
  }

  @Override
  public boolean storesUpperCaseQuotedIdentifiers() {
    return false;
  }

  @Override
  public boolean supportsANSI92EntryLevelSQL() {
    return true;
  }

  @Override
  public boolean supportsANSI92FullSQL() {
    return false;
  }

  @Override
  public boolean supportsANSI92IntermediateSQL() {
    return false;
  }

  @Override
  public boolean supportsAlterTableWithAddColumn() {
    return true;
  }

  @Override
  public boolean supportsAlterTableWithDropColumn() {
    return true;
  }

  @Override
  public boolean supportsBatchUpdates() {
    return true;
  }

  @Override
  public boolean supportsCatalogsInDataManipulation() {
    return false;
  }

  @Override
  public boolean supportsCatalogsInIndexDefinitions() {
    return false;
  }

  @Override
  public boolean supportsCatalogsInPrivilegeDefinitions() {
    return false;
  }

  @Override
  public boolean supportsCatalogsInProcedureCalls() {
    return false;
  }

  @Override
  public boolean supportsCatalogsInTableDefinitions() {
    return false;
  }

  @Override
  public boolean supportsColumnAliasing() {
    return true;
  }

  @Override
  public boolean supportsConvert() {
    return false;
  }

  @Override
  public boolean supportsCoreSQLGrammar() {
    return true;
  }

  @Override
  public boolean supportsCorrelatedSubqueries() {
    return true;
  }

  @Override
  public boolean supportsDataDefinitionAndDataManipulationTransactions() {
    return false;
  }

  @Override
  public boolean supportsDataManipulationTransactionsOnly() {
    return true;
  }

  @Override
  public boolean supportsDifferentTableCorrelationNames() {
    return false;
  }

  @Override
  public boolean supportsExpressionsInOrderBy() {
    return true;
  }

  @Override
  public boolean supportsExtendedSQLGrammar() {
    return false;
  }

  @Override
  public boolean supportsFullOuterJoins() {
    return true;
  }

  @Override
  public boolean supportsGetGeneratedKeys() {
    return false;
  }

  @Override
  public boolean supportsGroupBy() {
    return true;
  }

  @Override
  public boolean supportsGroupByBeyondSelect() {
    return true;
  }

  @Override
  public boolean supportsGroupByUnrelated() {
    return true;
  }

  @Override
  public boolean supportsIntegrityEnhancementFacility() {
    return false;
  }

  @Override
  public boolean supportsLikeEscapeClause() {
    return true;
  }

  @Override
  public boolean supportsLimitedOuterJoins() {
    return true;
  }

  @Override
  public boolean supportsMinimumSQLGrammar() {
    return true;
  }

  @Override
  public boolean supportsMixedCaseIdentifiers() {
    return false;
  }

  @Override
  public boolean supportsMixedCaseQuotedIdentifiers() {
    return true;
  }

  @Override
  public boolean supportsMultipleOpenResults() {
    return false;
  }

  @Override
  public boolean supportsMultipleResultSets() {
    return false;
  }

  @Override
  public boolean supportsMultipleTransactions() {
    return true;
  }

  @Override
  public boolean supportsNamedParameters() {
    return false;
  }

  @Override
  public boolean supportsNonNullableColumns() {
    return true;
  }

  @Override
  public boolean supportsOpenCursorsAcrossCommit() {
    return true;
  }

  @Override
  public boolean supportsOpenCursorsAcrossRollback() {
    return false;
  }

  @Override
  public boolean supportsOpenStatementsAcrossCommit() {
    return true;
  }

  @Override
  public boolean supportsOpenStatementsAcrossRollback() {
    return true;
  }

  @Override
  public boolean supportsOrderByUnrelated() {
    return true;
  }

  @Override
  public boolean supportsOuterJoins() {
    return true;
  }

  @Override
  public boolean supportsPositionedDelete() {
    return false;
  }

  @Override
  public boolean supportsPositionedUpdate() {
    return false;
  }

  @Override
  public boolean supportsSavepoints() {
    return false;
  }

  @Override
  public boolean supportsSchemasInDataManipulation() {
    return true;
  }

  @Override
  public boolean supportsSchemasInIndexDefinitions() {
    return true;
  }

  @Override
  public boolean supportsSchemasInPrivilegeDefinitions() {
    return false;
  }

  @Override
  public boolean supportsSchemasInProcedureCalls() {
    return false;
  }

  @Override
  public boolean supportsSchemasInTableDefinitions() {
    return true;
  }

  @Override
  public boolean supportsSelectForUpdate() {
    return false;
  }

  @Override
  public boolean supportsStatementPooling() {
    return false;
  }

  @Override
  public boolean supportsStoredFunctionsUsingCallSyntax() {
    return false;
  }

  @Override
  public boolean supportsStoredProcedures() {
    return false;
  }

  @Override
  public boolean supportsSubqueriesInComparisons() {
    return true;
  }

  @Override
  public boolean supportsSubqueriesInExists() {
    return true;
  }

  @Override
  public boolean supportsSubqueriesInIns() {
    return true;
  }

  @Override
  public boolean supportsSubqueriesInQuantifieds() {
    return true;
  }

  @Override
  public boolean supportsTableCorrelationNames() {
    return true;
  }

  @Override
  public boolean supportsTransactions() {
    return true;
  }

  @Override
  public boolean supportsUnion() {
    return true;
  }

  @Override
  public boolean supportsUnionAll() {
    return true;
  }

  @Override
  public boolean usesLocalFilePerTable() {
    return false;
  }

  @Override
  public boolean usesLocalFiles() {
    return false;
  }

  @Override
  public boolean deletesAreDetected(int type) {
    return false;
  }

  @Override
  public boolean insertsAreDetected(int type) {
    return false;
  }

  @Override
  public boolean updatesAreDetected(int type) {
    return false;
  }

  @Override
  public boolean othersDeletesAreVisible(int type) {
    return false;
  }

  @Override
  public boolean othersInsertsAreVisible(int type) {
    return false;
  }

  @Override
  public boolean othersUpdatesAreVisible(int type) {
    return false;
  }

  @Override
  public boolean ownDeletesAreVisible(int type) {
    return false;
  }

  @Override
  public boolean ownInsertsAreVisible(int type) {
    return false;
  }

  @Override
  public boolean ownUpdatesAreVisible(int type) {
    return false;
  }

  @Override
  public int getMaxBinaryLiteralLength() {
    return 0;
  }

  @Override
  public int getMaxCatalogNameLength() {
    return 0;
  }

  @Override
  public int getMaxCharLiteralLength() {
    return 0;
  }

  @Override
  public int getMaxColumnNameLength() {
    return 0;
  }

  @Override
  public int getMaxColumnsInGroupBy() {
    return 0;
  }

  @Override
  public int getMaxColumnsInIndex() {
    return 0;
  }

  @Override
  public int getMaxColumnsInOrderBy() {
    return 0;
  }

  @Override
  public int getMaxColumnsInSelect() {
    return 0;
  }

  @Override
  public int getMaxColumnsInTable() {
    return 0;
  }

  @Override
  public int getMaxConnections() {
    return 0;
  }

  @Override
  public int getMaxCursorNameLength() {
    return 0;
  }

  @Override
  public int getMaxIndexLength() {
    return 0;
  }

  @Override
  public int getMaxProcedureNameLength() {
    return 0;
  }

  @Override
  public int getMaxRowSize() {
    return 0;
  }

  @Override
  public int getMaxSchemaNameLength() {
    return 0;
  }

  @Override
  public int getMaxStatementLength() {
    return 0;
  }

  @Override
  public int getMaxStatements() {
    return 0;
  }

  @Override
  public int getMaxTableNameLength() {
    return 0;
  }

  @Override
  public int getMaxTablesInSelect() {
    return 0;
  }

  @Override
  public int getMaxUserNameLength() {
    return 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Catalog result sets

  private static ColumnInfo varchar(String name) {
    return new ColumnInfo(name, name, "", "", DataType.VARCHAR);
  }

  private static ColumnInfo integer(String name) {
    return new ColumnInfo(name, name, "", "", DataType.INTEGER);
  }

  private static ColumnInfo smallint(String name) {
    return new ColumnInfo(name, name, "", "", DataType.of(TypeName.SMALLINT));
  }

  private static ColumnInfo bigint(String name) {
    return new ColumnInfo(name, name, "", "", DataType.BIGINT);
  }

  private static ColumnInfo bool(String name) {
    return new ColumnInfo(name, name, "", "", DataType.BOOLEAN);
  }

  private ResultSet result(List<ColumnInfo> columns, List<Object[]> rows) throws SQLException {
    connection.checkOpen();
    return CairnResultSet.ofRows(columns, rows);
  }

  private ResultSet empty(ColumnInfo... columns) throws SQLException {
    return result(List.of(columns), List.of());
  }

  private List<TableDescriptor> tables() throws SQLException {
    connection.checkOpen();
    try {
      return connection.session().tables();
    } catch (RuntimeException e) {
      throw JdbcErrors.toSqlException(e);
    }
  }

  /** True when the catalog argument admits Cairn's catalog-less objects: null or "". */
  private static boolean noCatalog(String catalog) {
    return catalog == null || catalog.isEmpty();
  }

  /** A LIKE pattern with {@code %}, {@code _} and the escape {@code \}; null matches all. */
  static boolean matches(String pattern, String value) {
    if (pattern == null) {
      return true;
    }
    if (value == null) {
      return false;
    }
    StringBuilder regex = new StringBuilder(pattern.length() + 8);
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(value).matches();
  }

  private List<TableDescriptor> matchingTables(
      String catalog, String schemaPattern, String tablePattern) throws SQLException {
    List<TableDescriptor> result = new ArrayList<>();
    if (!noCatalog(catalog)) {
      return result;
    }
    for (TableDescriptor t : tables()) {
      if (matches(schemaPattern, t.schemaName()) && matches(tablePattern, t.tableName())) {
        result.add(t);
      }
    }
    result.sort(
        Comparator.comparing(TableDescriptor::schemaName)
            .thenComparing(TableDescriptor::tableName));
    return result;
  }

  @Override
  public ResultSet getTables(
      String catalog, String schemaPattern, String tableNamePattern, String[] types)
      throws SQLException {
    List<ColumnInfo> columns =
        List.of(
            varchar("TABLE_CAT"),
            varchar("TABLE_SCHEM"),
            varchar("TABLE_NAME"),
            varchar("TABLE_TYPE"),
            varchar("REMARKS"),
            varchar("TYPE_CAT"),
            varchar("TYPE_SCHEM"),
            varchar("TYPE_NAME"),
            varchar("SELF_REFERENCING_COL_NAME"),
            varchar("REF_GENERATION"));
    List<Object[]> rows = new ArrayList<>();
    for (TableDescriptor t : matchingTables(catalog, schemaPattern, tableNamePattern)) {
      String type = SystemViews.isView(t) ? SYSTEM_TABLE_TYPE : TABLE_TYPE;
      if (wants(types, type)) {
        rows.add(
            new Object[] {
              null, t.schemaName(), t.tableName(), type, null, null, null, null, null, null
            });
      }
    }
    return result(columns, rows);
  }

  /** Null asks for every type; else the array must name {@code type} (nulls are ignored). */
  private static boolean wants(String[] types, String type) {
    if (types == null) {
      return true;
    }
    for (String t : types) {
      if (type.equalsIgnoreCase(t)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public ResultSet getColumns(
      String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
      throws SQLException {
    List<ColumnInfo> columns =
        List.of(
            varchar("TABLE_CAT"),
            varchar("TABLE_SCHEM"),
            varchar("TABLE_NAME"),
            varchar("COLUMN_NAME"),
            integer("DATA_TYPE"),
            varchar("TYPE_NAME"),
            integer("COLUMN_SIZE"),
            integer("BUFFER_LENGTH"),
            integer("DECIMAL_DIGITS"),
            integer("NUM_PREC_RADIX"),
            integer("NULLABLE"),
            varchar("REMARKS"),
            varchar("COLUMN_DEF"),
            integer("SQL_DATA_TYPE"),
            integer("SQL_DATETIME_SUB"),
            integer("CHAR_OCTET_LENGTH"),
            integer("ORDINAL_POSITION"),
            varchar("IS_NULLABLE"),
            varchar("SCOPE_CATALOG"),
            varchar("SCOPE_SCHEMA"),
            varchar("SCOPE_TABLE"),
            smallint("SOURCE_DATA_TYPE"),
            varchar("IS_AUTOINCREMENT"),
            varchar("IS_GENERATEDCOLUMN"));
    List<Object[]> rows = new ArrayList<>();
    for (TableDescriptor t : matchingTables(catalog, schemaPattern, tableNamePattern)) {
      List<ColumnDescriptor> tableColumns = t.columns();
      for (int i = 0; i < tableColumns.size(); i++) {
        ColumnDescriptor c = tableColumns.get(i);
        if (!matches(columnNamePattern, c.name())) {
          continue;
        }
        DataType type = c.type();
        TypeName name = type.name();
        boolean digits = name.isNumeric() || name == TypeName.TIME || name == TypeName.TIMESTAMP;
        rows.add(
            new Object[] {
              null,
              t.schemaName(),
              t.tableName(),
              c.name(),
              JdbcTypes.sqlType(name),
              JdbcTypes.typeName(type),
              JdbcTypes.precision(type),
              null,
              digits ? JdbcTypes.scale(type) : null,
              name.isNumeric() ? 10 : null,
              type.nullable() ? columnNullable : columnNoNulls,
              null,
              null,
              null,
              null,
              octetLength(type),
              i + 1,
              type.nullable() ? "YES" : "NO",
              null,
              null,
              null,
              null,
              "NO",
              "NO"
            });
      }
    }
    return result(columns, rows);
  }

  /** Most bytes a value takes: 4 per character (UTF-8) for strings, the length for binary. */
  private static Integer octetLength(DataType type) {
    if (type.name().isString()) {
      return type.hasLength() && type.precision() <= Integer.MAX_VALUE / 4
          ? type.precision() * 4
          : Integer.MAX_VALUE;
    }
    if (type.name() == TypeName.VARBINARY) {
      return JdbcTypes.precision(type);
    }
    return null;
  }

  @Override
  public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
    List<ColumnInfo> columns =
        List.of(
            varchar("TABLE_CAT"),
            varchar("TABLE_SCHEM"),
            varchar("TABLE_NAME"),
            varchar("COLUMN_NAME"),
            smallint("KEY_SEQ"),
            varchar("PK_NAME"));
    List<Object[]> rows = new ArrayList<>();
    if (noCatalog(catalog)) {
      for (TableDescriptor t : tables()) {
        if ((schema != null && !schema.equals(t.schemaName()))
            || (table != null && !table.equals(t.tableName()))) {
          continue;
        }
        List<KeyColumn> key = t.primaryKey();
        for (int i = 0; i < key.size(); i++) {
          String column = t.columns().get(key.get(i).columnIndex()).name();
          rows.add(
              new Object[] {null, t.schemaName(), t.tableName(), column, (short) (i + 1), null});
        }
      }
    }
    rows.sort(Comparator.comparing(r -> (String) r[3]));
    return result(columns, rows);
  }

  @Override
  public ResultSet getSchemas() throws SQLException {
    return getSchemas(null, null);
  }

  /** Schemas that hold tables, and the connection's current schema. */
  @Override
  public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
    List<ColumnInfo> columns = List.of(varchar("TABLE_SCHEM"), varchar("TABLE_CATALOG"));
    List<Object[]> rows = new ArrayList<>();
    if (noCatalog(catalog)) {
      TreeSet<String> schemas = new TreeSet<>();
      schemas.add(connection.getSchema());
      for (TableDescriptor t : tables()) {
        schemas.add(t.schemaName());
      }
      for (String s : schemas) {
        if (matches(schemaPattern, s)) {
          rows.add(new Object[] {s, null});
        }
      }
    }
    return result(columns, rows);
  }

  @Override
  public ResultSet getCatalogs() throws SQLException {
    return empty(varchar("TABLE_CAT"));
  }

  @Override
  public ResultSet getTableTypes() throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {SYSTEM_TABLE_TYPE});
    rows.add(new Object[] {TABLE_TYPE});
    return result(List.of(varchar("TABLE_TYPE")), rows);
  }

  @Override
  public ResultSet getTypeInfo() throws SQLException {
    List<ColumnInfo> columns =
        List.of(
            varchar("TYPE_NAME"),
            integer("DATA_TYPE"),
            integer("PRECISION"),
            varchar("LITERAL_PREFIX"),
            varchar("LITERAL_SUFFIX"),
            varchar("CREATE_PARAMS"),
            smallint("NULLABLE"),
            bool("CASE_SENSITIVE"),
            smallint("SEARCHABLE"),
            bool("UNSIGNED_ATTRIBUTE"),
            bool("FIXED_PREC_SCALE"),
            bool("AUTO_INCREMENT"),
            varchar("LOCAL_TYPE_NAME"),
            smallint("MINIMUM_SCALE"),
            smallint("MAXIMUM_SCALE"),
            integer("SQL_DATA_TYPE"),
            integer("SQL_DATETIME_SUB"),
            integer("NUM_PREC_RADIX"));
    List<Object[]> rows = new ArrayList<>();
    for (TypeName name : TypeName.values()) {
      if (name == TypeName.NULL || name.isInterval()) {
        continue;
      }
      DataType type =
          switch (name) {
            case DECIMAL -> DataType.decimal(DataType.MAX_DECIMAL_PRECISION, 0);
            case TIME, TIMESTAMP -> new DataType(name, 9, 0, true);
            default -> DataType.of(name);
          };
      String prefix =
          switch (name) {
            case CHAR, VARCHAR -> "'";
            case VARBINARY -> "X'";
            case DATE -> "DATE '";
            case TIME -> "TIME '";
            case TIMESTAMP -> "TIMESTAMP '";
            default -> null;
          };
      String createParams =
          switch (name) {
            case CHAR, VARCHAR, VARBINARY -> "length";
            case DECIMAL -> "precision,scale";
            case TIME, TIMESTAMP -> "precision";
            default -> null;
          };
      short maxScale =
          switch (name) {
            case DECIMAL -> (short) DataType.MAX_DECIMAL_PRECISION;
            case TIME, TIMESTAMP -> (short) 9;
            default -> (short) 0;
          };
      rows.add(
          new Object[] {
            name.name(),
            JdbcTypes.sqlType(name),
            JdbcTypes.precision(type),
            prefix,
            prefix == null ? null : "'",
            createParams,
            (short) typeNullable,
            name.isString(),
            (short) typeSearchable,
            !name.isNumeric(),
            false,
            false,
            null,
            (short) 0,
            maxScale,
            null,
            null,
            name.isNumeric() ? 10 : null
          });
    }
    rows.sort(Comparator.comparing(r -> (Integer) r[1]));
    return result(columns, rows);
  }

  @Override
  public ResultSet getClientInfoProperties() throws SQLException {
    List<ColumnInfo> columns =
        List.of(
            varchar("NAME"), integer("MAX_LEN"), varchar("DEFAULT_VALUE"), varchar("DESCRIPTION"));
    List<Object[]> rows = new ArrayList<>();
    for (String name : CairnConnection.CLIENT_INFO_NAMES) {
      rows.add(new Object[] {name, Integer.MAX_VALUE, null, "Kept by the connection"});
    }
    return result(columns, rows);
  }

  // Objects Cairn does not have: empty result sets with JDBC's columns.

  @Override
  public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
      throws SQLException {
    return empty(
        varchar("PROCEDURE_CAT"),
        varchar("PROCEDURE_SCHEM"),
        varchar("PROCEDURE_NAME"),
        varchar("RESERVED1"),
        varchar("RESERVED2"),
        varchar("RESERVED3"),
        varchar("REMARKS"),
        smallint("PROCEDURE_TYPE"),
        varchar("SPECIFIC_NAME"));
  }

  @Override
  public ResultSet getProcedureColumns(
      String catalog, String schemaPattern, String procedureNamePattern, String columnNamePattern)
      throws SQLException {
    return empty(
        varchar("PROCEDURE_CAT"),
        varchar("PROCEDURE_SCHEM"),
        varchar("PROCEDURE_NAME"),
        varchar("COLUMN_NAME"),
        smallint("COLUMN_TYPE"),
        integer("DATA_TYPE"),
        varchar("TYPE_NAME"),
        integer("PRECISION"),
        integer("LENGTH"),
        smallint("SCALE"),
        smallint("RADIX"),
        smallint("NULLABLE"),
        varchar("REMARKS"),
        varchar("COLUMN_DEF"),
        integer("SQL_DATA_TYPE"),
        integer("SQL_DATETIME_SUB"),
        integer("CHAR_OCTET_LENGTH"),
        integer("ORDINAL_POSITION"),
        varchar("IS_NULLABLE"),
        varchar("SPECIFIC_NAME"));
  }

  @Override
  public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern)
      throws SQLException {
    return empty(
        varchar("FUNCTION_CAT"),
        varchar("FUNCTION_SCHEM"),
        varchar("FUNCTION_NAME"),
        varchar("REMARKS"),
        smallint("FUNCTION_TYPE"),
        varchar("SPECIFIC_NAME"));
  }

  @Override
  public ResultSet getFunctionColumns(
      String catalog, String schemaPattern, String functionNamePattern, String columnNamePattern)
      throws SQLException {
    return empty(
        varchar("FUNCTION_CAT"),
        varchar("FUNCTION_SCHEM"),
        varchar("FUNCTION_NAME"),
        varchar("COLUMN_NAME"),
        smallint("COLUMN_TYPE"),
        integer("DATA_TYPE"),
        varchar("TYPE_NAME"),
        integer("PRECISION"),
        integer("LENGTH"),
        smallint("SCALE"),
        smallint("RADIX"),
        smallint("NULLABLE"),
        varchar("REMARKS"),
        integer("CHAR_OCTET_LENGTH"),
        integer("ORDINAL_POSITION"),
        varchar("IS_NULLABLE"),
        varchar("SPECIFIC_NAME"));
  }

  @Override
  public ResultSet getColumnPrivileges(
      String catalog, String schema, String table, String columnNamePattern) throws SQLException {
    return empty(
        varchar("TABLE_CAT"),
        varchar("TABLE_SCHEM"),
        varchar("TABLE_NAME"),
        varchar("COLUMN_NAME"),
        varchar("GRANTOR"),
        varchar("GRANTEE"),
        varchar("PRIVILEGE"),
        varchar("IS_GRANTABLE"));
  }

  @Override
  public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
      throws SQLException {
    return empty(
        varchar("TABLE_CAT"),
        varchar("TABLE_SCHEM"),
        varchar("TABLE_NAME"),
        varchar("GRANTOR"),
        varchar("GRANTEE"),
        varchar("PRIVILEGE"),
        varchar("IS_GRANTABLE"));
  }

  @Override
  public ResultSet getBestRowIdentifier(
      String catalog, String schema, String table, int scope, boolean nullable)
      throws SQLException {
    return rowIdentifierColumns();
  }

  @Override
  public ResultSet getVersionColumns(String catalog, String schema, String table)
      throws SQLException {
    return rowIdentifierColumns();
  }

  private ResultSet rowIdentifierColumns() throws SQLException {
    return empty(
        smallint("SCOPE"),
        varchar("COLUMN_NAME"),
        integer("DATA_TYPE"),
        varchar("TYPE_NAME"),
        integer("COLUMN_SIZE"),
        integer("BUFFER_LENGTH"),
        smallint("DECIMAL_DIGITS"),
        smallint("PSEUDO_COLUMN"));
  }

  @Override
  public ResultSet getImportedKeys(String catalog, String schema, String table)
      throws SQLException {
    return foreignKeys();
  }

  @Override
  public ResultSet getExportedKeys(String catalog, String schema, String table)
      throws SQLException {
    return foreignKeys();
  }

  @Override
  public ResultSet getCrossReference(
      String parentCatalog,
      String parentSchema,
      String parentTable,
      String foreignCatalog,
      String foreignSchema,
      String foreignTable)
      throws SQLException {
    return foreignKeys();
  }

  private ResultSet foreignKeys() throws SQLException {
    return empty(
        varchar("PKTABLE_CAT"),
        varchar("PKTABLE_SCHEM"),
        varchar("PKTABLE_NAME"),
        varchar("PKCOLUMN_NAME"),
        varchar("FKTABLE_CAT"),
        varchar("FKTABLE_SCHEM"),
        varchar("FKTABLE_NAME"),
        varchar("FKCOLUMN_NAME"),
        smallint("KEY_SEQ"),
        smallint("UPDATE_RULE"),
        smallint("DELETE_RULE"),
        varchar("FK_NAME"),
        varchar("PK_NAME"),
        smallint("DEFERRABILITY"));
  }

  /**
   * The local indexes of {@code schema.table} (null: every schema, every table), one row per key
   * part in the order JDBC asks for (index name, then position): all non-unique (Cairn has no
   * unique indexes, so {@code unique} lists none), of type {@code tableIndexOther}; COLUMN_NAME is
   * the column or the expression's SQL text. Every state is listed (SYSTEM.INDEXES shows it).
   */
  @Override
  public ResultSet getIndexInfo(
      String catalog, String schema, String table, boolean unique, boolean approximate)
      throws SQLException {
    List<ColumnInfo> columns =
        List.of(
            varchar("TABLE_CAT"),
            varchar("TABLE_SCHEM"),
            varchar("TABLE_NAME"),
            bool("NON_UNIQUE"),
            varchar("INDEX_QUALIFIER"),
            varchar("INDEX_NAME"),
            smallint("TYPE"),
            smallint("ORDINAL_POSITION"),
            varchar("COLUMN_NAME"),
            varchar("ASC_OR_DESC"),
            bigint("CARDINALITY"),
            bigint("PAGES"),
            varchar("FILTER_CONDITION"));
    List<Object[]> rows = new ArrayList<>();
    if (noCatalog(catalog) && !unique) {
      for (TableDescriptor t : tables()) {
        if ((schema != null && !schema.equals(t.schemaName()))
            || (table != null && !table.equals(t.tableName()))) {
          continue;
        }
        for (IndexDescriptor index : t.indexes()) {
          List<IndexDescriptor.IndexColumn> parts = index.columns();
          for (int i = 0; i < parts.size(); i++) {
            IndexDescriptor.IndexColumn part = parts.get(i);
            rows.add(
                new Object[] {
                  null,
                  t.schemaName(),
                  t.tableName(),
                  true,
                  null,
                  index.name(),
                  (short) tableIndexOther,
                  (short) (i + 1),
                  part.sql(),
                  part.order() == SortOrder.DESC ? "D" : "A",
                  null,
                  null,
                  null
                });
          }
        }
      }
    }
    // JDBC's order: NON_UNIQUE (all true), TYPE (all the same), INDEX_NAME, ORDINAL_POSITION
    rows.sort(
        Comparator.comparing((Object[] r) -> (String) r[5])
            .thenComparing(r -> (String) r[1])
            .thenComparing(r -> (String) r[2])
            .thenComparing(r -> (Short) r[7]));
    return result(columns, rows);
  }

  @Override
  public ResultSet getUDTs(
      String catalog, String schemaPattern, String typeNamePattern, int[] types)
      throws SQLException {
    return empty(
        varchar("TYPE_CAT"),
        varchar("TYPE_SCHEM"),
        varchar("TYPE_NAME"),
        varchar("CLASS_NAME"),
        integer("DATA_TYPE"),
        varchar("REMARKS"),
        smallint("BASE_TYPE"));
  }

  @Override
  public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern)
      throws SQLException {
    return empty(
        varchar("TYPE_CAT"),
        varchar("TYPE_SCHEM"),
        varchar("TYPE_NAME"),
        varchar("SUPERTYPE_CAT"),
        varchar("SUPERTYPE_SCHEM"),
        varchar("SUPERTYPE_NAME"));
  }

  @Override
  public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern)
      throws SQLException {
    return empty(
        varchar("TABLE_CAT"),
        varchar("TABLE_SCHEM"),
        varchar("TABLE_NAME"),
        varchar("SUPERTABLE_NAME"));
  }

  @Override
  public ResultSet getAttributes(
      String catalog, String schemaPattern, String typeNamePattern, String attributeNamePattern)
      throws SQLException {
    return empty(
        varchar("TYPE_CAT"),
        varchar("TYPE_SCHEM"),
        varchar("TYPE_NAME"),
        varchar("ATTR_NAME"),
        integer("DATA_TYPE"),
        varchar("ATTR_TYPE_NAME"),
        integer("ATTR_SIZE"),
        integer("DECIMAL_DIGITS"),
        integer("NUM_PREC_RADIX"),
        integer("NULLABLE"),
        varchar("REMARKS"),
        varchar("ATTR_DEF"),
        integer("SQL_DATA_TYPE"),
        integer("SQL_DATETIME_SUB"),
        integer("CHAR_OCTET_LENGTH"),
        integer("ORDINAL_POSITION"),
        varchar("IS_NULLABLE"),
        varchar("SCOPE_CATALOG"),
        varchar("SCOPE_SCHEMA"),
        varchar("SCOPE_TABLE"),
        smallint("SOURCE_DATA_TYPE"));
  }

  @Override
  public ResultSet getPseudoColumns(
      String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
      throws SQLException {
    return empty(
        varchar("TABLE_CAT"),
        varchar("TABLE_SCHEM"),
        varchar("TABLE_NAME"),
        varchar("COLUMN_NAME"),
        integer("DATA_TYPE"),
        integer("COLUMN_SIZE"),
        integer("DECIMAL_DIGITS"),
        integer("NUM_PREC_RADIX"),
        varchar("COLUMN_USAGE"),
        varchar("REMARKS"),
        integer("CHAR_OCTET_LENGTH"),
        varchar("IS_NULLABLE"));
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw JdbcErrors.error(
        ErrorCode.INVALID_ARGUMENT, "Not a wrapper for [" + iface.getName() + "]");
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
