package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;
import org.junit.jupiter.api.Test;

/** Casts of literals keep their values: folded only when lossless, otherwise by Cairn's rules. */
class TestCairnRexBuilder {
  private final RelDataTypeFactory types = new JavaTypeFactoryImpl(CairnTypeSystem.INSTANCE);
  private final RexBuilder rex = new CairnRexBuilder(types);

  @Test
  void lossyCastsOfLiteralsAreNotFolded() {
    assertThat(rex.makeCast(type(SqlTypeName.INTEGER), number("1.9"))).isInstanceOf(RexCall.class);
    assertThat(rex.makeCast(decimal(10, 2), number("1.555"))).isInstanceOf(RexCall.class);
    assertThat(
            rex.makeCast(types.createSqlType(SqlTypeName.VARCHAR, 5), rex.makeLiteral("abcdefgh")))
        .isInstanceOf(RexCall.class);
    assertThat(
            rex.makeCast(
                types.createSqlType(SqlTypeName.VARBINARY, 3),
                rex.makeBinaryLiteral(new ByteString(new byte[] {1, 2, 3, 4, 5}))))
        .isInstanceOf(RexCall.class);
    assertThat(rex.makeCast(types.createSqlType(SqlTypeName.TIMESTAMP, 3), nanos()))
        .isInstanceOf(RexCall.class);
  }

  @Test
  void losslessCastsOfLiteralsAreFolded() {
    assertThat(rex.makeCast(type(SqlTypeName.INTEGER), number("2.0")))
        .isInstanceOf(RexLiteral.class);
    assertThat(rex.makeCast(decimal(10, 2), number("1.5"))).isInstanceOf(RexLiteral.class);
    assertThat(rex.makeCast(types.createSqlType(SqlTypeName.VARCHAR, 5), rex.makeLiteral("abc")))
        .isInstanceOf(RexLiteral.class);
    assertThat(rex.makeCast(types.createSqlType(SqlTypeName.TIMESTAMP, 9), nanos()))
        .isInstanceOf(RexLiteral.class);
  }

  @Test
  void constantsAreFoldedByCairnsEvaluator() {
    RexNode integer = rex.makeAbstractCast(type(SqlTypeName.INTEGER), number("1.5"));
    RexNode decimal = rex.makeAbstractCast(decimal(10, 2), number("1.555"));
    RexNode text =
        rex.makeAbstractCast(
            types.createSqlType(SqlTypeName.TIMESTAMP, 9),
            rex.makeLiteral("2024-02-29 23:59:58.123456789"));
    RexNode division =
        rex.makeCall(
            SqlStdOperatorTable.DIVIDE,
            rex.makeExactLiteral(BigDecimal.ONE),
            rex.makeExactLiteral(BigDecimal.ZERO));
    List<RexNode> reduced = new ArrayList<>();
    new CairnRexExecutor().reduce(rex, List.of(integer, decimal, text, division), reduced);
    assertThat(((RexLiteral) reduced.get(0)).getValueAs(Integer.class)).isEqualTo(2);
    assertThat(((RexLiteral) reduced.get(1)).getValueAs(BigDecimal.class))
        .isEqualByComparingTo("1.56");
    assertThat(((RexLiteral) reduced.get(2)).getValueAs(TimestampString.class))
        .isEqualTo(new TimestampString("2024-02-29 23:59:58.123456789"));
    assertThat(reduced.get(3)).isSameAs(division); // fails at run time, only if reached
  }

  private RexLiteral number(String text) {
    return rex.makeExactLiteral(new BigDecimal(text));
  }

  private RexLiteral nanos() {
    return rex.makeTimestampLiteral(new TimestampString("2024-02-29 23:59:58.123456789"), 9);
  }

  private RelDataType type(SqlTypeName name) {
    return types.createSqlType(name);
  }

  private RelDataType decimal(int precision, int scale) {
    return types.createSqlType(SqlTypeName.DECIMAL, precision, scale);
  }
}
