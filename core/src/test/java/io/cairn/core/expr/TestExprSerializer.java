package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestExprSerializer {
  private static final DataType NAME = DataType.varchar(25).withNullable(false);

  @Test
  void literalsOfEveryTypeReadBackAsTheSameValueAndType() {
    List<Expr.Literal> literals =
        List.of(
            new Expr.Literal(null, DataType.NULL),
            new Expr.Literal(null, DataType.decimal(15, 2)),
            new Expr.Literal(true, DataType.BOOLEAN),
            new Expr.Literal(false, DataType.BOOLEAN.withNullable(false)),
            new Expr.Literal((byte) -128, DataType.TINYINT),
            new Expr.Literal((short) 32767, DataType.of(TypeName.SMALLINT)),
            new Expr.Literal(Integer.MIN_VALUE, DataType.INTEGER),
            new Expr.Literal(Long.MAX_VALUE, DataType.BIGINT),
            new Expr.Literal(-0.0f, DataType.FLOAT),
            new Expr.Literal(Float.NaN, DataType.FLOAT),
            new Expr.Literal(1e308, DataType.DOUBLE),
            new Expr.Literal(Double.NEGATIVE_INFINITY, DataType.DOUBLE),
            new Expr.Literal(new BigDecimal("-12.50"), DataType.decimal(15, 2)),
            new Expr.Literal(new BigDecimal("0E-7"), DataType.decimal(38, 7)),
            new Expr.Literal(
                new BigDecimal(new BigInteger("-98765432109876543210987654321098765"), 3),
                DataType.decimal(38, 3)),
            new Expr.Literal("", DataType.varchar(0)),
            new Expr.Literal("grüße, 世界 \uD83D\uDE00", DataType.VARCHAR),
            new Expr.Literal("ab  ", DataType.chars(4)),
            new Expr.Literal(LocalDate.of(1, 1, 1), DataType.DATE),
            new Expr.Literal(LocalDate.of(9999, 12, 31), DataType.DATE),
            new Expr.Literal(LocalTime.MAX, DataType.TIME),
            new Expr.Literal(LocalTime.MIDNIGHT, new DataType(TypeName.TIME, 3, 0, true)),
            new Expr.Literal(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 1), DataType.TIMESTAMP),
            new Expr.Literal(LocalDateTime.of(2024, 2, 29, 13, 45, 30), DataType.timestamp(0)),
            new Expr.Literal(14L, DataType.of(TypeName.INTERVAL_YEAR_MONTH)),
            new Expr.Literal(-86_400_000L, DataType.of(TypeName.INTERVAL_DAY_TIME)));
    for (Expr.Literal literal : literals) {
      assertThat(roundTrip(literal)).as("%s", literal).isEqualTo(literal);
      Object value = ((Expr.Literal) roundTrip(literal)).value();
      if (value != null) {
        assertThat(value).hasSameClassAs(literal.value());
      }
    }
  }

  @Test
  void binaryLiteralsReadBackWithTheSameBytes() {
    for (byte[] bytes : List.of(new byte[0], new byte[] {0, -1, 127, -128})) {
      Expr.Literal read = (Expr.Literal) roundTrip(new Expr.Literal(bytes, DataType.VARBINARY));
      assertThat((byte[]) read.value()).containsExactly(bytes);
      assertThat(read.type()).isEqualTo(DataType.VARBINARY);
    }
  }

  @Test
  void stringsLongerThanWriteUtfAllowsReadBack() {
    char[] chars = new char[70_000];
    Arrays.fill(chars, 'é'); // two bytes each in UTF-8: 140,000 bytes
    Expr.Literal literal = new Expr.Literal(new String(chars), DataType.VARCHAR);
    assertThat(roundTrip(literal)).isEqualTo(literal);
  }

  @Test
  void columnsAndNestedCallsReadBackWithTheirOperatorsAndTypes() {
    Expr name = new Expr.ColumnRef(1, NAME);
    Expr price = new Expr.ColumnRef(7, DataType.decimal(15, 2));
    Expr upperPrefix =
        new Expr.Call(
            Op.UPPER,
            List.of(
                new Expr.Call(
                    Op.SUBSTRING,
                    List.of(
                        name,
                        new Expr.Literal(1, DataType.INTEGER),
                        new Expr.Literal(3, DataType.INTEGER)),
                    DataType.VARCHAR)),
            DataType.varchar(3));
    Expr caseExpr =
        new Expr.Call(
            Op.CASE,
            List.of(
                new Expr.Call(
                    Op.GREATER_THAN,
                    List.of(price, new Expr.Literal(new BigDecimal("100.00"), price.type())),
                    DataType.BOOLEAN),
                new Expr.Call(Op.CAST, List.of(price), DataType.BIGINT),
                new Expr.Literal(null, DataType.BIGINT)),
            DataType.BIGINT);
    Expr now = new Expr.Call(Op.CURRENT_DATE, List.of(), DataType.DATE.withNullable(false));
    for (Expr e : List.of(name, upperPrefix, caseExpr, now)) {
      assertThat(roundTrip(e)).isEqualTo(e);
    }
  }

  @Test
  void everyOperatorReadsBackByItsId() {
    for (Op op : Op.values()) {
      Expr call =
          new Expr.Call(op, List.of(new Expr.ColumnRef(0, DataType.BIGINT)), DataType.BIGINT);
      assertThat(roundTrip(call)).isEqualTo(call);
    }
  }

  @Test
  void theByteFormIsPinned() {
    // LOWER(column 2 VARCHAR(10)) as docs/format-store.md describes it; a change here is a new
    // format version of the catalog entry
    Expr e =
        new Expr.Call(
            Op.LOWER, List.of(new Expr.ColumnRef(2, DataType.varchar(10))), DataType.VARCHAR);
    assertThat(HexFormat.of().formatHex(ExprSerializer.serialize(e)))
        .isEqualTo(
            "03"
                + "0a"
                + "ffffffff"
                + "00000000"
                + "01" // call, VARCHAR, nullable
                + "002b"
                + "00000001" // LOWER, one operand
                + "01"
                + "0a"
                + "0000000a"
                + "00000000"
                + "01"
                + "00000002"); // column 2
    Expr literal = new Expr.Literal(new BigDecimal("-1.5"), DataType.decimal(2, 1));
    assertThat(HexFormat.of().formatHex(ExprSerializer.serialize(literal)))
        .isEqualTo(
            "02" + "08" + "00000002" + "00000001" + "01" + "09" + "00000001" + "00000001" + "f1");
  }

  @Test
  void statementParametersAreRefused() {
    Expr e =
        new Expr.Call(
            Op.PLUS,
            List.of(new Expr.ColumnRef(0, DataType.BIGINT), new Expr.Param(1, DataType.BIGINT)),
            DataType.BIGINT);
    assertThatThrownBy(() -> ExprSerializer.serialize(e))
        .isInstanceOfSatisfying(
            CairnException.class, x -> assertThat(x.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
        .hasMessageContaining("?2");
  }

  @Test
  void nestingBeyondTheLimitIsRefusedBothWays() {
    Expr deep = new Expr.ColumnRef(0, DataType.BIGINT);
    for (int i = 1; i < ExprSerializer.MAX_DEPTH; i++) {
      deep = new Expr.Call(Op.NEGATE, List.of(deep), DataType.BIGINT);
    }
    assertThat(roundTrip(deep)).isEqualTo(deep); // exactly the limit
    Expr tooDeep = new Expr.Call(Op.NEGATE, List.of(deep), DataType.BIGINT);
    assertThatThrownBy(() -> ExprSerializer.serialize(tooDeep))
        .isInstanceOfSatisfying(
            CairnException.class,
            x -> assertThat(x.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX));
    // hand-made bytes of one more level are refused on reading, without recursing further
    byte[] inner = ExprSerializer.serialize(deep);
    byte[] negate = HexFormat.of().parseHex("0305ffffffff000000000100060000000" + "1");
    byte[] bytes = new byte[negate.length + inner.length];
    System.arraycopy(negate, 0, bytes, 0, negate.length);
    System.arraycopy(inner, 0, bytes, negate.length, inner.length);
    assertCorrupt(bytes, "deeper");
  }

  @Test
  void damagedBytesFailAsCorruptNeverWithAnotherException() {
    Expr e =
        new Expr.Call(
            Op.CONCAT,
            List.of(
                new Expr.ColumnRef(0, DataType.VARCHAR),
                new Expr.Literal("xyz", DataType.VARCHAR),
                new Expr.Literal(LocalDateTime.of(2020, 1, 2, 3, 4, 5, 6), DataType.TIMESTAMP)),
            DataType.VARCHAR);
    byte[] bytes = ExprSerializer.serialize(e);
    for (int length = 0; length < bytes.length; length++) {
      assertCorrupt(Arrays.copyOf(bytes, length), "");
    }
    assertCorrupt(Arrays.copyOf(bytes, bytes.length + 1), "after the expression");
    List<byte[]> flipped = new ArrayList<>();
    for (int i = 0; i < bytes.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] copy = bytes.clone();
        copy[i] ^= (byte) (1 << bit);
        flipped.add(copy);
      }
    }
    for (byte[] copy : flipped) {
      try {
        ExprSerializer.deserialize(copy); // may still be an expression: then any one
      } catch (CairnException x) {
        assertThat(x.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR);
      }
    }
  }

  @Test
  void unknownKindsTagsTypesAndOperatorsAreNamed() {
    assertCorrupt(HexFormat.of().parseHex("07" + "05ffffffff0000000001"), "node kind of [7]");
    assertCorrupt(
        HexFormat.of().parseHex("02" + "05ffffffff0000000001" + "63"), "value tag of [99]");
    assertCorrupt(
        HexFormat.of().parseHex("01" + "1fffffffff0000000001" + "00000000"), "type id of [31]");
    assertCorrupt(
        HexFormat.of().parseHex("03" + "05ffffffff0000000001" + "0007" + "00000000"),
        "operator id of [7]");
    assertCorrupt(
        HexFormat.of().parseHex("02" + "0affffffff0000000001" + "0a" + "7fffffff"),
        "length of [2147483647]");
  }

  private static Expr roundTrip(Expr e) {
    return ExprSerializer.deserialize(ExprSerializer.serialize(e));
  }

  private static void assertCorrupt(byte[] bytes, String message) {
    assertThatThrownBy(() -> ExprSerializer.deserialize(bytes))
        .isInstanceOfSatisfying(
            CairnException.class,
            x -> assertThat(x.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR))
        .hasMessageContaining("Corrupt serialized expression")
        .hasMessageContaining(message);
  }
}
