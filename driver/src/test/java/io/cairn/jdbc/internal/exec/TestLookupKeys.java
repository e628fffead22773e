package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.JoinHashTable;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.JoinProbe;
import io.cairn.planner.plan.KeyBounds;
import io.cairn.planner.plan.ValuesNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When a probe reads only its build keys' rows (a lookup join) and when it scans. */
class TestLookupKeys {
  /** (ORDERKEY INTEGER, LINE INTEGER, PART INTEGER), keyed by (ORDERKEY, LINE). */
  private static final RowLayout LINES =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.INTEGER),
              new RowLayout.ColumnLayout(2, DataType.INTEGER),
              new RowLayout.ColumnLayout(3, DataType.INTEGER)),
          List.of(
              new RowLayout.KeyColumn(0, SortOrder.ASC), new RowLayout.KeyColumn(1, SortOrder.ASC)),
          false,
          1);

  private static JoinProbe probe(int column, JoinNode.Kind kind) {
    ValuesNode build = new ValuesNode(List.of(), List.of(DataType.INTEGER, DataType.VARCHAR));
    return new JoinProbe(
        build,
        List.of(0),
        List.of(new Expr.ColumnRef(column, DataType.INTEGER)),
        kind,
        Optional.empty(),
        false);
  }

  private static JoinHashTable table(int... keys) {
    JoinHashTable.Builder b = JoinHashTable.builder(2, List.of(0));
    for (int k : keys) {
      b.add(new Object[] {k, "x" + k});
    }
    b.add(new Object[] {null, "null key"});
    return b.build();
  }

  @Test
  void fewKeysOnTheFirstKeyColumnAreLookedUpOnceEach() {
    Optional<List<KeyBounds>> bounds =
        LookupKeys.of(probe(0, JoinNode.Kind.INNER), LINES, table(7, 3, 7, 9), 1_000_000);
    assertThat(bounds).isPresent();
    assertThat(bounds.get())
        .extracting(b -> ((Expr.Literal) b.equalPrefix().get(0)).value())
        .containsExactlyInAnyOrder(3, 7, 9);
    assertThat(bounds.get()).allMatch(b -> b.lower().isEmpty() && b.upper().isEmpty());
    assertThat(LookupKeys.of(probe(0, JoinNode.Kind.SEMI), LINES, table(1), 1_000)).isPresent();
  }

  @Test
  void otherwiseTheProbeScans() {
    JoinHashTable few = table(1, 2, 3);
    assertThat(LookupKeys.of(probe(0, JoinNode.Kind.LEFT), LINES, few, 1_000_000)).isEmpty();
    assertThat(LookupKeys.of(probe(0, JoinNode.Kind.ANTI), LINES, few, 1_000_000)).isEmpty();
    // not the first key column
    assertThat(LookupKeys.of(probe(1, JoinNode.Kind.INNER), LINES, few, 1_000_000)).isEmpty();
    assertThat(LookupKeys.of(probe(2, JoinNode.Kind.INNER), LINES, few, 1_000_000)).isEmpty();
    // a table too small for the keys: a scan reads no more
    assertThat(LookupKeys.of(probe(0, JoinNode.Kind.INNER), LINES, few, 100)).isEmpty();
    int[] many = new int[LookupKeys.MAX_KEYS + 1];
    for (int i = 0; i < many.length; i++) {
      many[i] = i;
    }
    assertThat(LookupKeys.of(probe(0, JoinNode.Kind.INNER), LINES, table(many), Long.MAX_VALUE))
        .isEmpty();
  }
}
