package io.cairn.store;

import static io.cairn.store.TestingTables.K;
import static io.cairn.store.TestingTables.V;
import static io.cairn.store.TestingTables.delete;
import static io.cairn.store.TestingTables.insert;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.request;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestEmbeddedStore {
  private final EmbeddedStore store = new EmbeddedStore("test");

  @Test
  void createLookUpAndDropTables() {
    KvTable table = store.createTable("T");
    assertThat(table.name()).isEqualTo("T");
    assertThat(store.table("T")).containsSame(table);
    assertThatThrownBy(() -> store.createTable("T"))
        .isInstanceOf(CairnException.class)
        .satisfies(
            e ->
                assertThat(((CairnException) e).errorCode())
                    .isEqualTo(ErrorCode.TABLE_ALREADY_EXISTS));
    table.mutate(List.of(put(1, 1)));
    store.dropTable("T");
    store.dropTable("T");
    assertThat(store.table("T")).isEmpty();
    assertThatThrownBy(() -> table.mutate(List.of(put(2, 2))))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("dropped");
    KvTable again = store.createTable("T");
    assertThat(readAll(again, scanAll())).isEmpty();
  }

  @Test
  void allocatesConsecutiveIdsFromOne() {
    KvTable table = store.createTable("T");
    assertThat(table.allocateIds(1)).isEqualTo(1);
    assertThat(table.allocateIds(10)).isEqualTo(2);
    assertThat(table.allocateIds(1)).isEqualTo(12);
    assertThatThrownBy(() -> table.allocateIds(0)).isInstanceOf(CairnException.class);
  }

  @Test
  void putsOverwriteAndDeletesHide() {
    KvTable table = store.createTable("T");
    table.mutate(List.of(put(2, 20), put(1, 10), put(3, 30)));
    table.mutate(List.of(put(2, 21), delete(3), delete(99)));
    assertThat(readAll(table, scanAll())).containsExactly(List.of(1L, 10), List.of(2L, 21));
  }

  @Test
  void laterMutationOfTheSameKeyInABatchWins() {
    KvTable table = store.createTable("T");
    table.mutate(List.of(put(1, 1), put(1, 2), put(2, 1), delete(2)));
    assertThat(readAll(table, scanAll())).containsExactly(List.of(1L, 2));
  }

  @Test
  void failedConditionAppliesNothing() {
    KvTable table = store.createTable("T");
    table.mutate(List.of(put(5, 50)));
    assertThatThrownBy(() -> table.mutate(List.of(put(1, 1), insert(5, 51), put(9, 9))))
        .isInstanceOfSatisfying(
            ConditionFailedException.class,
            e -> {
              assertThat(e.mutationIndex()).isEqualTo(1);
              assertThat(e.errorCode()).isEqualTo(ErrorCode.DUPLICATE_KEY);
            });
    assertThat(readAll(table, scanAll())).containsExactly(List.of(5L, 50));
  }

  @Test
  void secondInsertOfTheSameKeyInABatchFails() {
    KvTable table = store.createTable("T");
    assertThatThrownBy(() -> table.mutate(List.of(insert(7, 1), put(8, 8), insert(7, 2))))
        .isInstanceOfSatisfying(
            ConditionFailedException.class, e -> assertThat(e.mutationIndex()).isEqualTo(2));
    assertThat(readAll(table, scanAll())).isEmpty();
  }

  @Test
  void tombstonesCountAsAbsent() {
    KvTable table = store.createTable("T");
    table.mutate(List.of(put(5, 50)));
    table.mutate(List.of(delete(5), insert(5, 51)));
    table.mutate(List.of(delete(5)));
    table.mutate(List.of(insert(5, 52)));
    assertThat(readAll(table, scanAll())).containsExactly(List.of(5L, 52));
  }

  @Test
  void runsFilterProjectionAndLimit() {
    KvTable table = store.createTable("T");
    for (long k = 1; k <= 10; k++) {
      table.mutate(List.of(put(k, (int) (k % 3))));
    }
    // V < 2 AND K < ?0, projecting V, K
    Expr filter =
        new Expr.Call(
            Op.AND,
            List.of(
                new Expr.Call(
                    Op.LESS_THAN,
                    List.of(V, new Expr.Literal(2, DataType.INTEGER)),
                    DataType.BOOLEAN),
                new Expr.Call(
                    Op.LESS_THAN,
                    List.of(K, new Expr.Param(0, DataType.BIGINT)),
                    DataType.BOOLEAN)),
            DataType.BOOLEAN);
    EvalContext context = new EvalContext(new Object[] {8L}, LocalDateTime.MIN);
    ScanRequest request =
        new ScanRequest(
            List.of(KeyRange.ALL),
            new ScanProgram(TestingTables.LAYOUT, Optional.of(filter), List.of(V, K), -1),
            context,
            true);
    assertThat(readAll(table, request))
        .containsExactly(
            List.of(1, 1L), List.of(0, 3L), List.of(1, 4L), List.of(0, 6L), List.of(1, 7L));
    ScanRequest limited =
        new ScanRequest(
            List.of(KeyRange.ALL),
            new ScanProgram(TestingTables.LAYOUT, Optional.of(filter), List.of(K), 2),
            context,
            true);
    assertThat(readAll(table, limited)).containsExactly(List.of(1L), List.of(3L));
    // a NULL filter result drops the row
    table.mutate(List.of(put(2, null)));
    assertThat(readAll(table, request)).doesNotContain(List.of(2L));
  }

  @Test
  void aggregatesAcrossRegionsIntoOnePartialRow() {
    KvTable table =
        store.createTable(
            "T", new TableSpec(Map.of(), List.of(TestingTables.key(10), TestingTables.key(20))));
    long count = 0;
    long sum = 0;
    for (long k = 1; k <= 30; k++) {
      Integer v = k % 5 == 0 ? null : (int) (k % 7);
      table.mutate(List.of(put(k, v)));
      if (k >= 5 && k < 25) {
        count++;
        sum += v == null ? 0 : v;
      }
    }
    List<AggregateCall> calls =
        List.of(
            new AggregateCall(
                AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT.withNullable(false)),
            new AggregateCall(AggregateKind.SUM, List.of(0), false, DataType.BIGINT),
            new AggregateCall(AggregateKind.MAX, List.of(1), false, DataType.BIGINT));
    ScanRequest request =
        new ScanRequest(
            List.of(new KeyRange(TestingTables.key(5), TestingTables.key(25))),
            new ScanProgram(
                TestingTables.LAYOUT, Optional.empty(), List.of(V, K), ScanProgram.NO_LIMIT, calls),
            EvalContext.EMPTY,
            true);
    assertThat(readAll(table, request)).containsExactly(List.of(count, sum, 24L));
    ScanRequest none =
        new ScanRequest(
            List.of(KeyRange.point(TestingTables.key(99))),
            new ScanProgram(
                TestingTables.LAYOUT, Optional.empty(), List.of(V, K), ScanProgram.NO_LIMIT, calls),
            EvalContext.EMPTY,
            true);
    assertThat(readAll(table, none)).containsExactly(java.util.Arrays.asList(0L, null, null));
  }

  @Test
  void scansRangesInOrder() {
    KvTable table = store.createTable("T");
    for (long k = -5; k <= 5; k++) {
      table.mutate(List.of(put(k, (int) k)));
    }
    List<KeyRange> ranges =
        List.of(
            new KeyRange(TestingTables.key(-4), TestingTables.key(-2)),
            KeyRange.point(TestingTables.key(0)),
            new KeyRange(TestingTables.key(4), io.cairn.core.bytes.Bytes.EMPTY));
    assertThat(readAll(table, request(ranges, Optional.empty(), List.of(K), -1)))
        .containsExactly(List.of(-4L), List.of(-3L), List.of(0L), List.of(4L), List.of(5L));
  }

  @Test
  void scannerSeesItsSnapshotOnly() {
    KvTable table = store.createTable("T");
    table.mutate(List.of(put(1, 1), put(2, 2), put(3, 3)));
    try (RowScanner scanner = table.scan(scanAll())) {
      assertThat(scanner.next()).containsExactly(1L, 1);
      table.mutate(List.of(put(2, 20), delete(3), put(4, 4)));
      assertThat(scanner.next()).containsExactly(2L, 2);
      assertThat(scanner.next()).containsExactly(3L, 3);
      assertThat(scanner.next()).isNull();
    }
    assertThat(readAll(table, scanAll()))
        .containsExactly(List.of(1L, 1), List.of(2L, 20), List.of(4L, 4));
  }

  @Test
  void closedScannerRefusesNext() {
    KvTable table = store.createTable("T");
    RowScanner scanner = table.scan(scanAll());
    scanner.close();
    assertThatThrownBy(scanner::next).isInstanceOf(CairnException.class);
  }
}
