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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A FINAL aggregation merges however many partial rows its input has (one per scan or chunk). */
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
}
