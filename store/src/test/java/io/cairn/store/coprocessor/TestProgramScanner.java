package io.cairn.store.coprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.ScanProgram;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestProgramScanner {
  private static final DataType PRICE_TYPE = DataType.decimal(10, 2);

  /** Key (K BIGINT, NAME VARCHAR DESC); V INTEGER, PRICE DECIMAL(10,2), NOTE VARCHAR. */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.VARCHAR),
              new RowLayout.ColumnLayout(3, DataType.INTEGER),
              new RowLayout.ColumnLayout(4, PRICE_TYPE),
              new RowLayout.ColumnLayout(5, DataType.VARCHAR)),
          List.of(
              new RowLayout.KeyColumn(0, SortOrder.ASC),
              new RowLayout.KeyColumn(1, SortOrder.DESC)),
          false,
          1);

  private static final Expr K = new Expr.ColumnRef(0, DataType.BIGINT);
  private static final Expr NAME = new Expr.ColumnRef(1, DataType.VARCHAR);
  private static final Expr V = new Expr.ColumnRef(2, DataType.INTEGER);
  private static final Expr PRICE = new Expr.ColumnRef(3, PRICE_TYPE);
  private static final Expr NOTE = new Expr.ColumnRef(4, DataType.VARCHAR);
  private static final Expr KEY = new Expr.ColumnRef(5, DataType.VARBINARY);

  private static final EvalContext CONTEXT =
      new EvalContext(new Object[] {10}, LocalDateTime.of(2024, 2, 29, 0, 0));

  private static List<Object[]> rows() {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      rows.add(
          new Object[] {
            (long) i - 20,
            "n" + (i % 7),
            i % 5 == 0 ? null : i - 15,
            i % 4 == 0 ? null : BigDecimal.valueOf(i * 125L - 2000, 2),
            i % 3 == 0 ? null : "note " + i
          });
    }
    return rows;
  }

  private static List<Bytes[]> encode(RowLayout layout, List<Object[]> rows) {
    RowCodec codec = new RowCodec(layout);
    List<Bytes[]> cells = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Object[] row = rows.get(i);
      Bytes key = layout.hiddenRowId() ? RowCodec.encodeRowId(i * 3L) : codec.encodeKey(row);
      cells.add(new Bytes[] {key, codec.encodeValue(row)});
    }
    return cells;
  }

  private static Expr call(Op op, DataType type, Expr... operands) {
    return new Expr.Call(op, List.of(operands), type);
  }

  private static Expr literal(Object value, DataType type) {
    return new Expr.Literal(value, type);
  }

  private static List<Object[]> scan(ProgramScanner scanner) {
    List<Object[]> out = new ArrayList<>();
    try (scanner) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        out.add(row);
      }
    }
    return out;
  }

  /** What the scanner emitted before it read rows in place: decode everything, then evaluate. */
  private static List<Object[]> reference(
      ScanProgram program, List<Bytes[]> cells, EvalContext context) {
    RowCodec codec = new RowCodec(program.layout());
    List<Object[]> out = new ArrayList<>();
    for (Bytes[] cell : cells) {
      Object[] row = codec.decode(cell[0], cell[1]);
      row = Arrays.copyOf(row, row.length + 1);
      row[row.length - 1] = cell[0].toByteArray();
      Object[] finalRow = row;
      if (program.filter().isPresent()
          && !Boolean.TRUE.equals(
              ExprCompiler.compile(program.filter().get()).evaluate(finalRow, context))) {
        continue;
      }
      out.add(
          program.projection().stream()
              .map(e -> ExprCompiler.compile(e).evaluate(finalRow, context))
              .toArray());
      if (program.limit() != ScanProgram.NO_LIMIT && out.size() >= program.limit()) {
        break;
      }
    }
    return out;
  }

  @Test
  void emitsWhatDecodingEveryRowEmitted() {
    Expr likeN3 = call(Op.LIKE, DataType.BOOLEAN, NAME, literal("n3%", DataType.VARCHAR));
    List<Optional<Expr>> filters =
        List.of(
            Optional.empty(),
            Optional.of(
                call(Op.GREATER_THAN, DataType.BOOLEAN, V, new Expr.Param(0, DataType.INTEGER))),
            Optional.of(
                call(
                    Op.AND,
                    DataType.BOOLEAN,
                    call(
                        Op.GREATER_THAN_OR_EQUAL,
                        DataType.BOOLEAN,
                        PRICE,
                        literal(new BigDecimal("-5.00"), PRICE_TYPE)),
                    call(Op.EQUALS, DataType.BOOLEAN, NAME, literal("n2", DataType.chars(2))))),
            Optional.of(
                call(Op.OR, DataType.BOOLEAN, call(Op.IS_NULL, DataType.BOOLEAN, NOTE), likeN3)),
            Optional.of(call(Op.LESS_THAN, DataType.BOOLEAN, K, V)));
    List<List<Expr>> projections =
        List.of(
            List.of(),
            List.of(K, NAME, V, PRICE, NOTE),
            List.of(KEY),
            List.of(NOTE, call(Op.PLUS, DataType.BIGINT, K, V), KEY),
            List.of(call(Op.IS_NOT_NULL, DataType.BOOLEAN, KEY), PRICE));
    List<Bytes[]> cells = encode(LAYOUT, rows());
    for (Optional<Expr> filter : filters) {
      for (List<Expr> projection : projections) {
        for (long limit : new long[] {ScanProgram.NO_LIMIT, 3}) {
          ScanProgram program = new ScanProgram(LAYOUT, filter, projection, limit);
          for (boolean direct : new boolean[] {false, true}) {
            List<Object[]> actual =
                scan(new ProgramScanner(new TestingRowCursor(cells, direct), program, CONTEXT));
            List<Object[]> expected = reference(program, cells, CONTEXT);
            assertThat(actual)
                .as("%s, direct %s", program, direct)
                .usingElementComparator((a, b) -> Arrays.deepEquals(a, b) ? 0 : 1)
                .isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void scansOfEqualProgramsShareTheCompiledFormButNotTheirRows() throws Exception {
    Expr filter =
        call(
            Op.OR,
            DataType.BOOLEAN,
            call(Op.GREATER_THAN, DataType.BOOLEAN, V, new Expr.Param(0, DataType.INTEGER)),
            call(Op.LIKE, DataType.BOOLEAN, NAME, literal("n3%", DataType.VARCHAR)));
    List<Expr> projection = List.of(K, call(Op.PLUS, DataType.BIGINT, K, V), PRICE, NOTE);
    List<Bytes[]> cells = encode(LAYOUT, rows());
    EvalContext other = new EvalContext(new Object[] {-3}, LocalDateTime.of(2024, 2, 29, 0, 0));
    // equal programs (separate instances, as each execution of a statement builds its own),
    // interleaved row by row on one thread, with different parameters
    ScanProgram first =
        new ScanProgram(LAYOUT, Optional.of(filter), projection, ScanProgram.NO_LIMIT);
    ScanProgram second =
        new ScanProgram(LAYOUT, Optional.of(filter), List.copyOf(projection), ScanProgram.NO_LIMIT);
    List<Object[]> expectedFirst = reference(first, cells, CONTEXT);
    List<Object[]> expectedSecond = reference(second, cells, other);
    List<Object[]> a = new ArrayList<>();
    List<Object[]> b = new ArrayList<>();
    try (ProgramScanner x = new ProgramScanner(new TestingRowCursor(cells, true), first, CONTEXT);
        ProgramScanner y = new ProgramScanner(new TestingRowCursor(cells, false), second, other)) {
      Object[] rx = x.next();
      Object[] ry = y.next();
      while (rx != null || ry != null) {
        if (rx != null) {
          a.add(rx);
          rx = x.next();
        }
        if (ry != null) {
          b.add(ry);
          ry = y.next();
        }
      }
    }
    assertThat(a)
        .usingElementComparator((p, q) -> Arrays.deepEquals(p, q) ? 0 : 1)
        .isEqualTo(expectedFirst);
    assertThat(b)
        .usingElementComparator((p, q) -> Arrays.deepEquals(p, q) ? 0 : 1)
        .isEqualTo(expectedSecond);
    // and on several threads at once
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<List<Object[]>>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        futures.add(
            pool.submit(
                () -> scan(new ProgramScanner(new TestingRowCursor(cells, true), first, CONTEXT))));
      }
      for (java.util.concurrent.Future<List<Object[]>> f : futures) {
        assertThat(f.get())
            .usingElementComparator((p, q) -> Arrays.deepEquals(p, q) ? 0 : 1)
            .isEqualTo(expectedFirst);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anEmptyProjectionEmitsOneSharedArray() {
    ScanProgram count =
        new ScanProgram(
            LAYOUT,
            Optional.of(call(Op.GREATER_THAN, DataType.BOOLEAN, V, literal(0, DataType.INTEGER))),
            List.of(),
            ScanProgram.NO_LIMIT);
    List<Object[]> rows =
        scan(
            new ProgramScanner(new TestingRowCursor(encode(LAYOUT, rows()), true), count, CONTEXT));
    long expected = rows().stream().filter(r -> r[2] != null && (Integer) r[2] > 0).count();
    assertThat(rows).hasSize((int) expected).hasSizeGreaterThan(10);
    assertThat(rows.get(0)).isEmpty();
    assertThat(rows).allSatisfy(row -> assertThat(row).isSameAs(rows.get(0)));
  }

  @Test
  void readsTheKeyOfATableWithoutPrimaryKey() {
    RowLayout hidden = new RowLayout(LAYOUT.columns(), List.of(), true, 1);
    List<Bytes[]> cells = encode(hidden, rows());
    ScanProgram delete =
        new ScanProgram(
            hidden,
            Optional.of(call(Op.EQUALS, DataType.BOOLEAN, NAME, literal("n1", DataType.VARCHAR))),
            List.of(KEY),
            ScanProgram.NO_LIMIT);
    List<Object[]> rows =
        scan(new ProgramScanner(new TestingRowCursor(cells, false), delete, CONTEXT));
    assertThat(rows).hasSize(6);
    assertThat(RowCodec.decodeRowId(Bytes.wrap((byte[]) rows.get(0)[0]))).isEqualTo(3);
  }

  @Test
  void stopsAtTheLimitAndClosesTheCursor() {
    TestingRowCursor cursor = new TestingRowCursor(encode(LAYOUT, rows()), false);
    ProgramScanner scanner =
        new ProgramScanner(
            cursor, new ScanProgram(LAYOUT, Optional.empty(), List.of(K), 2), CONTEXT);
    assertThat(scanner.next()).containsExactly(-20L);
    assertThat(scanner.next()).containsExactly(-19L);
    assertThat(scanner.next()).isNull();
    scanner.close();
    assertThat(cursor.isClosed()).isTrue();
    assertThatThrownBy(scanner::next)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.OBJECT_CLOSED));
  }
}
