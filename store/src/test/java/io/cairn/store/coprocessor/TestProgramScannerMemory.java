package io.cairn.store.coprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.memory.MemoryPool;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import io.cairn.store.cell.RowCursor;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What grouping and sorting scans hold counts in their memory pools: a sort is bounded like a
 * grouped aggregation, a top-N holds only its top rows, and every byte goes back when the last row
 * was emitted, when the scan fails, and when it is closed (also while a call runs).
 */
class TestProgramScannerMemory {
  /** (K BIGINT primary key, S VARCHAR(40)). */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.varchar(40))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);
  private static final DataType BIGINT = DataType.BIGINT.withNullable(false);
  private static final Expr K = new Expr.ColumnRef(0, BIGINT);
  private static final Expr S = new Expr.ColumnRef(1, DataType.varchar(40));
  private static final long SCAN_LIMIT = 256L << 20;

  /** {@code count} rows (k, "s-k-...") with distinct S values of 30 characters. */
  private static List<Bytes[]> rows(int count) {
    List<Bytes[]> rows = new ArrayList<>();
    for (long k = 0; k < count; k++) {
      Object[] row = {k, String.format("s-%08d-abcdefghijklmnopqrst", k)};
      rows.add(new Bytes[] {CODEC.encodeKey(row), CODEC.encodeValue(row)});
    }
    return rows;
  }

  /** ORDER BY S DESC over (K, S), with an offset and limit. */
  private static ScanProgram sort(long limit) {
    return new ScanProgram(
        LAYOUT,
        Optional.empty(),
        List.of(K, S),
        limit,
        0,
        List.of(),
        List.of(),
        List.of(new SortKey(1, true, false)));
  }

  /** SELECT S, COUNT(*) GROUP BY S. */
  private static ScanProgram groupByS() {
    return new ScanProgram(
        LAYOUT,
        Optional.empty(),
        List.of(S),
        ScanProgram.NO_LIMIT,
        0,
        List.of(0),
        List.of(new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, BIGINT)),
        List.of());
  }

  private static ProgramScanner scanner(
      int rowCount, ScanProgram program, long scanLimit, MemoryPool pool) {
    return new ProgramScanner(
        new TestingRowCursor(rows(rowCount), false), program, EvalContext.EMPTY, scanLimit, pool);
  }

  private static int drain(ProgramScanner scanner) {
    int n = 0;
    while (scanner.next() != null) {
      n++;
    }
    return n;
  }

  private static void assertMemoryLimit(Throwable e, String setting) {
    assertThat(e)
        .isInstanceOfSatisfying(
            CairnException.class,
            c -> {
              assertThat(c.errorCode()).isEqualTo(ErrorCode.MEMORY_LIMIT_EXCEEDED);
              assertThat(c.errorCode().sqlState()).isEqualTo("53200");
            })
        .hasMessageContaining("[" + setting + "]");
  }

  @Test
  void aSortPastTheScanLimitFailsNamingItAndGivesItsMemoryBack() {
    MemoryPool connection = MemoryPool.root("the connection", 1L << 30, "c", Duration.ZERO);
    try (ProgramScanner scanner =
        scanner(20_000, sort(ScanProgram.NO_LIMIT), 256 << 10, connection)) {
      Throwable e = catchThrowable(scanner::next);
      assertMemoryLimit(e, "cairn.aggregate.max-bytes");
      assertThat(e).hasMessageContaining("a sort in the store").hasMessageContaining("[262144]");
      // the failed sort's rows are gone at once, not only at close; the scan stays failed
      assertThat(connection.used()).isZero();
      assertThatThrownBy(scanner::next).isSameAs(e);
    }
    // the same sort fits a larger limit
    try (ProgramScanner scanner =
        scanner(20_000, sort(ScanProgram.NO_LIMIT), SCAN_LIMIT, connection)) {
      assertThat(drain(scanner)).isEqualTo(20_000);
    }
  }

  @Test
  void aSortCountsInTheCallersPoolsUntilItsLastRowIsEmitted() {
    MemoryPool server = MemoryPool.root("the server", 64L << 20, "server.setting", Duration.ZERO);
    MemoryPool connection = server.child("the connection", 32L << 20, "connection.setting");
    try (ProgramScanner scanner =
        scanner(5000, sort(ScanProgram.NO_LIMIT), SCAN_LIMIT, connection)) {
      assertThat(scanner.next()).isNotNull();
      long held = server.used();
      assertThat(held).isGreaterThan(5000L * 100).isEqualTo(connection.used());
      assertThat(scanner.reservedBytes()).isEqualTo(held);
      assertThat(drain(scanner)).isEqualTo(4999);
      assertThat(server.used()).isZero(); // drained: given back before the close
    }
    // a parent's limit fails the sort naming that parent
    MemoryPool small = server.child("the small connection", 256 << 10, "connection.setting");
    try (ProgramScanner scanner = scanner(5000, sort(ScanProgram.NO_LIMIT), SCAN_LIMIT, small)) {
      Throwable e = catchThrowable(scanner::next);
      assertMemoryLimit(e, "connection.setting");
      assertThat(e).hasMessageContaining("the small connection");
    }
    assertThat(server.used()).isZero();
  }

  @Test
  void aTopNHoldsOnlyItsTopRows() {
    // 50,000 rows of about 150 estimated bytes each would need 7 MB; the top 100 fit 256 KiB
    MemoryPool connection = MemoryPool.root("the connection", 256 << 10, "c", Duration.ZERO);
    try (ProgramScanner scanner = scanner(50_000, sort(100), SCAN_LIMIT, connection)) {
      Object[] first = scanner.next();
      assertThat(first[0]).isEqualTo(49_999L);
      assertThat(connection.used()).isPositive().isLessThanOrEqualTo(256 << 10);
      assertThat(drain(scanner)).isEqualTo(99);
      assertThat(connection.used()).isZero();
    }
  }

  @Test
  void groupsCountInTheCallersPoolsUntilTheLastIsEmittedOrTheScanCloses() {
    MemoryPool connection = MemoryPool.root("the connection", 64L << 20, "c", Duration.ZERO);
    try (ProgramScanner scanner = scanner(10_000, groupByS(), SCAN_LIMIT, connection)) {
      assertThat(scanner.next()).isNotNull();
      assertThat(connection.used()).isGreaterThan(10_000L * 100);
      assertThat(drain(scanner)).isEqualTo(9_999);
      assertThat(connection.used()).isZero();
    }
    // a scan closed after its first page (a client that reads no further) gives back at close
    ProgramScanner paged = scanner(10_000, groupByS(), SCAN_LIMIT, connection);
    assertThat(paged.next()).isNotNull();
    assertThat(connection.used()).isPositive();
    paged.close();
    assertThat(connection.used()).isZero();
    // past the caller's pool: MEMORY_LIMIT_EXCEEDED naming it, and nothing held afterwards
    MemoryPool small =
        MemoryPool.root("the small connection", 512 << 10, "small.setting", Duration.ZERO);
    try (ProgramScanner scanner = scanner(10_000, groupByS(), SCAN_LIMIT, small)) {
      assertMemoryLimit(catchThrowable(scanner::next), "small.setting");
      assertThat(small.used()).isZero();
    }
  }

  @Test
  void aCloseWhileAGroupingOrSortRunsGivesItsMemoryBack() {
    MemoryPool connection = MemoryPool.root("the connection", 64L << 20, "c", Duration.ZERO);
    for (ScanProgram program : List.of(groupByS(), sort(ScanProgram.NO_LIMIT), sort(3000))) {
      List<Bytes[]> rows = rows(20_000);
      AtomicReference<ProgramScanner> scanner = new AtomicReference<>();
      long[] heldAtClose = {-1};
      TestingRowCursor inner = new TestingRowCursor(rows, false);
      RowCursor cursor =
          new RowCursor() {
            private int read;

            @Override
            public boolean next() {
              if (++read == 10_000) {
                heldAtClose[0] = connection.used();
                scanner.get().close(); // as a cancel from another thread would, while next() runs
              }
              return inner.next();
            }

            @Override
            public byte[] keyArray() {
              return inner.keyArray();
            }

            @Override
            public int keyOffset() {
              return inner.keyOffset();
            }

            @Override
            public int keyLength() {
              return inner.keyLength();
            }

            @Override
            public ByteBuffer valueBuffer() {
              return inner.valueBuffer();
            }

            @Override
            public int valueOffset() {
              return inner.valueOffset();
            }

            @Override
            public int valueLength() {
              return inner.valueLength();
            }

            @Override
            public void close() {
              inner.close();
            }
          };
      scanner.set(new ProgramScanner(cursor, program, EvalContext.EMPTY, SCAN_LIMIT, connection));
      assertThatThrownBy(() -> scanner.get().next())
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OBJECT_CLOSED));
      assertThat(heldAtClose[0]).as(program.toString()).isPositive();
      assertThat(connection.used()).as(program.toString()).isZero();
    }
  }

  @Test
  void withoutACallersPoolTheScanLimitStillBoundsASort() {
    ProgramScanner scanner =
        new ProgramScanner(
            new TestingRowCursor(rows(20_000), false),
            sort(ScanProgram.NO_LIMIT),
            EvalContext.EMPTY,
            128 << 10);
    try (scanner) {
      assertMemoryLimit(catchThrowable(scanner::next), "cairn.aggregate.max-bytes");
    }
  }
}
