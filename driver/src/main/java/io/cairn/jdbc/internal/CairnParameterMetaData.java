package io.cairn.jdbc.internal;

import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ParameterInfo;
import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.util.List;

/** The {@code ?} parameters of a prepared statement, from the engine's {@link ParameterInfo}s. */
public final class CairnParameterMetaData implements ParameterMetaData {
  private final List<ParameterInfo> parameters;

  public CairnParameterMetaData(List<ParameterInfo> parameters) {
    this.parameters = List.copyOf(parameters);
  }

  private DataType type(int param) throws SQLException {
    if (param < 1 || param > parameters.size()) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_PARAMETER_INDEX,
          "Parameter index out of range: expected 1.."
              + parameters.size()
              + ", found ["
              + param
              + "]");
    }
    return parameters.get(param - 1).type();
  }

  @Override
  public int getParameterCount() {
    return parameters.size();
  }

  @Override
  public int isNullable(int param) throws SQLException {
    return type(param).nullable() ? parameterNullable : parameterNoNulls;
  }

  @Override
  public boolean isSigned(int param) throws SQLException {
    return JdbcTypes.isSigned(type(param).name());
  }

  @Override
  public int getPrecision(int param) throws SQLException {
    return JdbcTypes.precision(type(param));
  }

  @Override
  public int getScale(int param) throws SQLException {
    return JdbcTypes.scale(type(param));
  }

  @Override
  public int getParameterType(int param) throws SQLException {
    return JdbcTypes.sqlType(type(param).name());
  }

  @Override
  public String getParameterTypeName(int param) throws SQLException {
    return JdbcTypes.typeName(type(param));
  }

  @Override
  public String getParameterClassName(int param) throws SQLException {
    return JdbcTypes.className(type(param).name());
  }

  @Override
  public int getParameterMode(int param) throws SQLException {
    type(param);
    return parameterModeIn;
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
