package io.cairn.planner;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Cairn's numeric rules: DECIMAL up to 38 digits; AVG of exact numbers and DECIMAL division keep at
 * least {@value #MIN_FRACTION_SCALE} decimals (Calcite keeps the input scale for AVG and drops to 6
 * decimals when a quotient's precision overflows, which loses significant digits of small values
 * such as TPC-H Q1's average discount or Q8's market share); SUM widens to BIGINT / DECIMAL(38, s).
 * TIMESTAMP keeps up to 9 fractional digits, 9 when no precision is given; CHAR branches of
 * different lengths unify to VARCHAR.
 */
public final class CairnTypeSystem extends RelDataTypeSystemImpl {
  public static final CairnTypeSystem INSTANCE = new CairnTypeSystem();
  static final int MIN_FRACTION_SCALE = 12;

  /** Fractional-second digits of TIMESTAMP: nanoseconds. */
  static final int MAX_TIMESTAMP_PRECISION = 9;

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
    if (typeName == SqlTypeName.TIMESTAMP) {
      return MAX_TIMESTAMP_PRECISION;
    }
    return super.getMaxPrecision(typeName);
  }

  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    if (typeName == SqlTypeName.TIMESTAMP) {
      return MAX_TIMESTAMP_PRECISION; // TIMESTAMP without (p) keeps nanoseconds
    }
    return super.getDefaultPrecision(typeName);
  }

  /**
   * CHAR(n) branches of different lengths (CASE, COALESCE, UNION of literals) unify to VARCHAR, not
   * to the longest CHAR padded with spaces: {@code CASE ... THEN 'no' ELSE 'yes' END} is {@code
   * 'no'}, as in PostgreSQL, Phoenix, H2 and DuckDB.
   */
  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
    SqlTypeName name = argumentType.getSqlTypeName();
    if (SqlTypeName.INT_TYPES.contains(name) || name == SqlTypeName.DECIMAL) {
      int scale =
          Math.max(MIN_FRACTION_SCALE, name == SqlTypeName.DECIMAL ? argumentType.getScale() : 0);
      return factory.createTypeWithNullability(
          factory.createSqlType(SqlTypeName.DECIMAL, 38, scale), argumentType.isNullable());
    }
    return super.deriveAvgAggType(factory, argumentType);
  }

  @Override
  public RelDataType deriveDecimalDivideType(
      RelDataTypeFactory factory, RelDataType dividend, RelDataType divisor) {
    RelDataType derived = super.deriveDecimalDivideType(factory, dividend, divisor);
    if (derived == null || derived.getSqlTypeName() != SqlTypeName.DECIMAL) {
      return derived;
    }
    int scale = Math.max(derived.getScale(), MIN_FRACTION_SCALE);
    if (scale == derived.getScale()) {
      return derived;
    }
    RelDataType wider = factory.createSqlType(SqlTypeName.DECIMAL, 38, scale);
    return factory.createTypeWithNullability(wider, derived.isNullable());
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
