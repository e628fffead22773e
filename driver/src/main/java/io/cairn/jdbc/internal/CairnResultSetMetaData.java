package io.cairn.jdbc.internal;

import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/** Result columns as JDBC describes them, from the engine's {@link ColumnInfo}s. */
public final class CairnResultSetMetaData implements ResultSetMetaData {
  private final List<ColumnInfo> columns;

  public CairnResultSetMetaData(List<ColumnInfo> columns) {
    this.columns = List.copyOf(columns);
  }

  private ColumnInfo column(int index) throws SQLException {
    if (index < 1 || index > columns.size()) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_PARAMETER_INDEX,
          "Column index out of range: expected 1.." + columns.size() + ", found [" + index + "]");
    }
    return columns.get(index - 1);
  }

  private DataType type(int index) throws SQLException {
    return column(index).type();
  }

  @Override
  public int getColumnCount() {
    return columns.size();
  }

  @Override
  public boolean isAutoIncrement(int column) throws SQLException {
    column(column);
    return false;
  }

  @Override
  public boolean isCaseSensitive(int column) throws SQLException {
    return type(column).name().isString();
  }

  @Override
  public boolean isSearchable(int column) throws SQLException {
    column(column);
    return true;
  }

  @Override
  public boolean isCurrency(int column) throws SQLException {
    column(column);
    return false;
  }

  @Override
  public int isNullable(int column) throws SQLException {
    return type(column).nullable() ? columnNullable : columnNoNulls;
  }

  @Override
  public boolean isSigned(int column) throws SQLException {
    return JdbcTypes.isSigned(type(column).name());
  }

  @Override
  public int getColumnDisplaySize(int column) throws SQLException {
    return JdbcTypes.displaySize(type(column));
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    return column(column).label();
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    ColumnInfo c = column(column);
    return c.columnName().isEmpty() ? c.label() : c.columnName();
  }

  @Override
  public String getSchemaName(int column) throws SQLException {
    return column(column).schemaName();
  }

  @Override
  public int getPrecision(int column) throws SQLException {
    return JdbcTypes.precision(type(column));
  }

  @Override
  public int getScale(int column) throws SQLException {
    return JdbcTypes.scale(type(column));
  }

  @Override
  public String getTableName(int column) throws SQLException {
    return column(column).tableName();
  }

  @Override
  public String getCatalogName(int column) throws SQLException {
    column(column);
    return "";
  }

  @Override
  public int getColumnType(int column) throws SQLException {
    return JdbcTypes.sqlType(type(column).name());
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    return JdbcTypes.typeName(type(column));
  }

  @Override
  public boolean isReadOnly(int column) throws SQLException {
    column(column);
    return true;
  }

  @Override
  public boolean isWritable(int column) throws SQLException {
    column(column);
    return false;
  }

  @Override
  public boolean isDefinitelyWritable(int column) throws SQLException {
    column(column);
    return false;
  }

  @Override
  public String getColumnClassName(int column) throws SQLException {
    return JdbcTypes.className(type(column).name());
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
