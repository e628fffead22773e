package io.cairn.planner;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Cairn's numeric rules: DECIMAL up to 38 digits; AVG of exact numbers keeps at least 6 decimals
 * (as PostgreSQL, MySQL and DuckDB do, so TPC-H Q1's averages are not rounded to the input scale);
 * SUM widens to BIGINT / DECIMAL(38, s).
 */
public final class CairnTypeSystem extends RelDataTypeSystemImpl {
  public static final CairnTypeSystem INSTANCE = new CairnTypeSystem();
  static final int MIN_AVG_SCALE = 6;

  private CairnTypeSystem() {}

  @Override
  public int getMaxScale(SqlTypeName typeName) {
    if (typeName == SqlTypeName.DECIMAL) {
      return 38;
    }
    return super.getMaxScale(typeName);
  }

  @Override
  public int getMaxPrecision(SqlTypeName typeName) {
    if (typeName == SqlTypeName.DECIMAL) {
      return 38;
    }
    return super.getMaxPrecision(typeName);
  }

  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
    SqlTypeName name = argumentType.getSqlTypeName();
    if (SqlTypeName.INT_TYPES.contains(name) || name == SqlTypeName.DECIMAL) {
      int scale =
          Math.max(MIN_AVG_SCALE, name == SqlTypeName.DECIMAL ? argumentType.getScale() : 0);
      return factory.createTypeWithNullability(
          factory.createSqlType(SqlTypeName.DECIMAL, 38, scale), argumentType.isNullable());
    }
    return super.deriveAvgAggType(factory, argumentType);
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
    SqlTypeName name = argumentType.getSqlTypeName();
    RelDataType result;
    if (SqlTypeName.INT_TYPES.contains(name)) {
      result = factory.createSqlType(SqlTypeName.BIGINT);
    } else if (name == SqlTypeName.DECIMAL) {
      result = factory.createSqlType(SqlTypeName.DECIMAL, 38, argumentType.getScale());
    } else if (name == SqlTypeName.REAL || name == SqlTypeName.FLOAT) {
      result = factory.createSqlType(SqlTypeName.DOUBLE);
    } else {
      return super.deriveSumType(factory, argumentType);
    }
    return factory.createTypeWithNullability(result, argumentType.isNullable());
  }
}
