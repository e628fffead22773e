package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.memory.MemoryPool;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.SetOpNode;
import io.cairn.planner.plan.ValuesNode;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A subplan that a statement runs more than once is computed once when it ends in an aggregation;
 * every reader sees all its rows, the rows go when the readers are closed, and readers compute
 * their own when the rows do not fit the statement's memory or are gone.
 */
class TestSharedResults {
  private final KvStore store = Stores.inMemory("shared");
  private final MemoryPool pool = MemoryPool.unbounded("test");

  @AfterEach
  void closeStore() {
    store.close();
  }

  /** COUNT(*) grouped by the single column of {@code values}' rows. */
  private static AggregateNode counts(int... values) {
    List<List<Expr>> rows = new ArrayList<>();
    for (int v : values) {
      rows.add(List.of(new Expr.Literal(v, DataType.INTEGER)));
    }
    return new AggregateNode(
        new ValuesNode(rows, List.of(DataType.INTEGER)),
        List.of(0),
        List.of(List.of(0)),
        List.of(
            new AggregateCall(
                AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT.withNullable(false))),
        List.of(-1),
        AggregateNode.Step.SINGLE);
  }

  private static SetOpNode union(PlanNode a, PlanNode b) {
    return new SetOpNode(SetOpNode.Kind.UNION, true, List.of(a, b), a.outputTypes());
  }

  private ExecContext context(MemoryPool memory) {
    return new ExecContext(
        store, EvalContext.EMPTY, ExecutionControl.unlimited(), 2, 1 << 20, memory);
  }

  /** {@code node}'s rows computed by the operator, counting the operators built. */
  private static Supplier<Operator> counting(PlanNode node, ExecContext ctx, AtomicInteger builds) {
    return () -> {
      builds.incrementAndGet();
      return Operators.build(node, ctx.withShared(SharedResults.NONE));
    };
  }

  private static List<List<Object>> drain(Operator op) {
    List<List<Object>> out = new ArrayList<>();
    for (Object[] row = op.next(); row != null; row = op.next()) {
      out.add(List.of(row));
    }
    return out;
  }

  @Test
  void anAggregationReadTwiceIsComputedOnceAndReadWholeByEach() {
    AggregateNode counts = counts(1, 2, 2, 3, 3, 3);
    PlanNode plan = union(counts, counts(1, 2, 2, 3, 3, 3));
    SharedResults shared = SharedResults.of(plan);
    assertThat(shared.isEmpty()).isFalse();
    ExecContext ctx = context(pool).withShared(shared);
    AtomicInteger builds = new AtomicInteger();
    Operator first = shared.operator(counts, ctx, counting(counts, ctx, builds));
    Operator second = shared.operator(counts, ctx, counting(counts, ctx, builds));
    List<List<Object>> expected = List.of(List.of(1, 1L), List.of(2, 2L), List.of(3, 3L));
    assertThat(drain(first)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(pool.used()).as("the rows kept for the second reader").isPositive();
    assertThat(drain(second)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(builds.get()).isEqualTo(1);
    first.close();
    second.close();
    assertThat(pool.used()).as("after every reader closed").isZero();
    // a reader after the rows went computes its own
    Operator late = shared.operator(counts, ctx, counting(counts, ctx, builds));
    assertThat(drain(late)).containsExactlyInAnyOrderElementsOf(expected);
    late.close();
    assertThat(builds.get()).isEqualTo(2);
    // the whole plan, as the executor builds it
    try (Operator union = Operators.build(plan, ctx)) {
      assertThat(drain(union)).hasSize(6);
    }
  }

  @Test
  void onlyAggregationsRunMoreThanOnceAreShared() {
    AggregateNode counts = counts(1, 2);
    assertThat(SharedResults.of(counts).isEmpty()).as("run once").isTrue();
    ValuesNode values = (ValuesNode) counts.input();
    assertThat(SharedResults.of(union(values, values)))
        .as("values, not an aggregation")
        .matches(SharedResults::isEmpty);
    ProjectNode projected =
        new ProjectNode(
            counts, List.of(new Expr.ColumnRef(1, DataType.BIGINT.withNullable(false))));
    assertThat(SharedResults.of(union(projected, projected)).isEmpty())
        .as("a projection of an aggregation")
        .isFalse();
  }

  @Test
  void rowsThatDoNotFitTheStatementsMemoryAreComputedByEachReader() {
    int[] many = new int[5000];
    for (int i = 0; i < many.length; i++) {
      many[i] = i;
    }
    AggregateNode counts = counts(many);
    SharedResults shared = SharedResults.of(union(counts, counts));
    MemoryPool small = pool.child("statement", 64 << 10, "queryMemory");
    ExecContext ctx = context(small).withShared(shared);
    AtomicInteger builds = new AtomicInteger();
    Operator first = shared.operator(counts, ctx, counting(counts, ctx, builds));
    Operator second = shared.operator(counts, ctx, counting(counts, ctx, builds));
    assertThat(drain(first)).hasSize(5000);
    assertThat(drain(second)).hasSize(5000);
    assertThat(builds.get()).as("the kept rows were given up: one computation each").isEqualTo(3);
    first.close();
    second.close();
    assertThat(small.used()).isZero();
  }

  @Test
  void aFailureOfTheSharedComputationReachesItsReaderAndHoldsNoMemory() {
    AggregateNode counts = counts(1);
    SharedResults shared = SharedResults.of(union(counts, counts));
    ExecContext ctx = context(pool).withShared(shared);
    Operator failing =
        shared.operator(
            counts,
            ctx,
            () -> {
              throw new CairnException(ErrorCode.QUERY_CANCELED, "cancelled");
            });
    assertThatThrownBy(failing::next).isInstanceOf(CairnException.class).hasMessage("cancelled");
    failing.close();
    assertThat(pool.used()).isZero();
  }
}
