package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.ValuesNode;
import io.cairn.store.Stores;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A FINAL aggregation merges however many partial rows its input has (one per scan or chunk); a
 * grouped one merges the pieces of a group however they come (in key order, as chunks in key order
 * send them, or not).
 */
class TestFinalAggregation {
  private static final List<AggregateCall> CALLS =
      List.of(
          new AggregateCall(
              AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT.withNullable(false)),
          new AggregateCall(AggregateKind.SUM, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.AVG, List.of(1), false, DataType.decimal(38, 12)),
          new AggregateCall(AggregateKind.MIN, List.of(2), false, DataType.varchar(5)));

  private final KvStore store = Stores.inMemory("final");

  @AfterEach
  void closeStore() {
    store.close();
  }

  private List<Object> merge(Object[]... partialRows) {
    List<DataType> types = new ArrayList<>();
    CALLS.forEach(c -> types.addAll(Aggregates.partialTypes(c)));
    List<List<Expr>> rows = new ArrayList<>();
    for (Object[] row : partialRows) {
      List<Expr> literals = new ArrayList<>();
      for (int i = 0; i < row.length; i++) {
        literals.add(new Expr.Literal(row[i], types.get(i)));
      }
      rows.add(literals);
    }
    AggregateNode node =
        new AggregateNode(
            new ValuesNode(rows, types),
            List.of(),
            List.of(List.of()),
            CALLS,
            List.of(-1, -1, -1, -1),
            AggregateNode.Step.FINAL);
    ExecContext ctx = new ExecContext(store, EvalContext.EMPTY, ExecutionControl.unlimited());
    try (Operator operator = Operators.build(node, ctx)) {
      Object[] result = operator.next();
      assertThat(operator.next()).isNull();
      return Arrays.asList(result);
    }
  }

  @Test
  void mergesEveryPartialRow() {
    assertThat(
            merge(
                new Object[] {2L, 5L, new BigDecimal("1.5"), 2L, "b"},
                new Object[] {0L, null, null, 0L, null},
                new Object[] {3L, 7L, new BigDecimal("3.0"), 2L, "a"}))
        .containsExactly(5L, 12L, new BigDecimal("1.125000000000"), "a");
  }

  @Test
  void noPartialRowsAreNoRows() {
    assertThat(merge()).containsExactly(0L, null, null, null);
  }

  /** COUNT(*) and SUM(b) by key a: partial rows (a, count, sum). */
  private static final List<AggregateCall> GROUPED_CALLS =
      List.of(
          new AggregateCall(
              AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT.withNullable(false)),
          new AggregateCall(AggregateKind.SUM, List.of(1), false, DataType.BIGINT));

  /** The merged groups, key to [count, sum], from partial rows {key, count, sum}. */
  private Map<Long, List<Object>> mergeGrouped(long aggregateMaxBytes, List<Object[]> partialRows) {
    List<DataType> types = List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT);
    List<List<Expr>> rows = new ArrayList<>();
    for (Object[] row : partialRows) {
      List<Expr> literals = new ArrayList<>();
      for (int i = 0; i < row.length; i++) {
        literals.add(new Expr.Literal(row[i], types.get(i)));
      }
      rows.add(literals);
    }
    AggregateNode node =
        new AggregateNode(
            new ValuesNode(rows, types),
            List.of(0),
            List.of(List.of(0)),
            GROUPED_CALLS,
            List.of(-1, -1),
            AggregateNode.Step.FINAL);
    ExecContext ctx =
        new ExecContext(
            store, EvalContext.EMPTY, ExecutionControl.unlimited(), 1, aggregateMaxBytes);
    Map<Long, List<Object>> groups = new TreeMap<>(java.util.Comparator.nullsFirst(Long::compare));
    try (Operator operator = Operators.build(node, ctx)) {
      for (Object[] row = operator.next(); row != null; row = operator.next()) {
        assertThat(groups).as("groups out").doesNotContainKey((Long) row[0]);
        groups.put((Long) row[0], Arrays.asList(row[1], row[2]));
      }
    }
    return groups;
  }

  /** What merging {@code partialRows} must give: key to [count, sum]. */
  private static Map<Long, List<Object>> expected(List<Object[]> partialRows) {
    Map<Long, List<Object>> groups = new TreeMap<>(java.util.Comparator.nullsFirst(Long::compare));
    for (Object[] row : partialRows) {
      List<Object> g = groups.computeIfAbsent((Long) row[0], k -> Arrays.asList(0L, null));
      g.set(0, (Long) g.get(0) + (Long) row[1]);
      if (row[2] != null) {
        g.set(1, g.get(1) == null ? (Long) row[2] : (Long) g.get(1) + (Long) row[2]);
      }
    }
    return groups;
  }

  private static Object[] piece(Long key, long count, Long sum) {
    return new Object[] {key, count, sum};
  }

  @Test
  void piecesOfAGroupNextToEachOtherInKeyOrderAreMergedIntoOneRow() {
    List<Object[]> in =
        List.of(
            piece(1L, 2, 10L),
            piece(1L, 3, 5L),
            piece(2L, 1, null),
            piece(3L, 1, 1L),
            piece(3L, 1, null),
            piece(3L, 4, 2L),
            piece(7L, 1, 7L));
    assertThat(mergeGrouped(1L << 30, in))
        .containsExactlyEntriesOf(expected(in))
        .containsEntry(1L, List.of(5L, 15L))
        .containsEntry(3L, List.of(6L, 3L));
  }

  @Test
  void aKeyBelowThePreviousOneIsMergedByHashFromThere() {
    // 3 comes again after 5 (chunks out of key order): one group 3, not two
    List<Object[]> in =
        List.of(
            piece(1L, 1, 1L),
            piece(3L, 1, 1L),
            piece(3L, 2, 2L),
            piece(5L, 1, 1L),
            piece(3L, 4, 4L),
            piece(1L, 8, 8L),
            piece(6L, 1, 1L));
    assertThat(mergeGrouped(1L << 30, in))
        .containsExactlyEntriesOf(expected(in))
        .containsEntry(3L, List.of(7L, 7L))
        .containsEntry(1L, List.of(9L, 9L));
  }

  @Test
  void nullKeysAreOneGroup() {
    List<Object[]> in =
        List.of(
            piece(1L, 1, 1L),
            piece(null, 1, 1L),
            piece(2L, 1, 1L),
            piece(null, 2, 2L),
            piece(4L, 1, 1L));
    assertThat(mergeGrouped(1L << 30, in))
        .containsExactlyEntriesOf(expected(in))
        .containsEntry(null, List.of(3L, 3L));
  }

  @Test
  void groupsPastTheMemoryLimitSpillWhateverTheirOrder() {
    Random random = new Random(7);
    List<Object[]> in = new ArrayList<>();
    for (long k = 0; k < 3_000; k++) {
      in.add(piece(k, 1, k));
      if (random.nextInt(4) == 0) {
        in.add(piece(k, 2, 1L));
      }
    }
    in.add(piece(5L, 1, 1L)); // and one out of order at the end
    assertThat(mergeGrouped(16 << 10, in)).containsExactlyEntriesOf(expected(in));
  }

  @Test
  void mostlyOrderedPiecesInRandomRuns() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      List<Object[]> in = new ArrayList<>();
      long key = random.nextInt(3);
      int rows = random.nextInt(40);
      for (int i = 0; i < rows; i++) {
        switch (random.nextInt(10)) {
          case 0 -> key -= random.nextInt(4); // a chunk out of order
          case 1, 2, 3 -> {} // another piece of the same group
          default -> key += 1 + random.nextInt(3);
        }
        Long k = random.nextInt(30) == 0 ? null : key;
        in.add(piece(k, 1 + random.nextInt(3), random.nextBoolean() ? null : (long) i));
      }
      assertThat(mergeGrouped(1L << 30, in)).as("round %s", round).isEqualTo(expected(in));
    }
  }
}
