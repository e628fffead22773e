package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.encoding.TestingBuffers;
import io.cairn.core.encoding.TestingRows;
import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link VectorFilter} over column vectors built as a scan builds them ({@link
 * RowReader#readNumbers} per row) selects exactly the rows {@link RowFilter#test} keeps when
 * complete, a superset otherwise.
 */
class TestVectorFilter {
  private static final LocalDateTime STATEMENT_TIME = LocalDateTime.of(2024, 2, 29, 10, 15, 30);
  private static final DataType PRICE = DataType.decimal(15, 2);

  /** Key (K INTEGER, KD DATE DESC); I, B, D, P DECIMAL(15,2), DT, F, S VARCHAR, TS, R FLOAT. */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.INTEGER),
              new RowLayout.ColumnLayout(2, DataType.DATE),
              new RowLayout.ColumnLayout(3, DataType.INTEGER),
              new RowLayout.ColumnLayout(4, DataType.BIGINT),
              new RowLayout.ColumnLayout(5, DataType.DOUBLE),
              new RowLayout.ColumnLayout(6, PRICE),
              new RowLayout.ColumnLayout(7, DataType.DATE),
              new RowLayout.ColumnLayout(8, DataType.BOOLEAN),
              new RowLayout.ColumnLayout(9, DataType.VARCHAR),
              new RowLayout.ColumnLayout(10, DataType.TIMESTAMP),
              new RowLayout.ColumnLayout(11, DataType.FLOAT)),
          List.of(
              new RowLayout.KeyColumn(0, SortOrder.ASC),
              new RowLayout.KeyColumn(1, SortOrder.DESC)),
          false,
          1);

  private static final int K = 0;
  private static final int KD = 1;
  private static final int I = 2;
  private static final int B = 3;
  private static final int D = 4;
  private static final int P = 5;
  private static final int DT = 6;
  private static final int F = 7;
  private static final int S = 8;
  private static final int TS = 9;
  private static final int R = 10;

  private static final Op[] COMPARISONS = {
    Op.EQUALS,
    Op.NOT_EQUALS,
    Op.LESS_THAN,
    Op.LESS_THAN_OR_EQUAL,
    Op.GREATER_THAN,
    Op.GREATER_THAN_OR_EQUAL,
    Op.IS_DISTINCT_FROM,
    Op.IS_NOT_DISTINCT_FROM
  };

  // ================================================================ properties

  @Property(tries = 300)
  void selectsWhatTheRowFilterKeeps(@ForAll long seed) {
    Random random = new Random(seed);
    List<Object[]> rows = rows(random, 1 + random.nextInt(random.nextBoolean() ? 8 : 80));
    for (int i = 0; i < 15; i++) {
      Filters filters = new Filters(random, rows);
      Expr filter = filters.filter(random.nextInt(4));
      checkFilter(LAYOUT, rows, filter, filters.context());
    }
  }

  record Case(RowLayout layout, List<Object[]> rows, long seed) {}

  @Provide
  Arbitrary<Case> randomLayouts() {
    return TestingRows.layouts()
        .flatMap(
            layout ->
                Combinators.combine(
                        TestingRows.rows(layout).list().ofMinSize(1).ofMaxSize(12),
                        Arbitraries.longs())
                    .as((rows, seed) -> new Case(layout, rows, seed)));
  }

  /** RowFilter's own random filters over random layouts (any types, CASTs, NOT, fallbacks). */
  @Property(tries = 500)
  void selectsWhatTheRowFilterKeepsOverRandomLayouts(@ForAll("randomLayouts") Case c) {
    Random random = new Random(c.seed());
    for (int i = 0; i < 6; i++) {
      TestRowFilterProperties.Filters filters =
          new TestRowFilterProperties.Filters(random, c.layout(), c.rows());
      Expr filter = filters.filter(3);
      checkFilter(c.layout(), c.rows(), filter, filters.context());
    }
  }

  /** The generator reaches every outcome often (else the properties would prove little). */
  @Test
  void filtersOfTheGeneratorAreOftenVectorized() {
    int[] outcomes = new int[Outcome.values().length];
    Random random = new Random(42);
    for (int i = 0; i < 300; i++) {
      List<Object[]> rows = rows(random, 1 + random.nextInt(60));
      Filters filters = new Filters(random, rows);
      Expr filter = filters.filter(random.nextInt(4));
      Outcome o = checkFilter(LAYOUT, rows, filter, filters.context());
      outcomes[o.ordinal()]++;
    }
    assertThat(outcomes[Outcome.COMPLETE.ordinal()])
        .as(Arrays.toString(outcomes))
        .isGreaterThan(100);
    assertThat(outcomes[Outcome.INCOMPLETE.ordinal()])
        .as(Arrays.toString(outcomes))
        .isGreaterThan(20);
    assertThat(outcomes[Outcome.NONE.ordinal()]).as(Arrays.toString(outcomes)).isGreaterThan(20);
    assertThat(outcomes[Outcome.SKIPPED.ordinal()]).as(Arrays.toString(outcomes)).isLessThan(30);
  }

  // ================================================================ examples

  @Test
  void q6IsCompleteAndReadsEachColumnOnce() {
    RowLayout lineitem =
        new RowLayout(
            List.of(
                new RowLayout.ColumnLayout(1, DataType.BIGINT), // L_ORDERKEY
                new RowLayout.ColumnLayout(2, PRICE), // L_QUANTITY
                new RowLayout.ColumnLayout(3, PRICE), // L_EXTENDEDPRICE
                new RowLayout.ColumnLayout(4, PRICE), // L_DISCOUNT
                new RowLayout.ColumnLayout(5, DataType.DATE)), // L_SHIPDATE
            List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
            false,
            1);
    Expr quantity = new Expr.ColumnRef(1, PRICE);
    Expr discount = new Expr.ColumnRef(3, PRICE);
    Expr shipdate = new Expr.ColumnRef(4, DataType.DATE);
    Expr q6 =
        and(
            call(Op.GREATER_THAN_OR_EQUAL, shipdate, date("1994-01-01")),
            call(Op.LESS_THAN, shipdate, date("1995-01-01")),
            call(
                Op.GREATER_THAN_OR_EQUAL,
                discount,
                new Expr.Call(
                    Op.MINUS, List.of(decimal("0.06"), decimal("0.01")), DataType.decimal(4, 2))),
            call(
                Op.LESS_THAN_OR_EQUAL,
                discount,
                new Expr.Call(
                    Op.PLUS, List.of(decimal("0.06"), decimal("0.01")), DataType.decimal(4, 2))),
            call(Op.LESS_THAN, quantity, literal(24, DataType.INTEGER)));
    VectorFilter vf = RowFilter.compile(q6, lineitem).bind(EvalContext.EMPTY).vectorFilter();
    assertThat(vf).isNotNull();
    assertThat(vf.complete()).isTrue();
    // the two bounds of a column are one range: three passes over a block
    assertThat(vf).hasToString("VectorFilter[AND[#4 IN [8766, 9130], #3 IN [5, 7], #1 <= 2399]]");
    assertThat(vf.columns())
        .containsExactly(
            new VectorColumn(4, RowReader.LONG, 0),
            new VectorColumn(3, RowReader.DECIMAL_AT_SCALE, 2),
            new VectorColumn(1, RowReader.DECIMAL_AT_SCALE, 2));
    List<Object[]> rows = new ArrayList<>();
    Random random = new Random(6);
    for (int i = 0; i < 700; i++) {
      rows.add(
          new Object[] {
            (long) i,
            random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(5000), 2),
            BigDecimal.valueOf(random.nextInt(1_000_000), 2),
            BigDecimal.valueOf(random.nextInt(11), 2),
            LocalDate.of(1993, 6, 1).plusDays(random.nextInt(800))
          });
    }
    rows.add(
        new Object[] {
          1000L, new BigDecimal("23.99"), BigDecimal.ONE, d("0.05"), dateOf("1994-01-01")
        });
    rows.add(
        new Object[] {
          1001L, new BigDecimal("24.00"), BigDecimal.ONE, d("0.07"), dateOf("1994-12-31")
        });
    rows.add(
        new Object[] {
          1002L, new BigDecimal("23.99"), BigDecimal.ONE, d("0.07"), dateOf("1995-01-01")
        });
    int selected = check(lineitem, rows, q6, EvalContext.EMPTY, vf).selected();
    assertThat(selected).isBetween(10, 200);
  }

  @Test
  void aLikeWithAnyCharacterLeavesItIncomplete() {
    Expr like = call(Op.LIKE, column(S), literal("a_", DataType.VARCHAR));
    Expr filter = and(call(Op.LESS_THAN, column(I), literal(5, DataType.INTEGER)), like);
    RowFilter rowFilter = RowFilter.compile(filter, LAYOUT);
    VectorFilter vf = rowFilter.vectorFilter();
    assertThat(vf).isNotNull();
    assertThat(vf.complete()).isFalse();
    assertThat(vf.columns()).containsExactly(new VectorColumn(I, RowReader.LONG, 0));
    List<Object[]> rows =
        List.of(
            row(1, 4, "ab"),
            row(2, 4, "ba"),
            row(3, 5, "ab"),
            row(4, null, "ab"),
            row(5, -9, null));
    Result r = check(LAYOUT, rows, filter, EvalContext.EMPTY, vf);
    assertThat(r.selection()).containsExactly(0, 1, 4); // I < 5; the caller then tests LIKE
    assertThat(r.kept()).containsExactly(0);
  }

  /**
   * LIKE and NOT LIKE of literal runs and {@code %} over a VARCHAR's bytes however long (BYTES):
   * complete, and NULL in neither (UNKNOWN); alone, in an AND, in an OR.
   */
  @Test
  void aLikeOfRunsIsTestedOnTheValuesBytes() {
    List<Object[]> rows =
        List.of(
            row(1, 4, "aé special requests"),
            row(2, 4, "special"),
            row(3, 5, "a"),
            row(4, null, ""),
            row(5, -9, null),
            row(6, 1, "requests, special"),
            row(7, 2, "spécial requests aé"));
    Expr like = call(Op.LIKE, column(S), literal("%special%requests%", DataType.VARCHAR));
    Expr less = call(Op.LESS_THAN, column(I), literal(5, DataType.INTEGER));
    VectorColumn bytes = new VectorColumn(S, VectorColumn.BYTES, 0);
    for (Expr filter :
        List.of(
            like,
            call(Op.NOT, like),
            call(Op.LIKE, column(S), literal("a%", DataType.VARCHAR)),
            call(Op.LIKE, column(S), literal("%aé", DataType.VARCHAR)),
            call(Op.LIKE, column(S), literal("a", DataType.VARCHAR)),
            call(Op.LIKE, column(S), literal("", DataType.VARCHAR)),
            call(Op.LIKE, column(S), literal("%", DataType.VARCHAR)),
            call(Op.NOT, call(Op.LIKE, column(S), literal("%", DataType.VARCHAR))),
            and(less, call(Op.NOT, like)),
            or(less, like))) {
      VectorFilter vf = RowFilter.compile(filter, LAYOUT).vectorFilter();
      assertThat(vf).as("%s", filter).isNotNull();
      assertThat(vf.complete()).as("%s", filter).isTrue();
      assertThat(vf.columns()).as("%s", filter).contains(bytes);
      Result r = check(LAYOUT, rows, filter, EvalContext.EMPTY, vf);
      assertThat(r.selection()).as("%s", filter).isEqualTo(r.kept());
    }
    assertThat(selection(like, rows)).containsExactly(0);
    assertThat(selection(call(Op.NOT, like), rows)).containsExactly(1, 2, 3, 5, 6);
  }

  @Test
  void anOrWithALikeOfAnyCharacterIsNotVectorized() {
    Expr like = call(Op.LIKE, column(S), literal("a_", DataType.VARCHAR));
    Expr less = call(Op.LESS_THAN, column(I), literal(5, DataType.INTEGER));
    assertThat(RowFilter.compile(or(less, like), LAYOUT).vectorFilter()).isNull();
    assertThat(RowFilter.compile(like, LAYOUT).vectorFilter()).isNull();
    assertThat(RowFilter.compile(call(Op.NOT, less), LAYOUT).vectorFilter()).isNull();
    // the OR is left out of an AND, which is then incomplete
    VectorFilter vf = RowFilter.compile(and(less, or(less, like)), LAYOUT).vectorFilter();
    assertThat(vf.complete()).isFalse();
    // an AND of nothing but what is left out is not vectorized
    assertThat(RowFilter.compile(and(like, or(less, like)), LAYOUT).vectorFilter()).isNull();
  }

  @Test
  void nullRowsFollowTheComparisonsRules() {
    List<Object[]> rows =
        List.of(row(1, 4, "a"), row(2, null, "b"), row(3, 5, "c"), row(4, null, null));
    Expr five = literal(5, DataType.INTEGER);
    assertThat(selection(call(Op.LESS_THAN, column(I), five), rows)).containsExactly(0);
    assertThat(selection(call(Op.NOT_EQUALS, column(I), five), rows)).containsExactly(0);
    assertThat(selection(call(Op.IS_DISTINCT_FROM, column(I), five), rows))
        .containsExactly(0, 1, 3);
    assertThat(selection(call(Op.IS_NOT_DISTINCT_FROM, column(I), five), rows)).containsExactly(2);
    assertThat(selection(call(Op.IS_NULL, column(I)), rows)).containsExactly(1, 3);
    assertThat(selection(call(Op.IS_NOT_NULL, column(I)), rows)).containsExactly(0, 2);
    Expr nullLiteral = literal(null, DataType.INTEGER);
    assertThat(selection(call(Op.IS_DISTINCT_FROM, column(I), nullLiteral), rows))
        .containsExactly(0, 2);
    assertThat(selection(call(Op.EQUALS, column(I), nullLiteral), rows)).isEmpty();
    // NULL IN (...) is UNKNOWN; 4 IN (5, NULL) is UNKNOWN
    Expr in = new Expr.Call(Op.IN, List.of(column(I), five, nullLiteral), DataType.BOOLEAN);
    assertThat(selection(in, rows)).containsExactly(2);
    Expr columns = call(Op.IS_NOT_DISTINCT_FROM, column(I), column(K));
    assertThat(selection(columns, rows)).isEmpty();
    Expr columnsDistinct = call(Op.IS_DISTINCT_FROM, column(I), column(K));
    assertThat(selection(columnsDistinct, rows)).containsExactly(0, 1, 2, 3);
  }

  @Test
  void decimalConstantsAreComparedExactlyAtTheColumnsScale() {
    List<Object[]> rows = new ArrayList<>();
    String[] prices = {"0.05", "0.06", "0.07", "-0.06", "-0.07", "0.00", "1.00"};
    for (int i = 0; i < prices.length; i++) {
      Object[] row = row(i, 0, "x");
      row[P] = new BigDecimal(prices[i]);
      rows.add(row);
    }
    Expr k = decimal("0.065");
    assertThat(selection(call(Op.LESS_THAN, column(P), k), rows)).containsExactly(0, 1, 3, 4, 5);
    assertThat(selection(call(Op.LESS_THAN_OR_EQUAL, column(P), k), rows))
        .containsExactly(0, 1, 3, 4, 5);
    assertThat(selection(call(Op.GREATER_THAN, column(P), k), rows)).containsExactly(2, 6);
    assertThat(selection(call(Op.EQUALS, column(P), k), rows)).isEmpty();
    assertThat(selection(call(Op.NOT_EQUALS, column(P), k), rows))
        .containsExactly(0, 1, 2, 3, 4, 5, 6);
    Expr minus = decimal("-0.065");
    assertThat(selection(call(Op.GREATER_THAN_OR_EQUAL, column(P), minus), rows))
        .containsExactly(0, 1, 2, 3, 5, 6);
    assertThat(selection(call(Op.LESS_THAN, column(P), minus), rows)).containsExactly(4);
    assertThat(selection(call(Op.EQUALS, column(P), decimal("0.0600")), rows)).containsExactly(1);
    assertThat(selection(call(Op.EQUALS, column(P), literal(1, DataType.INTEGER)), rows))
        .containsExactly(6);
    assertThat(selection(call(Op.LESS_THAN, column(P), literal(0.065, DataType.DOUBLE)), rows))
        .isNull(); // a DECIMAL against a double: not vectorized
    Expr huge = decimal("123456789012345678.9");
    assertThat(selection(call(Op.LESS_THAN, column(P), huge), rows)).hasSize(7);
    assertThat(selection(call(Op.GREATER_THAN, column(P), huge), rows)).isEmpty();
  }

  /**
   * A comparison no long at the column's scale can satisfy still reads the column, so that a caller
   * sees its NUMBER_UNFIT rows (values beyond the longs, which may satisfy it) and reads them one
   * at a time rather than skipping them (found by the random layouts: DECIMAL(38,10) >= 10^18).
   */
  @Test
  void aComparisonNoLongSatisfiesStillReadsItsColumn() {
    DataType wide = DataType.decimal(38, 10);
    RowLayout layout =
        new RowLayout(List.of(new RowLayout.ColumnLayout(1, wide)), List.of(), true, 1);
    Expr x = new Expr.ColumnRef(0, wide);
    Expr k = new Expr.Literal(BigDecimal.TEN.pow(18), DataType.of(TypeName.DECIMAL));
    for (Op op : List.of(Op.GREATER_THAN_OR_EQUAL, Op.GREATER_THAN, Op.EQUALS)) {
      VectorFilter f =
          RowFilter.compile(new Expr.Call(op, List.of(x, k), DataType.BOOLEAN), layout)
              .vectorFilter();
      assertThat(f).as("%s", op).isNotNull();
      assertThat(f.columns())
          .as("%s: %s", op, f)
          .containsExactly(new VectorColumn(0, RowReader.DECIMAL_AT_SCALE, 10));
    }
  }

  @Test
  void doublesOrderNaNAboveEverythingAndZerosEqual() {
    double[] values = {
      Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 1.5
    };
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      Object[] row = row(i, 0, "x");
      row[D] = values[i];
      rows.add(row);
    }
    Expr zero = literal(0.0, DataType.DOUBLE);
    Expr nan = literal(Double.NaN, DataType.DOUBLE);
    assertThat(selection(call(Op.EQUALS, column(D), zero), rows)).containsExactly(1, 2);
    assertThat(selection(call(Op.GREATER_THAN, column(D), zero), rows)).containsExactly(0, 4, 5);
    assertThat(selection(call(Op.LESS_THAN, column(D), zero), rows)).containsExactly(3);
    assertThat(
            selection(
                call(Op.GREATER_THAN_OR_EQUAL, column(D), literal(-0.0, DataType.DOUBLE)), rows))
        .containsExactly(0, 1, 2, 4, 5);
    assertThat(selection(call(Op.LESS_THAN, column(D), nan), rows)).containsExactly(1, 2, 3, 4, 5);
    assertThat(selection(call(Op.EQUALS, column(D), nan), rows)).containsExactly(0);
    Expr big = literal(Long.MAX_VALUE, DataType.BIGINT); // between two doubles
    assertThat(selection(call(Op.GREATER_THAN, column(D), big), rows)).containsExactly(0, 4);
  }

  @Test
  void scratchGrowsWithTheBlocksAndIsReused() {
    Random random = new Random(7);
    Expr filter =
        or(
            call(Op.LESS_THAN, column(I), literal(0, DataType.INTEGER)),
            and(call(Op.IS_NULL, column(D)), column(F)));
    VectorFilter vf = RowFilter.compile(filter, LAYOUT).vectorFilter();
    assertThat(vf.complete()).isTrue();
    for (int size : new int[] {3, 500, 20, 1200, 1, 64}) {
      check(LAYOUT, rows(random, size), filter, EvalContext.EMPTY, vf);
    }
  }

  @Test
  void unboundParametersAreLeftOutUntilBound() {
    Expr filter =
        and(
            call(Op.GREATER_THAN, column(I), new Expr.Param(0, DataType.INTEGER)),
            call(Op.IS_NOT_NULL, column(B)));
    RowFilter unbound = RowFilter.compile(filter, LAYOUT);
    assertThat(unbound.vectorFilter().complete()).isFalse();
    EvalContext context = new EvalContext(new Object[] {"3"}, STATEMENT_TIME);
    VectorFilter bound = unbound.bind(context).vectorFilter();
    assertThat(bound.complete()).isTrue();
    check(LAYOUT, rows(new Random(3), 50), filter, context, bound);
  }

  /**
   * Equalities of CHAR and VARCHAR value columns with constants run over the vectors of their
   * bytes: a CHAR's without its padding (short ones as longs, long ones among the vector's
   * strings), a VARCHAR's exactly; orderings are left to the rows.
   */
  @Test
  void stringEqualitiesRunOverTheVectorsOfTheirBytes() {
    RowLayout layout =
        new RowLayout(
            List.of(
                new RowLayout.ColumnLayout(1, DataType.INTEGER),
                new RowLayout.ColumnLayout(2, DataType.chars(17)),
                new RowLayout.ColumnLayout(3, DataType.varchar(20))),
            List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
            false,
            1);
    String[] chars = {"MAIL", "SHIP", "DELIVER IN PERSON", "COLLECT COD", "AIR REG", "", null};
    String[] varchars = {"MAIL", "MAIL ", "SHIP", null, "AIR REG"};
    List<Object[]> rows = new ArrayList<>();
    Random random = new Random(11);
    for (int k = 0; k < 200; k++) {
      String c = chars[random.nextInt(chars.length)];
      rows.add(
          new Object[] {
            k, c == null ? null : c + " ".repeat(17 - c.length()), varchars[random.nextInt(5)]
          });
    }
    Expr charColumn = new Expr.ColumnRef(1, DataType.chars(17));
    Expr varcharColumn = new Expr.ColumnRef(2, DataType.varchar(20));
    List<Expr> complete =
        List.of(
            call(Op.EQUALS, charColumn, literal("MAIL", DataType.chars(4))),
            call(Op.EQUALS, charColumn, literal("DELIVER IN PERSON", DataType.chars(17))),
            call(Op.NOT_EQUALS, charColumn, literal("COLLECT COD   ", DataType.chars(14))),
            call(Op.NOT_EQUALS, charColumn, literal("MISSING AND LONG", DataType.chars(16))),
            call(Op.EQUALS, charColumn, literal("", DataType.chars(1))),
            or(
                call(Op.EQUALS, charColumn, literal("MAIL", DataType.chars(4))),
                call(Op.EQUALS, charColumn, literal("SHIP", DataType.chars(4)))),
            call(Op.EQUALS, varcharColumn, literal("MAIL", DataType.VARCHAR)),
            call(Op.NOT_EQUALS, varcharColumn, literal("MAIL ", DataType.VARCHAR)),
            call(Op.EQUALS, varcharColumn, literal("AIR REG", DataType.chars(7))));
    for (Expr filter : complete) {
      RowFilter compiled = RowFilter.compile(filter, layout);
      assertThat(compiled.vectorFilter()).as("%s", filter).isNotNull();
      assertThat(compiled.vectorFilter().complete()).as("%s", filter).isTrue();
      Result r = check(layout, rows, compiled, EvalContext.EMPTY, compiled.vectorFilter(), filter);
      assertThat(r.outcome()).as("%s", filter).isEqualTo(Outcome.COMPLETE);
    }
    Expr ordering = call(Op.LESS_THAN, charColumn, literal("MAIL", DataType.chars(4)));
    RowFilter compiled = RowFilter.compile(ordering, layout);
    assertThat(compiled.vectorFilter() == null || !compiled.vectorFilter().complete()).isTrue();
  }

  // ================================================================ checking

  enum Outcome {
    COMPLETE,
    INCOMPLETE,
    NONE,
    SKIPPED
  }

  record Result(Outcome outcome, int selected, List<Integer> selection, List<Integer> kept) {}

  /** The rows {@code filter} selects over {@link #LAYOUT}'s rows, or null when not vectorized. */
  private static List<Integer> selection(Expr filter, List<Object[]> rows) {
    RowFilter rowFilter = RowFilter.compile(filter, LAYOUT);
    if (rowFilter.vectorFilter() == null) {
      return null;
    }
    Result r = check(LAYOUT, rows, filter, EvalContext.EMPTY, rowFilter.vectorFilter());
    assertThat(r.outcome()).isEqualTo(Outcome.COMPLETE);
    return r.selection();
  }

  /**
   * Checks the vector filters of {@code filter} bound to {@code context} and unbound against
   * RowFilter.test on every row; the bound one's outcome.
   */
  private static Outcome checkFilter(
      RowLayout layout, List<Object[]> rows, Expr filter, EvalContext context) {
    RowFilter unbound;
    try {
      unbound = RowFilter.compile(filter, layout);
    } catch (RuntimeException e) {
      return Outcome.SKIPPED; // an ill-typed random filter
    }
    check(layout, rows, unbound, context, unbound.vectorFilter(), filter);
    RowFilter bound = unbound.bind(context);
    return check(layout, rows, bound, context, bound.vectorFilter(), filter).outcome();
  }

  private static Result check(
      RowLayout layout, List<Object[]> rows, Expr filter, EvalContext context, VectorFilter vf) {
    RowFilter bound = RowFilter.compile(filter, layout).bind(context);
    return check(layout, rows, bound, context, vf, filter);
  }

  private static Result check(
      RowLayout layout,
      List<Object[]> rows,
      RowFilter rowFilter,
      EvalContext context,
      VectorFilter vf,
      Expr filter) {
    if (vf == null) {
      return new Result(Outcome.NONE, 0, List.of(), List.of());
    }
    Block block = Block.of(layout, rows, vf.columns());
    if (block == null) {
      return new Result(Outcome.SKIPPED, 0, List.of(), List.of());
    }
    int[] selection = new int[rows.size() + 3];
    Arrays.fill(selection, -7);
    int n = vf.select(block, selection);
    // a second call over the same block selects the same rows (scratch left clean)
    int[] again = new int[rows.size()];
    assertThat(vf.select(block, again)).isEqualTo(n);
    assertThat(Arrays.copyOf(again, n)).isEqualTo(Arrays.copyOf(selection, n));
    // from a selection of the rows (every other one, in place): the rows of both
    int[] odd = new int[rows.size()];
    int inCount = 0;
    for (int i = 1; i < rows.size(); i += 2) {
      odd[inCount++] = i;
    }
    int m = vf.select(block, odd, inCount, odd);
    assertThat(Arrays.copyOf(odd, m))
        .isEqualTo(Arrays.stream(selection, 0, n).filter(i -> i % 2 == 1).toArray());
    List<Integer> selected = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      selected.add(selection[j]);
    }
    String what =
        "filter "
            + filter
            + "\n compiled "
            + rowFilter
            + "\n vector "
            + vf
            + "\n columns "
            + vf.columns()
            + "\n context "
            + context
            + "\n selected "
            + selected;
    for (int j = 0; j < n; j++) {
      assertThat(selection[j])
          .as(what)
          .isBetween(j == 0 ? 0 : selection[j - 1] + 1, rows.size() - 1);
    }
    RowCodec codec = new RowCodec(layout);
    RowReader reader = new RowReader(layout, null);
    List<Integer> kept = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Object[] row = rows.get(i);
      TestingBuffers.reset(
          reader, codec.encodeKey(row), codec.encodeValue(row), 2, TestingBuffers.Kind.HEAP);
      boolean keeps;
      try {
        keeps = rowFilter.test(reader, context);
      } catch (RuntimeException e) {
        assertThat(vf.complete()).as("raised %s: %s", e, what).isFalse();
        continue; // an error of a fallback, which the vectors leave out
      }
      if (keeps) {
        kept.add(i);
      }
      String rowWhat = what + "\n row " + i + " " + Arrays.deepToString(row);
      if (vf.complete()) {
        assertThat(selected.contains(i)).as(rowWhat).isEqualTo(keeps);
      } else if (keeps) {
        assertThat(selected.contains(i)).as(rowWhat).isTrue();
      }
    }
    return new Result(vf.complete() ? Outcome.COMPLETE : Outcome.INCOMPLETE, n, selected, kept);
  }

  /**
   * The vectors of {@code columns} of {@code rows} as a scan builds them: {@link
   * RowReader#readNumbers} per row, junk in the value slots of NULL rows, status null when every
   * row has a value.
   */
  record Block(List<VectorColumn> columns, NumberVector[] vectors, int size)
      implements ColumnVectors {
    /** Null when some row of some column is NUMBER_UNFIT (the scan reads that block per row). */
    static Block of(RowLayout layout, List<Object[]> rows, List<VectorColumn> columns) {
      int n = rows.size();
      int c = columns.size();
      int[] indexes = new int[c];
      byte[] kinds = new byte[c];
      int[] scales = new int[c];
      byte[][] status = new byte[c][n];
      long[][] longs = new long[c][];
      double[][] doubles = new double[c][];
      Random junk = new Random(n);
      List<List<byte[]>> strings = new ArrayList<>();
      byte[][] heaps = new byte[c][0];
      for (int i = 0; i < c; i++) {
        strings.add(new ArrayList<>());
        VectorColumn column = columns.get(i);
        indexes[i] = column.column();
        kinds[i] = column.kind();
        scales[i] = column.scale();
        if (column.kind() == RowReader.DOUBLE) {
          doubles[i] = new double[n];
          for (int r = 0; r < n; r++) {
            doubles[i][r] = junk.nextBoolean() ? Double.NaN : junk.nextGaussian();
          }
        } else {
          longs[i] = new long[n];
          for (int r = 0; r < n; r++) {
            longs[i][r] = junk.nextBoolean() ? junk.nextInt(100) : junk.nextLong();
          }
        }
      }
      RowCodec codec = new RowCodec(layout);
      RowReader reader = new RowReader(layout, null);
      for (int r = 0; r < n; r++) {
        Object[] row = rows.get(r);
        Bytes key = codec.encodeKey(row);
        Bytes value = codec.encodeValue(row);
        TestingBuffers.reset(reader, key, value, 1, TestingBuffers.Kind.HEAP);
        for (int i = 0; i < c; i++) {
          if (kinds[i] == VectorColumn.BYTES) {
            // as a data block's vectors hold a value's bytes: one after the other
            if (reader.isNull(indexes[i])) {
              status[i][r] = RowReader.NUMBER_NULL;
            } else {
              int length = reader.valueBytesLength(indexes[i]);
              byte[] heap = Arrays.copyOf(heaps[i], heaps[i].length + length);
              reader.copyValueBytes(indexes[i], heap, heaps[i].length);
              longs[i][r] = VectorColumn.slice(heaps[i].length, length);
              heaps[i] = heap;
              status[i][r] = RowReader.NUMBER_VALUE;
            }
          } else if (!VectorColumn.isShort(kinds[i])) {
            reader.readNumbers(
                new int[] {indexes[i]},
                new byte[] {kinds[i]},
                new int[] {scales[i]},
                new byte[][] {status[i]},
                new long[][] {longs[i]},
                new double[][] {doubles[i]},
                r);
          } else if (reader.isNull(indexes[i])) {
            status[i][r] = RowReader.NUMBER_NULL;
          } else {
            // as a data block's vectors hold strings: short ones as longs, a CHAR's long ones
            // (trimmed) each once among the vector's strings
            boolean chars = kinds[i] == VectorColumn.SHORT_CHARS;
            long v = chars ? reader.shortChars(indexes[i]) : reader.shortBytes(indexes[i]);
            if (v == RowReader.NOT_SHORT && chars) {
              byte[] bytes = reader.trimmedChars(indexes[i]);
              List<byte[]> known = strings.get(i);
              int at = 0;
              while (at < known.size() && !Arrays.equals(known.get(at), bytes)) {
                at++;
              }
              if (at == known.size()) {
                known.add(bytes);
              }
              v = VectorColumn.LONG_STRING | at;
            }
            longs[i][r] = v;
            status[i][r] =
                v == RowReader.NOT_SHORT ? RowReader.NUMBER_UNFIT : RowReader.NUMBER_VALUE;
          }
        }
      }
      NumberVector[] vectors = new NumberVector[c];
      for (int i = 0; i < c; i++) {
        int nulls = 0;
        for (int r = 0; r < n; r++) {
          if (status[i][r] == RowReader.NUMBER_UNFIT) {
            return null;
          }
          nulls += status[i][r] == RowReader.NUMBER_NULL ? 1 : 0;
        }
        vectors[i] =
            new NumberVector(
                nulls == 0 ? null : status[i],
                longs[i],
                doubles[i],
                nulls,
                0,
                strings.get(i).isEmpty() ? null : strings.get(i).toArray(new byte[0][]),
                kinds[i] == VectorColumn.BYTES ? heaps[i] : null);
      }
      return new Block(columns, vectors, n);
    }

    @Override
    public NumberVector numbers(VectorColumn column) {
      int i = columns.indexOf(column);
      if (i < 0) {
        throw new IllegalArgumentException("Undeclared " + column);
      }
      return vectors[i];
    }
  }

  // ================================================================ rows and filters

  /** Rows of {@link #LAYOUT}: edge values, values near each other, NULLs at a per-call rate. */
  private static List<Object[]> rows(Random random, int n) {
    double nullRate = new double[] {0, 0.05, 0.3}[random.nextInt(3)];
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Object[] row = new Object[LAYOUT.columnCount()];
      row[K] = i; // distinct keys
      row[KD] = LocalDate.ofEpochDay(8766 + random.nextInt(400) - 200);
      for (int c = I; c < row.length; c++) {
        row[c] = random.nextDouble() < nullRate ? null : value(random, c);
      }
      rows.add(row);
    }
    return rows;
  }

  private static Object value(Random random, int column) {
    boolean edge = random.nextInt(4) == 0;
    return switch (column) {
      case I ->
          edge
              ? pick(random, 0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 23, 24)
              : random.nextInt(60) - 10;
      case B ->
          edge
              ? pick(random, 0L, Long.MAX_VALUE, Long.MIN_VALUE, (1L << 53) + 1, -(1L << 53) - 1)
              : (long) random.nextInt(60) - 10;
      case D, R -> {
        double d =
            edge
                ? pick(
                    random,
                    Double.NaN,
                    -0.0,
                    0.0,
                    Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY,
                    Double.MIN_VALUE,
                    0x1p63,
                    -0x1p63,
                    0.065)
                : (random.nextInt(200) - 50) / 8.0;
        yield column == R ? (Object) (float) d : (Object) d;
      }
      case P ->
          BigDecimal.valueOf(
              edge
                  ? pick(random, 999_999_999_999_999L, -999_999_999_999_999L, 0L, 6L, 7L, 5L, -6L)
                  : random.nextInt(4000) - 1000,
              2);
      case DT ->
          LocalDate.ofEpochDay(
              edge ? pick(random, 0, -1, -800_000, 800_000) : 8766 + random.nextInt(800) - 400);
      case F -> random.nextBoolean();
      case S -> pick(random, "", "a", "ab", "b", "ba");
      case TS -> STATEMENT_TIME.plusSeconds(random.nextInt(5) - 2);
      default -> throw new IllegalArgumentException("column " + column);
    };
  }

  @SafeVarargs
  private static <T> T pick(Random random, T... values) {
    return values[random.nextInt(values.length)];
  }

  /** Random filters over {@link #LAYOUT}, mostly of the vectorized shapes. */
  private static final class Filters {
    private final Random random;
    private final List<Object[]> rows;
    private final List<Object> parameters = new ArrayList<>();

    Filters(Random random, List<Object[]> rows) {
      this.random = random;
      this.rows = rows;
    }

    EvalContext context() {
      return new EvalContext(parameters.toArray(), STATEMENT_TIME);
    }

    Expr filter(int depth) {
      if (depth == 0) {
        return leaf();
      }
      return switch (random.nextInt(9)) {
        case 0, 1, 2 -> new Expr.Call(Op.AND, children(depth), DataType.BOOLEAN);
        case 3, 4 -> new Expr.Call(Op.OR, children(depth), DataType.BOOLEAN);
        case 5 -> call(random.nextBoolean() ? Op.NOT : Op.IS_TRUE, filter(depth - 1));
        default -> leaf();
      };
    }

    private List<Expr> children(int depth) {
      List<Expr> children = new ArrayList<>();
      int n = 2 + random.nextInt(3);
      for (int i = 0; i < n; i++) {
        children.add(filter(depth - 1));
      }
      return children;
    }

    private Expr leaf() {
      int r = random.nextInt(20);
      if (r == 0) {
        return call(Op.LIKE, column(S), literal(pick(random, "a%", "%b"), DataType.VARCHAR));
      }
      if (r == 1) {
        return call(
            pick(random, COMPARISONS), column(TS), literal(STATEMENT_TIME, DataType.TIMESTAMP));
      }
      if (r == 2) {
        return column(F);
      }
      if (r == 3) {
        return literal(random.nextInt(3) == 0 ? null : random.nextBoolean(), DataType.BOOLEAN);
      }
      int c = pick(random, K, KD, I, B, D, P, DT, F, R, I, D, P, DT);
      Expr operand = operand(c);
      if (r == 4) {
        return call(random.nextBoolean() ? Op.IS_NULL : Op.IS_NOT_NULL, operand);
      }
      if (r == 5) {
        List<Expr> operands = new ArrayList<>();
        operands.add(operand);
        for (int i = random.nextInt(5); i >= 0; i--) {
          operands.add(constant(c));
        }
        return new Expr.Call(Op.IN, operands, DataType.BOOLEAN);
      }
      if (r == 6) {
        int other = pick(random, K, I, B, P, DT, KD, D);
        return call(pick(random, COMPARISONS), operand, operand(other));
      }
      Expr k = constant(c);
      return random.nextBoolean()
          ? call(pick(random, COMPARISONS), operand, k)
          : call(pick(random, COMPARISONS), k, operand);
    }

    /** The column, now and then under a CAST that keeps (or not) its values. */
    private Expr operand(int c) {
      Expr ref = column(c);
      if (random.nextInt(6) != 0) {
        return ref;
      }
      DataType type = LAYOUT.columnType(c);
      DataType to =
          switch (type.name()) {
            case INTEGER -> pick(random, DataType.BIGINT, DataType.DOUBLE, DataType.decimal(12, 2));
            case BIGINT -> pick(random, DataType.decimal(19, 0), DataType.DOUBLE);
            case FLOAT -> DataType.DOUBLE;
            case DECIMAL -> pick(random, DataType.decimal(18, 4), DataType.DOUBLE);
            default -> type;
          };
      return new Expr.Call(Op.CAST, List.of(ref), to);
    }

    /** A literal or parameter to compare column {@code c} with. */
    private Expr constant(int c) {
      DataType columnType = LAYOUT.columnType(c);
      Object v = rows.get(random.nextInt(rows.size()))[c];
      if (v == null || random.nextInt(3) == 0) {
        v = value(random, c == K ? I : c == KD ? DT : c);
      }
      DataType type = columnType;
      Object original = v;
      try {
        switch (columnType.name().isNumeric() ? random.nextInt(8) : -1) {
          case 0 -> {
            v = Values.cast(v, DataType.DOUBLE);
            type = DataType.DOUBLE;
          }
          case 1 -> {
            // more digits than a DECIMAL(15,2) has: between two of its values, or equal
            BigDecimal d = (BigDecimal) Values.cast(v, DataType.decimal(30, 2));
            BigDecimal shift = new BigDecimal(pick(random, "0.005", "-0.005", "0.001", "0.000"));
            v = d.add(shift);
            type = DataType.decimal(31, 3);
          }
          case 2 -> {
            BigDecimal d = (BigDecimal) Values.cast(v, DataType.decimal(30, 2));
            v = d.setScale(0, java.math.RoundingMode.FLOOR); // fewer digits
            type = DataType.decimal(30, 0);
          }
          case 3 -> {
            v = pick(random, 0L, 24L, Long.MAX_VALUE, Long.MIN_VALUE, 9_007_199_254_740_993L);
            type = DataType.BIGINT;
          }
          case 4 -> {
            v = pick(random, Double.NaN, -0.0, 0.5, 23.5, 0x1p63, Double.NEGATIVE_INFINITY);
            type = DataType.DOUBLE;
          }
          case 5 -> {
            v = new BigDecimal(pick(random, "0.065", "-0.065", "1E+20", "1E-30", "23.999"));
            type = DataType.of(TypeName.DECIMAL);
          }
          default -> {}
        }
      } catch (CairnException e) {
        v = original; // NaN or an infinity as a DECIMAL
        type = columnType;
      }
      if (random.nextInt(12) == 0) {
        return literal(null, random.nextBoolean() ? DataType.NULL : type);
      }
      if (random.nextInt(4) == 0) {
        int index = parameters.size();
        parameters.add(random.nextInt(8) == 0 ? null : v);
        return new Expr.Param(index, type);
      }
      return literal(v, type);
    }
  }

  // ================================================================ expressions

  private static Expr column(int c) {
    return new Expr.ColumnRef(c, LAYOUT.columnType(c));
  }

  private static Expr literal(Object value, DataType type) {
    return new Expr.Literal(value, type);
  }

  private static BigDecimal d(String value) {
    return new BigDecimal(value);
  }

  private static LocalDate dateOf(String value) {
    return LocalDate.parse(value);
  }

  private static Expr date(String value) {
    return literal(LocalDate.parse(value), DataType.DATE);
  }

  private static Expr decimal(String value) {
    BigDecimal d = new BigDecimal(value);
    return literal(d, DataType.decimal(Math.max(d.precision(), d.scale()), d.scale()));
  }

  private static Expr call(Op op, Expr... operands) {
    return new Expr.Call(op, List.of(operands), DataType.BOOLEAN);
  }

  private static Expr and(Expr... operands) {
    return call(Op.AND, operands);
  }

  private static Expr or(Expr... operands) {
    return call(Op.OR, operands);
  }

  private static Object[] row(int k, Integer i, String s) {
    Object[] row = new Object[LAYOUT.columnCount()];
    row[K] = k;
    row[KD] = LocalDate.of(1994, 1, 1);
    row[I] = i;
    row[S] = s;
    return row;
  }
}
