package io.cairn.planner;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/** Maps Cairn types to Calcite's and back. Cairn FLOAT (4 bytes, as in Phoenix) is Calcite REAL. */
public final class Types {
  private Types() {}

  public static RelDataType toRelType(RelDataTypeFactory factory, DataType type) {
    RelDataType base =
        switch (type.name()) {
          case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
          case TINYINT -> factory.createSqlType(SqlTypeName.TINYINT);
          case SMALLINT -> factory.createSqlType(SqlTypeName.SMALLINT);
          case INTEGER -> factory.createSqlType(SqlTypeName.INTEGER);
          case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
          case FLOAT -> factory.createSqlType(SqlTypeName.REAL);
          case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
          case DECIMAL ->
              factory.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
          case CHAR ->
              factory.createSqlType(SqlTypeName.CHAR, type.hasLength() ? type.precision() : 1);
          case VARCHAR ->
              type.hasLength()
                  ? factory.createSqlType(SqlTypeName.VARCHAR, type.precision())
                  : factory.createSqlType(SqlTypeName.VARCHAR);
          case VARBINARY ->
              type.hasLength()
                  ? factory.createSqlType(SqlTypeName.VARBINARY, type.precision())
                  : factory.createSqlType(SqlTypeName.VARBINARY);
          case DATE -> factory.createSqlType(SqlTypeName.DATE);
          case TIME -> factory.createSqlType(SqlTypeName.TIME, 3);
          case TIMESTAMP ->
              factory.createSqlType(
                  SqlTypeName.TIMESTAMP,
                  type.hasLength() ? type.precision() : CairnTypeSystem.MAX_TIMESTAMP_PRECISION);
          case NULL -> factory.createSqlType(SqlTypeName.NULL);
          case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME ->
              throw CairnException.internal("Interval types are not column types");
        };
    return factory.createTypeWithNullability(base, type.nullable());
  }

  public static DataType toDataType(RelDataType type) {
    boolean nullable = type.isNullable();
    SqlTypeName name = type.getSqlTypeName();
    int precision = type.getPrecision();
    DataType result =
        switch (name) {
          case BOOLEAN -> DataType.BOOLEAN;
          case TINYINT -> DataType.TINYINT;
          case SMALLINT -> DataType.SMALLINT;
          case INTEGER -> DataType.INTEGER;
          case BIGINT -> DataType.BIGINT;
          case REAL -> DataType.FLOAT;
          case FLOAT, DOUBLE -> DataType.DOUBLE;
          case DECIMAL -> DataType.decimal(precision, type.getScale());
          case CHAR ->
              precision == RelDataType.PRECISION_NOT_SPECIFIED
                  ? DataType.of(TypeName.CHAR)
                  : DataType.chars(precision);
          case VARCHAR ->
              precision == RelDataType.PRECISION_NOT_SPECIFIED
                  ? DataType.VARCHAR
                  : DataType.varchar(precision);
          case BINARY, VARBINARY ->
              precision == RelDataType.PRECISION_NOT_SPECIFIED
                  ? DataType.VARBINARY
                  : new DataType(TypeName.VARBINARY, precision, 0, true);
          case DATE -> DataType.DATE;
          case TIME -> DataType.TIME;
          case TIMESTAMP ->
              precision == RelDataType.PRECISION_NOT_SPECIFIED
                      || precision >= CairnTypeSystem.MAX_TIMESTAMP_PRECISION
                  ? DataType.TIMESTAMP
                  : DataType.timestamp(precision);
          case NULL -> DataType.NULL;
          case SYMBOL -> DataType.VARCHAR;
          case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH ->
              DataType.of(TypeName.INTERVAL_YEAR_MONTH);
          case INTERVAL_DAY,
                  INTERVAL_DAY_HOUR,
                  INTERVAL_DAY_MINUTE,
                  INTERVAL_DAY_SECOND,
                  INTERVAL_HOUR,
                  INTERVAL_HOUR_MINUTE,
                  INTERVAL_HOUR_SECOND,
                  INTERVAL_MINUTE,
                  INTERVAL_MINUTE_SECOND,
                  INTERVAL_SECOND ->
              DataType.of(TypeName.INTERVAL_DAY_TIME);
          default ->
              throw new CairnException(
                  ErrorCode.NOT_SUPPORTED,
                  "Type [" + type.getFullTypeString() + "] is not supported");
        };
    return result.withNullable(nullable);
  }
}
