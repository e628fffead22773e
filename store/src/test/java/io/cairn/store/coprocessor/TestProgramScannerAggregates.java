package io.cairn.store.coprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.ScanProgram;
import io.cairn.store.cell.RowCursor;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Scan programs run over a hand-made row cursor: projected rows and partial aggregates. */
class TestProgramScannerAggregates {
  /** (K BIGINT primary key, V INTEGER, D DECIMAL(10,2)). */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.INTEGER),
              new RowLayout.ColumnLayout(3, DataType.decimal(10, 2))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);
  private static final Expr K = new Expr.ColumnRef(0, DataType.BIGINT.withNullable(false));
  private static final Expr V = new Expr.ColumnRef(1, DataType.INTEGER);
  private static final Expr D = new Expr.ColumnRef(2, DataType.decimal(10, 2));
  private static final DataType BIGINT = DataType.BIGINT.withNullable(false);

  /** K < 4 */
  private static final Expr BELOW_4 =
      new Expr.Call(
          Op.LESS_THAN, List.of(K, new Expr.Literal(4L, DataType.BIGINT)), DataType.BOOLEAN);

  private static AggregateCall call(AggregateKind kind, int argument, DataType type) {
    return new AggregateCall(
        kind, kind == AggregateKind.COUNT_STAR ? List.of() : List.of(argument), false, type);
  }

  private static final List<AggregateCall> CALLS =
      List.of(
          call(AggregateKind.COUNT_STAR, -1, BIGINT),
          call(AggregateKind.COUNT, 0, BIGINT),
          call(AggregateKind.SUM, 0, DataType.BIGINT),
          call(AggregateKind.MIN, 1, DataType.decimal(10, 2)),
          call(AggregateKind.MAX, 2, DataType.BIGINT),
          call(AggregateKind.AVG, 1, DataType.decimal(38, 12)));

  /** Rows (k, v, d): v is NULL for even k, d = k / 4. */
  private static ListRowCursor rows(int count) {
    List<Object[]> rows = new ArrayList<>();
    for (long k = 1; k <= count; k++) {
      rows.add(new Object[] {k, k % 2 == 0 ? null : (int) k, BigDecimal.valueOf(k * 25, 2)});
    }
    return new ListRowCursor(rows);
  }

  private static List<List<Object>> readAll(ProgramScanner scanner) {
    List<List<Object>> result = new ArrayList<>();
    for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
      result.add(Arrays.asList(row));
    }
    return result;
  }

  @Test
  void aggregatesTheKeptRowsIntoOneRowOfPartialStates() {
    ScanProgram program =
        new ScanProgram(
            LAYOUT, Optional.of(BELOW_4), List.of(V, D, K), ScanProgram.NO_LIMIT, CALLS);
    ListRowCursor cursor = rows(10);
    try (ProgramScanner scanner = new ProgramScanner(cursor, program, EvalContext.EMPTY)) {
      // rows 1, 2, 3: V = 1, NULL, 3; D = 0.25, 0.50, 0.75
      assertThat(readAll(scanner))
          .containsExactly(
              Arrays.asList(3L, 2L, 4L, new BigDecimal("0.25"), 3L, new BigDecimal("1.50"), 3L));
      assertThat(scanner.next()).isNull();
    }
    assertThat(cursor.closed).isTrue();
  }

  @Test
  void noRowsGiveTheEmptyStates() {
    ScanProgram program =
        new ScanProgram(
            LAYOUT, Optional.of(BELOW_4), List.of(V, D, K), ScanProgram.NO_LIMIT, CALLS);
    try (ProgramScanner scanner =
        new ProgramScanner(new ListRowCursor(List.of()), program, EvalContext.EMPTY)) {
      assertThat(readAll(scanner))
          .containsExactly(Arrays.asList(0L, 0L, null, null, null, null, 0L));
    }
  }

  @Test
  void countsRowsWithoutReadingThem() {
    ScanProgram program =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(),
            ScanProgram.NO_LIMIT,
            List.of(CALLS.get(0), CALLS.get(0)));
    ListRowCursor cursor = rows(3000);
    cursor.valuesReadable = false;
    try (ProgramScanner scanner = new ProgramScanner(cursor, program, EvalContext.EMPTY)) {
      assertThat(readAll(scanner)).containsExactly(List.of(3000L, 3000L));
    }
  }

  @Test
  void anOverflowFailsTheScan() {
    List<Object[]> rows =
        List.of(new Object[] {1L, Integer.MAX_VALUE, null}, new Object[] {2L, 1, null});
    ScanProgram program =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(V),
            ScanProgram.NO_LIMIT,
            List.of(call(AggregateKind.SUM, 0, DataType.INTEGER)));
    try (ProgramScanner scanner =
        new ProgramScanner(new ListRowCursor(rows), program, EvalContext.EMPTY)) {
      // the partial sum is exact: only the final step checks the INTEGER range
      assertThat(readAll(scanner)).containsExactly(List.of(2147483648L));
    }
    List<Object[]> big = new ArrayList<>();
    for (long k = 1; k <= 3; k++) {
      big.add(new Object[] {Long.MAX_VALUE / 3 * k, null, null});
    }
    ScanProgram sumOfKeys =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(K),
            ScanProgram.NO_LIMIT,
            List.of(call(AggregateKind.SUM, 0, DataType.BIGINT)));
    try (ProgramScanner scanner =
        new ProgramScanner(new ListRowCursor(big), sumOfKeys, EvalContext.EMPTY)) {
      assertThatThrownBy(scanner::next)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE))
          .hasMessageContaining("out of range for BIGINT");
    }
  }

  @Test
  void aCloseDuringTheScanStopsIt() {
    ScanProgram program =
        new ScanProgram(
            LAYOUT, Optional.empty(), List.of(), ScanProgram.NO_LIMIT, List.of(CALLS.get(0)));
    ListRowCursor cursor = rows(5000);
    ProgramScanner scanner = new ProgramScanner(cursor, program, EvalContext.EMPTY);
    cursor.onRow =
        n -> {
          if (n == 100) {
            scanner.close(); // as a cancel from another thread would, while next() runs
          }
        };
    assertThatThrownBy(scanner::next)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OBJECT_CLOSED));
    assertThat(cursor.rowsRead).isLessThan(5000);
    assertThat(cursor.closed).isTrue();
  }

  /** Reads with a deadline already passed: each call reads at most a check interval of rows. */
  private static List<List<Object>> readPaused(ProgramScanner scanner, int[] pauses) {
    List<List<Object>> result = new ArrayList<>();
    while (true) {
      Object[] row = scanner.next(System.nanoTime() - 1);
      if (row == null) {
        return result;
      }
      if (row == ProgramScanner.NOT_YET) {
        pauses[0]++;
      } else {
        result.add(Arrays.asList(row));
      }
    }
  }

  @Test
  void aPassedDeadlinePausesASelectiveScanWithoutLosingItsPlace() {
    // K > 4000 OR K = 7: two long stretches of rejected rows
    Expr filter =
        new Expr.Call(
            Op.OR,
            List.of(
                new Expr.Call(
                    Op.GREATER_THAN,
                    List.of(K, new Expr.Literal(4000L, DataType.BIGINT)),
                    DataType.BOOLEAN),
                new Expr.Call(
                    Op.EQUALS,
                    List.of(K, new Expr.Literal(7L, DataType.BIGINT)),
                    DataType.BOOLEAN)),
            DataType.BOOLEAN);
    ScanProgram program =
        new ScanProgram(LAYOUT, Optional.of(filter), List.of(K), ScanProgram.NO_LIMIT);
    int[] pauses = {0};
    ListRowCursor cursor = rows(4003);
    try (ProgramScanner scanner = new ProgramScanner(cursor, program, EvalContext.EMPTY)) {
      assertThat(readPaused(scanner, pauses))
          .containsExactly(List.of(7L), List.of(4001L), List.of(4002L), List.of(4003L));
    }
    assertThat(pauses[0]).isBetween(3, 5);
    assertThat(cursor.rowsRead).isEqualTo(4003);
    assertThat(cursor.closed).isTrue();

    // an aggregate keeps its partial states across the pauses
    ScanProgram aggregate =
        new ScanProgram(
            LAYOUT, Optional.of(BELOW_4), List.of(V, D, K), ScanProgram.NO_LIMIT, CALLS);
    pauses[0] = 0;
    try (ProgramScanner scanner = new ProgramScanner(rows(5000), aggregate, EvalContext.EMPTY)) {
      assertThat(readPaused(scanner, pauses))
          .containsExactly(
              Arrays.asList(3L, 2L, 4L, new BigDecimal("0.25"), 3L, new BigDecimal("1.50"), 3L));
    }
    assertThat(pauses[0]).isBetween(4, 5);
    ScanProgram count =
        new ScanProgram(
            LAYOUT, Optional.empty(), List.of(), ScanProgram.NO_LIMIT, List.of(CALLS.get(0)));
    pauses[0] = 0;
    try (ProgramScanner scanner = new ProgramScanner(rows(5000), count, EvalContext.EMPTY)) {
      assertThat(readPaused(scanner, pauses)).containsExactly(List.of(5000L));
    }
    assertThat(pauses[0]).isBetween(4, 5);
    // no deadline: never paused
    try (ProgramScanner scanner = new ProgramScanner(rows(5000), count, EvalContext.EMPTY)) {
      assertThat(readAll(scanner)).containsExactly(List.of(5000L));
    }
  }

  @Test
  void projectsRowsWithoutAggregates() {
    ScanProgram program = new ScanProgram(LAYOUT, Optional.of(BELOW_4), List.of(K, V), 2);
    try (ProgramScanner scanner = new ProgramScanner(rows(10), program, EvalContext.EMPTY)) {
      assertThat(readAll(scanner)).containsExactly(List.of(1L, 1), Arrays.asList(2L, null));
    }
  }

  @Test
  void programsCheckTheirAggregates() {
    assertThatThrownBy(
            () -> new ScanProgram(LAYOUT, Optional.empty(), List.of(K), 10, List.of(CALLS.get(0))))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("no limit");
    assertThatThrownBy(
            () ->
                new ScanProgram(
                    LAYOUT,
                    Optional.empty(),
                    List.of(K),
                    ScanProgram.NO_LIMIT,
                    List.of(call(AggregateKind.SUM, 1, DataType.BIGINT))))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("found [1]");
    assertThatThrownBy(
            () ->
                new ScanProgram(
                    LAYOUT,
                    Optional.empty(),
                    List.of(K),
                    ScanProgram.NO_LIMIT,
                    List.of(new AggregateCall(AggregateKind.COUNT, List.of(0), true, BIGINT))))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("cannot run in a scan");
  }

  /** Rows encoded with {@link #CODEC}, served like a store's cursor. */
  private static final class ListRowCursor implements RowCursor {
    private final List<Bytes> keys = new ArrayList<>();
    private final List<Bytes> values = new ArrayList<>();
    private int current = -1;
    int rowsRead;
    boolean closed;
    boolean valuesReadable = true;
    java.util.function.IntConsumer onRow = n -> {};

    ListRowCursor(List<Object[]> rows) {
      for (Object[] row : rows) {
        keys.add(CODEC.encodeKey(row));
        values.add(CODEC.encodeValue(row));
      }
    }

    @Override
    public boolean next() {
      if (current + 1 >= keys.size()) {
        return false;
      }
      current++;
      onRow.accept(++rowsRead);
      return true;
    }

    @Override
    public byte[] keyArray() {
      return keys.get(current).toByteArray();
    }

    @Override
    public int keyOffset() {
      return 0;
    }

    @Override
    public int keyLength() {
      return keys.get(current).length();
    }

    @Override
    public ByteBuffer valueBuffer() {
      if (!valuesReadable) {
        throw new AssertionError("the value was read");
      }
      return ByteBuffer.wrap(values.get(current).toByteArray());
    }

    @Override
    public int valueOffset() {
      return 0;
    }

    @Override
    public int valueLength() {
      return values.get(current).length();
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
