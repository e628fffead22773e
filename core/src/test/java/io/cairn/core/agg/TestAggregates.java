package io.cairn.core.agg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TestAggregates {
  private static final DataType BIG = DataType.BIGINT;
  private static final DataType DBL = DataType.DOUBLE;

  static BigDecimal dec(String s) {
    return new BigDecimal(s);
  }

  static Object run(AggregateKind kind, boolean distinct, DataType type, Object... values) {
    Accumulator a =
        Aggregates.create(
            new AggregateCall(
                kind, kind == AggregateKind.COUNT_STAR ? List.of() : List.of(1), distinct, type));
    for (Object v : values) {
      a.add(new Object[] {"ignored", v});
    }
    return a.result();
  }

  /** Splits the input in two partial states, merges them, and checks the same result. */
  static Object runMerged(AggregateKind kind, boolean distinct, DataType type, Object... values) {
    AggregateCall call =
        new AggregateCall(
            kind, kind == AggregateKind.COUNT_STAR ? List.of() : List.of(1), distinct, type);
    Accumulator left = Aggregates.create(call);
    Accumulator right = Aggregates.create(call);
    for (int i = 0; i < values.length; i++) {
      (i % 2 == 0 ? left : right).add(new Object[] {"ignored", values[i]});
    }
    left.merge(right);
    return left.result();
  }

  /**
   * Runs the call as a store would: the input split into {@code chunks} runs of consecutive rows
   * (some empty when there are more chunks than rows), each ending as a partial state of plain
   * values of {@link Aggregates#partialTypes}, merged in order by a final accumulator.
   */
  static Object runPartial(AggregateKind kind, DataType type, int chunks, Object... values) {
    AggregateCall call = call(kind, false, type);
    List<DataType> types = Aggregates.partialTypes(call);
    Accumulator last = Aggregates.create(call);
    for (int c = 0; c < chunks; c++) {
      Accumulator partial = Aggregates.create(call);
      for (int i = c * values.length / chunks; i < (c + 1) * values.length / chunks; i++) {
        partial.add(new Object[] {"ignored", values[i]});
      }
      Object[] state = new Object[types.size() + 1];
      partial.writePartial(state, 1);
      for (int i = 0; i < types.size(); i++) {
        assertPlainValue(kind, state[i + 1], types.get(i));
      }
      last.mergePartial(state, 1);
    }
    return last.result();
  }

  private static AggregateCall call(AggregateKind kind, boolean distinct, DataType type) {
    return new AggregateCall(
        kind, kind == AggregateKind.COUNT_STAR ? List.of() : List.of(1), distinct, type);
  }

  /**
   * A partial value is NULL only where its type allows, and a computed one (COUNT, SUM, AVG) is of
   * its type's Java class: Long, BigDecimal or Double.
   */
  private static void assertPlainValue(AggregateKind kind, Object value, DataType type) {
    if (value == null) {
      assertThat(type.nullable()).as("NULL of " + type).isTrue();
      return;
    }
    Class<?> expected =
        switch (kind) {
          case COUNT_STAR, COUNT, SUM, SUM0, AVG ->
              switch (type.name()) {
                case BIGINT -> Long.class;
                case DECIMAL -> BigDecimal.class;
                case DOUBLE -> Double.class;
                default -> throw new AssertionError("partial type " + type);
              };
          default -> value.getClass();
        };
    assertThat(value).as(kind + " partial value of " + type).isExactlyInstanceOf(expected);
  }

  static Stream<Arguments> aggregates() {
    Object[] none = {};
    Object[] nulls = {null, null};
    Object[] ints = {3, null, 1, 3, 2};
    return Stream.of(
        // kind, distinct, result type, input, expected
        Arguments.of(AggregateKind.COUNT_STAR, false, BIG, ints, 5L),
        Arguments.of(AggregateKind.COUNT_STAR, false, BIG, none, 0L),
        Arguments.of(AggregateKind.COUNT, false, BIG, ints, 4L),
        Arguments.of(AggregateKind.COUNT, true, BIG, ints, 3L),
        Arguments.of(AggregateKind.COUNT, false, BIG, nulls, 0L),
        Arguments.of(AggregateKind.COUNT, false, DataType.INTEGER, ints, 4),
        Arguments.of(AggregateKind.SUM, false, BIG, ints, 9L),
        Arguments.of(AggregateKind.SUM, true, BIG, ints, 6L),
        Arguments.of(AggregateKind.SUM, false, BIG, none, null),
        Arguments.of(AggregateKind.SUM, false, BIG, nulls, null),
        Arguments.of(AggregateKind.SUM0, false, BIG, none, 0L),
        Arguments.of(AggregateKind.SUM0, false, DataType.decimal(10, 2), nulls, dec("0.00")),
        Arguments.of(AggregateKind.SUM0, false, DBL, none, 0.0),
        Arguments.of(AggregateKind.SUM, false, DataType.INTEGER, ints, 9),
        Arguments.of(
            AggregateKind.SUM,
            false,
            DataType.decimal(10, 2),
            new Object[] {dec("1.10"), dec("2.25"), null},
            dec("3.35")),
        Arguments.of(
            AggregateKind.SUM,
            true,
            DataType.decimal(10, 2),
            new Object[] {dec("1.10"), dec("1.1"), dec("1.100")},
            dec("1.10")),
        Arguments.of(AggregateKind.SUM, false, DBL, new Object[] {0.5, 0.25, null}, 0.75),
        Arguments.of(AggregateKind.SUM, false, DataType.decimal(10, 1), ints, dec("9.0")),
        Arguments.of(AggregateKind.AVG, false, BIG, ints, 2L), // 9 / 4 truncated
        Arguments.of(AggregateKind.AVG, false, BIG, new Object[] {-3, -4}, -3L),
        Arguments.of(AggregateKind.AVG, false, DBL, ints, 2.25),
        Arguments.of(AggregateKind.AVG, false, DataType.decimal(10, 6), ints, dec("2.250000")),
        Arguments.of(
            AggregateKind.AVG,
            false,
            DataType.decimal(10, 2),
            new Object[] {dec("1.00"), dec("1.00"), dec("2.00")},
            dec("1.33")),
        Arguments.of(
            AggregateKind.AVG,
            false,
            DataType.decimal(10, 2),
            new Object[] {dec("0.01"), dec("0.00")},
            dec("0.01")), // 0.005 rounds HALF_UP
        Arguments.of(
            AggregateKind.AVG,
            false,
            DataType.decimal(30, 1),
            new Object[] {Long.MAX_VALUE, Long.MAX_VALUE},
            dec("9223372036854775807.0")), // exact beyond the long range
        Arguments.of(AggregateKind.AVG, true, DBL, ints, 2.0),
        Arguments.of(AggregateKind.AVG, false, DBL, none, null),
        Arguments.of(AggregateKind.AVG, false, DBL, new Object[] {1.0, 2}, 1.5),
        Arguments.of(AggregateKind.MIN, false, DataType.INTEGER, ints, 1),
        Arguments.of(AggregateKind.MAX, false, DataType.INTEGER, ints, 3),
        Arguments.of(
            AggregateKind.MAX, false, DataType.VARCHAR, new Object[] {"b", null, "ab"}, "b"),
        Arguments.of(
            AggregateKind.MIN,
            false,
            DataType.DATE,
            new Object[] {LocalDate.of(2024, 2, 29), LocalDate.of(2023, 1, 1)},
            LocalDate.of(2023, 1, 1)),
        Arguments.of(AggregateKind.MIN, false, DataType.INTEGER, nulls, null),
        Arguments.of(AggregateKind.MAX, true, DataType.INTEGER, none, null),
        Arguments.of(
            AggregateKind.ANY_VALUE, false, DataType.INTEGER, new Object[] {null, 7, 8}, 7),
        Arguments.of(AggregateKind.ANY_VALUE, false, DataType.INTEGER, nulls, null),
        Arguments.of(
            AggregateKind.BOOL_AND, false, DataType.BOOLEAN, new Object[] {true, null, true}, true),
        Arguments.of(
            AggregateKind.BOOL_AND, false, DataType.BOOLEAN, new Object[] {true, false}, false),
        Arguments.of(
            AggregateKind.BOOL_OR, false, DataType.BOOLEAN, new Object[] {false, null, true}, true),
        Arguments.of(
            AggregateKind.BOOL_OR, false, DataType.BOOLEAN, new Object[] {false, null}, false),
        Arguments.of(AggregateKind.BOOL_OR, false, DataType.BOOLEAN, nulls, null),
        Arguments.of(AggregateKind.SINGLE_VALUE, false, DataType.INTEGER, new Object[] {5}, 5),
        Arguments.of(
            AggregateKind.SINGLE_VALUE, false, DataType.INTEGER, new Object[] {null}, null),
        Arguments.of(AggregateKind.SINGLE_VALUE, false, DataType.INTEGER, none, null),
        Arguments.of(
            AggregateKind.COUNT,
            true,
            BIG,
            new Object[] {new byte[] {1}, new byte[] {1}, new byte[] {2}},
            2L),
        Arguments.of(
            AggregateKind.COUNT, true, BIG, new Object[] {0.0, -0.0, Double.NaN, Double.NaN}, 2L));
  }

  @ParameterizedTest
  @MethodSource
  void aggregates(
      AggregateKind kind, boolean distinct, DataType type, Object[] input, Object expected) {
    String description = kind + (distinct ? " DISTINCT " : " ") + Arrays.toString(input);
    Object actual = run(kind, distinct, type, input);
    assertThat(actual).as(description).isEqualTo(expected);
    if (expected != null) {
      assertThat(actual).as(description).isExactlyInstanceOf(expected.getClass());
    }
    if (kind != AggregateKind.SINGLE_VALUE && kind != AggregateKind.ANY_VALUE) {
      assertThat(runMerged(kind, distinct, type, input))
          .as(description + " merged")
          .isEqualTo(expected);
    }
    AggregateCall call = call(kind, distinct, type);
    assertThat(Aggregates.isSplittable(call))
        .as(description + " splittable")
        .isEqualTo(!distinct && kind != AggregateKind.SINGLE_VALUE);
    if (Aggregates.isSplittable(call)) {
      for (int chunks = 1; chunks <= input.length + 1; chunks++) {
        Object partial = runPartial(kind, type, chunks, input);
        assertThat(partial)
            .as(description + " in " + chunks + " partial states")
            .isEqualTo(expected);
        if (expected != null) {
          assertThat(partial).isExactlyInstanceOf(expected.getClass());
        }
      }
    }
  }

  @Test
  void partialStatesOfNoRows() {
    assertThat(partialState(AggregateKind.COUNT_STAR, BIG)).containsExactly(0L);
    assertThat(partialState(AggregateKind.COUNT, DataType.INTEGER)).containsExactly(0L);
    assertThat(partialState(AggregateKind.SUM, DataType.INTEGER)).containsExactly((Object) null);
    assertThat(partialState(AggregateKind.SUM0, BIG)).containsExactly((Object) null);
    assertThat(partialState(AggregateKind.MIN, DataType.VARCHAR)).containsExactly((Object) null);
    assertThat(partialState(AggregateKind.AVG, DataType.decimal(38, 12))).containsExactly(null, 0L);
    assertThat(partialState(AggregateKind.AVG, DBL)).containsExactly(null, 0L);
    assertThat(Aggregates.partialTypes(call(AggregateKind.AVG, false, DataType.decimal(38, 12))))
        .containsExactly(DataType.of(TypeName.DECIMAL), DataType.BIGINT.withNullable(false));
    assertThat(Aggregates.partialTypes(call(AggregateKind.SUM, false, DataType.decimal(38, 2))))
        .containsExactly(DataType.of(TypeName.DECIMAL));
    assertThat(Aggregates.partialTypes(call(AggregateKind.SUM, false, DataType.INTEGER)))
        .containsExactly(DataType.BIGINT);
    assertThat(Aggregates.partialTypes(call(AggregateKind.SUM, false, DataType.FLOAT)))
        .containsExactly(DataType.DOUBLE);
    assertThat(Aggregates.partialTypes(call(AggregateKind.MAX, false, DataType.DATE)))
        .containsExactly(DataType.DATE);
  }

  private static List<Object> partialState(AggregateKind kind, DataType type) {
    AggregateCall call = call(kind, false, type);
    Object[] state = new Object[Aggregates.partialTypes(call).size()];
    Aggregates.create(call).writePartial(state, 0);
    return Arrays.asList(state);
  }

  @Test
  void partialSumsAreExactUntilTheFinalStep() {
    // the partial states are neither rounded nor range-checked: only the merged sum is
    assertThat(runPartial(AggregateKind.SUM, DataType.INTEGER, 2, Integer.MAX_VALUE, 1, -5, 0))
        .isEqualTo(Integer.MAX_VALUE - 4);
    assertThat(
            runPartial(
                AggregateKind.SUM,
                DataType.decimal(10, 1),
                2,
                dec("0.04"),
                dec("0.04"),
                dec("0.02")))
        .isEqualTo(dec("0.1"));
    assertThat(
            runPartial(
                AggregateKind.AVG, DataType.decimal(38, 1), 3, Long.MAX_VALUE, Long.MAX_VALUE, 1L))
        .isEqualTo(dec("6148914691236517205.0"));
    // a BIGINT sum that overflows fails when merged, as in one step
    assertThatThrownBy(() -> runPartial(AggregateKind.SUM, BIG, 2, Long.MAX_VALUE, 1L))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE))
        .hasMessageContaining("[9223372036854775807] + [1]");
  }

  @Test
  void callsThatCannotBeSplit() {
    assertThat(Aggregates.isSplittable(call(AggregateKind.SUM, true, BIG))).isFalse();
    assertThat(Aggregates.isSplittable(call(AggregateKind.SINGLE_VALUE, false, BIG))).isFalse();
    assertThat(Aggregates.isSplittable(call(AggregateKind.SUM, false, DataType.VARCHAR))).isFalse();
    assertThat(Aggregates.isSplittable(call(AggregateKind.AVG, false, DataType.DATE))).isFalse();
    assertThatThrownBy(() -> Aggregates.partialTypes(call(AggregateKind.COUNT, true, BIG)))
        .isInstanceOf(CairnException.class);
    Accumulator distinct = Aggregates.create(call(AggregateKind.COUNT, true, BIG));
    assertThatThrownBy(() -> distinct.writePartial(new Object[1], 0))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR));
  }

  @Test
  void singleValueFailsOnTheSecondRow() {
    assertThatThrownBy(() -> run(AggregateKind.SINGLE_VALUE, false, DataType.INTEGER, 1, 2))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SUBQUERY_MULTIPLE_ROWS))
        .hasMessage("Scalar subquery returned more than one row");
    assertThatThrownBy(() -> run(AggregateKind.SINGLE_VALUE, false, DataType.INTEGER, null, null))
        .isInstanceOf(CairnException.class);
    assertThatThrownBy(() -> runMerged(AggregateKind.SINGLE_VALUE, false, DataType.INTEGER, 1, 2))
        .isInstanceOf(CairnException.class);
  }

  @Test
  void sumOverflow() {
    assertThatThrownBy(() -> run(AggregateKind.SUM, false, BIG, Long.MAX_VALUE, 1L))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE))
        .hasMessageContaining("[9223372036854775807] + [1]");
    assertThatThrownBy(() -> run(AggregateKind.SUM, false, DataType.INTEGER, Integer.MAX_VALUE, 1))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE))
        .hasMessageContaining("[2147483648]");
    assertThatThrownBy(
            () -> run(AggregateKind.SUM, false, DataType.decimal(4, 2), dec("60.00"), dec("50.00")))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE))
        .hasMessageContaining("[110.00]");
    // an intermediate overflow that comes back into range is still an error (exact long sum)
    assertThatThrownBy(() -> run(AggregateKind.SUM, false, BIG, Long.MAX_VALUE, 1L, -2L))
        .isInstanceOf(CairnException.class);
  }

  @Test
  void countOfSeveralArguments() {
    Accumulator count =
        Aggregates.create(new AggregateCall(AggregateKind.COUNT, List.of(0, 1), false, BIG));
    count.add(new Object[] {1, 2});
    count.add(new Object[] {1, null});
    count.add(new Object[] {null, 2});
    count.add(new Object[] {1, 2});
    assertThat(count.result()).isEqualTo(2L);
    Accumulator distinct =
        Aggregates.create(new AggregateCall(AggregateKind.COUNT, List.of(0, 1), true, BIG));
    distinct.add(new Object[] {1, 2});
    distinct.add(new Object[] {1, 2L});
    distinct.add(new Object[] {2, 1});
    assertThat(distinct.result()).isEqualTo(2L);
  }

  @Test
  void persistentIds() {
    for (AggregateKind kind : AggregateKind.values()) {
      assertThat(AggregateKind.fromId(kind.id())).isEqualTo(kind);
    }
    assertThat(AggregateKind.SINGLE_VALUE.id()).isEqualTo(8);
    assertThatThrownBy(() -> AggregateKind.fromId(99)).isInstanceOf(CairnException.class);
  }

  @Test
  void callChecksArguments() {
    assertThatThrownBy(() -> new AggregateCall(AggregateKind.SUM, List.of(), false, BIG))
        .isInstanceOf(CairnException.class);
    assertThatThrownBy(() -> new AggregateCall(AggregateKind.COUNT_STAR, List.of(1), false, BIG))
        .isInstanceOf(CairnException.class);
    List<Integer> arguments = new ArrayList<>(List.of(1));
    AggregateCall call = new AggregateCall(AggregateKind.SUM, arguments, false, BIG);
    arguments.add(2);
    assertThat(call.arguments()).containsExactly(1);
  }

  @Test
  void mergingDifferentAccumulatorsIsAnInternalError() {
    Accumulator sum =
        Aggregates.create(new AggregateCall(AggregateKind.SUM, List.of(0), false, BIG));
    Accumulator max =
        Aggregates.create(new AggregateCall(AggregateKind.MAX, List.of(0), false, BIG));
    assertThatThrownBy(() -> sum.merge(max))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR));
  }
}
