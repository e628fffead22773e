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
import io.cairn.kv.SortKey;
import io.cairn.store.cell.RowCursor;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * Grouped aggregation, sorts, top-N and offsets of scan programs, over a hand-made row cursor;
 * expected results computed here in plain Java.
 */
class TestProgramScannerGroupsAndSorts {
  /** (K BIGINT primary key, G VARCHAR, V INTEGER, D DECIMAL(10,2), S VARCHAR). */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.varchar(10)),
              new RowLayout.ColumnLayout(3, DataType.INTEGER),
              new RowLayout.ColumnLayout(4, DataType.decimal(10, 2)),
              new RowLayout.ColumnLayout(5, DataType.varchar(10))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);
  private static final DataType BIGINT = DataType.BIGINT.withNullable(false);
  private static final Expr K = new Expr.ColumnRef(0, BIGINT);
  private static final Expr G = new Expr.ColumnRef(1, DataType.varchar(10));
  private static final Expr V = new Expr.ColumnRef(2, DataType.INTEGER);
  private static final Expr D = new Expr.ColumnRef(3, DataType.decimal(10, 2));
  private static final Expr S = new Expr.ColumnRef(4, DataType.varchar(10));
  private static final long SEED = Long.getLong("cairn.test.seed", System.nanoTime());

  static {
    System.err.println(
        "TestProgramScannerGroupsAndSorts seed: " + SEED + " (-Dcairn.test.seed=" + SEED + ")");
  }

  /**
   * Random rows: G one of {@code groups} strings ({@link #groupName}) or NULL, V, D and S sometimes
   * NULL.
   */
  private static List<Object[]> randomRows(Random random, int count, int groups) {
    List<Object[]> rows = new ArrayList<>();
    for (long k = 1; k <= count; k++) {
      rows.add(
          new Object[] {
            k,
            random.nextInt(10) == 0 ? null : groupName(random.nextInt(groups)),
            random.nextInt(7) == 0 ? null : random.nextInt(2001) - 1000,
            random.nextInt(9) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000), 2),
            random.nextInt(5) == 0 ? null : Long.toString(random.nextLong() & 0xffffff, 36)
          });
    }
    return rows;
  }

  /**
   * Group {@code n}'s name: bytes of every length around the 7 a group table packs into a long (the
   * empty string, 7 bytes, 8 and more sharing their first 7, multi-byte UTF-8).
   */
  private static String groupName(int n) {
    return switch (n % 5) {
      case 0 -> "g" + n;
      case 1 -> "abcdefg" + n; // 8 bytes or more, the first 7 shared
      case 2 -> n / 5 < 8 ? "abcdefg".substring(0, n / 5) : "h" + n; // "" to 7 bytes
      case 3 -> "\u00e9t\u00e9" + n; // 2-byte characters
      default -> "x" + n + "y".repeat(n / 5 % 10);
    };
  }

  private static List<Object[]> readAll(ProgramScanner scanner) {
    List<Object[]> result = new ArrayList<>();
    for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
      result.add(row);
    }
    return result;
  }

  /** Reads with a deadline already passed, counting the pauses in {@code pauses[0]}. */
  private static List<Object[]> readPaused(ProgramScanner scanner, int[] pauses) {
    List<Object[]> result = new ArrayList<>();
    while (true) {
      Object[] row = scanner.next(System.nanoTime() - 1);
      if (row == null) {
        return result;
      }
      if (row == ProgramScanner.NOT_YET) {
        pauses[0]++;
      } else {
        result.add(row);
      }
    }
  }

  private static final List<AggregateCall> GROUP_CALLS =
      List.of(
          new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, BIGINT),
          new AggregateCall(AggregateKind.COUNT, List.of(1), false, BIGINT),
          new AggregateCall(AggregateKind.SUM, List.of(2), false, DataType.decimal(38, 2)),
          new AggregateCall(AggregateKind.AVG, List.of(1), false, DataType.decimal(38, 6)),
          new AggregateCall(AggregateKind.MIN, List.of(3), false, DataType.varchar(10)),
          new AggregateCall(AggregateKind.MAX, List.of(3), false, DataType.varchar(10)));

  /** GROUP BY G over projection (G, V, D, S) with {@link #GROUP_CALLS}. */
  private static ScanProgram groupProgram(Optional<Expr> filter) {
    return new ScanProgram(
        LAYOUT,
        filter,
        List.of(G, V, D, S),
        ScanProgram.NO_LIMIT,
        0,
        List.of(0),
        GROUP_CALLS,
        List.of());
  }

  /** GROUP BY the first expression of {@code projection}, no filter, with {@code calls}. */
  private static ScanProgram groupedByFirst(List<Expr> projection, List<AggregateCall> calls) {
    return new ScanProgram(
        LAYOUT,
        Optional.empty(),
        projection,
        ScanProgram.NO_LIMIT,
        0,
        List.of(0),
        calls,
        List.of());
  }

  /** The partial rows the grouping should emit, keyed by group (null for the NULL group). */
  private static Map<String, List<Object>> expectedGroups(List<Object[]> rows) {
    Map<String, Object[]> states = new HashMap<>();
    for (Object[] row : rows) {
      String g = (String) row[1];
      Object[] s =
          states.computeIfAbsent(g, x -> new Object[] {0L, 0L, null, null, 0L, null, null});
      s[0] = (Long) s[0] + 1;
      Integer v = (Integer) row[2];
      if (v != null) {
        s[1] = (Long) s[1] + 1;
        s[3] =
            s[3] == null ? BigDecimal.valueOf(v) : ((BigDecimal) s[3]).add(BigDecimal.valueOf(v));
        s[4] = (Long) s[4] + 1;
      }
      BigDecimal d = (BigDecimal) row[3];
      if (d != null) {
        s[2] = s[2] == null ? d : ((BigDecimal) s[2]).add(d);
      }
      String str = (String) row[4];
      if (str != null) {
        s[5] = s[5] == null || str.compareTo((String) s[5]) < 0 ? str : s[5];
        s[6] = s[6] == null || str.compareTo((String) s[6]) > 0 ? str : s[6];
      }
    }
    Map<String, List<Object>> expected = new HashMap<>();
    states.forEach((g, s) -> expected.put(g, Arrays.asList(s)));
    return expected;
  }

  /** Emitted group rows by key; checks that each group comes once. */
  private static Map<String, List<Object>> byGroup(List<Object[]> emitted) {
    Map<String, List<Object>> groups = new HashMap<>();
    for (Object[] row : emitted) {
      assertThat(row).hasSize(1 + 7);
      List<Object> states = Arrays.asList(Arrays.copyOfRange(row, 1, row.length));
      assertThat(groups.put((String) row[0], states)).as("group " + row[0]).isNull();
    }
    return groups;
  }

  /** Compares BigDecimals by value (a sum's scale is that of its inputs, 2 or 0). */
  private static void assertSameGroups(
      Map<String, List<Object>> actual, Map<String, List<Object>> expected) {
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    for (Map.Entry<String, List<Object>> e : expected.entrySet()) {
      List<Object> a = actual.get(e.getKey());
      List<Object> x = e.getValue();
      for (int i = 0; i < x.size(); i++) {
        Object av = a.get(i);
        Object xv = x.get(i);
        if (xv instanceof BigDecimal xd) {
          assertThat(av).isInstanceOf(BigDecimal.class);
          assertThat(((BigDecimal) av).compareTo(xd))
              .as("group " + e.getKey() + " state " + i + ": " + av + " vs " + xd + " seed " + SEED)
              .isZero();
        } else {
          assertThat(av).as("group " + e.getKey() + " state " + i + " seed " + SEED).isEqualTo(xv);
        }
      }
    }
  }

  @Test
  void groupsWithNullKeysDecimalSumsAvgCountAndStringExtremes() {
    List<Object[]> rows = randomRows(new Random(SEED), 3000, 7);
    ListRowCursor cursor = new ListRowCursor(rows);
    try (ProgramScanner scanner =
        new ProgramScanner(cursor, groupProgram(Optional.empty()), CONTEXT)) {
      Object[] first = scanner.next();
      assertThat(cursor.closed).isTrue();
      List<Object[]> emitted = new ArrayList<>(List.<Object[]>of(first));
      emitted.addAll(readAll(scanner));
      Map<String, List<Object>> groups = byGroup(emitted);
      assertThat(groups).containsKey(null);
      assertSameGroups(groups, expectedGroups(rows));
    }
    // with a filter: only the kept rows count; a group without kept rows is absent
    Expr vPositive =
        new Expr.Call(
            Op.GREATER_THAN, List.of(V, new Expr.Literal(0, DataType.INTEGER)), DataType.BOOLEAN);
    List<Object[]> kept = rows.stream().filter(r -> r[2] != null && (Integer) r[2] > 0).toList();
    try (ProgramScanner scanner =
        new ProgramScanner(
            new ListRowCursor(rows), groupProgram(Optional.of(vPositive)), CONTEXT)) {
      assertSameGroups(byGroup(readAll(scanner)), expectedGroups(kept));
    }
    // no rows: no groups
    try (ProgramScanner scanner =
        new ProgramScanner(new ListRowCursor(List.of()), groupProgram(Optional.empty()), CONTEXT)) {
      assertThat(scanner.next()).isNull();
      assertThat(scanner.next()).isNull();
    }
  }

  @Test
  void manyGroupsOfAStringAndAnIntegerKeyFoundByBytes() {
    // G and V as the key (NULLs in both), thousands of groups: the table of groups found by bytes
    // grows many times; SUM(D * D) and AVG(D) go through the exact longs, checked here in Java
    List<Object[]> rows = randomRows(new Random(SEED), 30_000, 300);
    for (Object[] row : rows) {
      if (row[2] != null) {
        row[2] = (Integer) row[2] % 13;
      }
    }
    DataType squareType = DataType.decimal(18, 4);
    Expr square = new Expr.Call(Op.TIMES, List.of(D, D), squareType);
    List<AggregateCall> calls =
        List.of(
            new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, BIGINT),
            new AggregateCall(AggregateKind.SUM, List.of(2), false, DataType.decimal(38, 4)),
            new AggregateCall(AggregateKind.AVG, List.of(3), false, DataType.decimal(38, 6)));
    ScanProgram program =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(G, V, square, D),
            ScanProgram.NO_LIMIT,
            0,
            List.of(0, 1),
            calls,
            List.of());
    Map<List<Object>, BigDecimal[]> expected = new HashMap<>();
    for (Object[] row : rows) {
      BigDecimal[] state =
          expected.computeIfAbsent(
              Arrays.asList(row[1], row[2]),
              k -> new BigDecimal[] {BigDecimal.ZERO, null, null, BigDecimal.ZERO});
      state[0] = state[0].add(BigDecimal.ONE);
      BigDecimal d = (BigDecimal) row[3];
      if (d != null) {
        state[1] = state[1] == null ? d.multiply(d) : state[1].add(d.multiply(d));
        state[2] = state[2] == null ? d : state[2].add(d);
        state[3] = state[3].add(BigDecimal.ONE);
      }
    }
    try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), program, CONTEXT)) {
      List<Object[]> emitted = readAll(scanner);
      assertThat(emitted).hasSize(expected.size());
      Set<List<Object>> seen = new HashSet<>();
      for (Object[] row : emitted) {
        List<Object> key = Arrays.asList(row[0], row[1]);
        assertThat(seen.add(key)).as("group %s once", key).isTrue();
        BigDecimal[] state = expected.get(key);
        assertThat(state).as("group %s, seed %s", key, SEED).isNotNull();
        assertThat(row[2]).isEqualTo(state[0].longValue());
        assertSameNumber(row[3], state[1], key);
        assertSameNumber(row[4], state[2], key); // AVG's partial state: sum, count
        assertThat(row[5]).isEqualTo(state[3].longValue());
      }
    }
  }

  @Test
  void valuesPastALongInTheMiddleOfBatchesTakeTheGenericPath() {
    // SUM(D * V * V): some rows' products pass a long (the generic path computes them exactly), in
    // batches of rows that also feed COUNT(*), COUNT(V) and MIN(D) (which decodes each row);
    // grouped by G, and over all rows without a GROUP BY
    Random random = new Random(SEED + 1);
    List<Object[]> rows = randomRows(random, 5_000, 7);
    for (int i = 0; i < rows.size(); i += 1 + random.nextInt(150)) {
      rows.get(i)[2] = 2_000_000_000 - random.nextInt(1000);
      rows.get(i)[3] = new BigDecimal("99999999.99");
    }
    DataType wide = DataType.decimal(38, 2);
    Expr product =
        new Expr.Call(
            Op.TIMES,
            List.of(new Expr.Call(Op.TIMES, List.of(D, V), DataType.decimal(21, 2)), V),
            wide);
    List<AggregateCall> calls =
        List.of(
            new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, BIGINT),
            new AggregateCall(AggregateKind.SUM, List.of(1), false, wide),
            new AggregateCall(AggregateKind.COUNT, List.of(2), false, BIGINT),
            new AggregateCall(AggregateKind.MIN, List.of(3), false, DataType.decimal(10, 2)));
    Map<Object, BigDecimal[]> expected = new HashMap<>();
    BigDecimal[] total = new BigDecimal[] {BigDecimal.ZERO, null, BigDecimal.ZERO, null};
    for (Object[] row : rows) {
      for (BigDecimal[] state :
          List.of(
              expected.computeIfAbsent(
                  String.valueOf(row[1]),
                  k -> new BigDecimal[] {BigDecimal.ZERO, null, BigDecimal.ZERO, null}),
              total)) {
        state[0] = state[0].add(BigDecimal.ONE);
        BigDecimal d = (BigDecimal) row[3];
        Integer v = (Integer) row[2];
        if (d != null && v != null) {
          BigDecimal p = d.multiply(BigDecimal.valueOf(v)).multiply(BigDecimal.valueOf(v));
          state[1] = state[1] == null ? p : state[1].add(p);
        }
        if (v != null) {
          state[2] = state[2].add(BigDecimal.ONE);
        }
        if (d != null) {
          state[3] = state[3] == null || d.compareTo(state[3]) < 0 ? d : state[3];
        }
      }
    }
    ScanProgram grouped = groupedByFirst(List.of(G, product, V, D), calls);
    try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), grouped, CONTEXT)) {
      List<Object[]> emitted = readAll(scanner);
      assertThat(emitted).hasSize(expected.size());
      for (Object[] row : emitted) {
        List<Object> key = Arrays.asList(row[0]);
        BigDecimal[] state = expected.get(String.valueOf(row[0]));
        assertThat(row[1]).isEqualTo(state[0].longValue());
        assertSameNumber(row[2], state[1], key);
        assertThat(row[3]).isEqualTo(state[2].longValue());
        assertSameNumber(row[4], state[3], key);
      }
    }
    ScanProgram all =
        new ScanProgram(
            LAYOUT, Optional.empty(), List.of(G, product, V, D), ScanProgram.NO_LIMIT, calls);
    try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), all, CONTEXT)) {
      List<Object[]> emitted = readAll(scanner);
      assertThat(emitted).hasSize(1);
      Object[] row = emitted.get(0);
      assertThat(row[0]).isEqualTo(total[0].longValue());
      assertSameNumber(row[1], total[1], List.of());
      assertThat(row[2]).isEqualTo(total[2].longValue());
      assertSameNumber(row[3], total[3], List.of());
    }
  }

  @Test
  void sumsPerGroupThatPassALongInTheMiddleOfBatches() {
    // few groups (at most 8 in a batch: each DECIMAL call's values summed per group in a long),
    // values that each fit a long but whose sums pass one after three rows, of both signs; SUM and
    // AVG (sum and count) of D * V against BigDecimal arithmetic
    Random random = new Random(SEED + 2);
    List<Object[]> rows = randomRows(random, 6_000, 5);
    for (int i = 0; i < rows.size(); i += 1 + random.nextInt(4)) {
      Object[] row = rows.get(i);
      row[3] = new BigDecimal(random.nextBoolean() ? "99999999.99" : "-99999999.99");
      row[2] = 300_000_000 + random.nextInt(100_000_000); // D * V: about 4e18 unscaled
    }
    DataType wide = DataType.decimal(38, 2);
    Expr product = new Expr.Call(Op.TIMES, List.of(D, V), wide);
    List<AggregateCall> calls =
        List.of(
            new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, BIGINT),
            new AggregateCall(AggregateKind.SUM, List.of(1), false, wide),
            new AggregateCall(AggregateKind.AVG, List.of(1), false, DataType.decimal(38, 6)));
    Map<String, BigDecimal[]> expected = new HashMap<>();
    for (Object[] row : rows) {
      BigDecimal[] state =
          expected.computeIfAbsent(
              String.valueOf(row[1]),
              k -> new BigDecimal[] {BigDecimal.ZERO, null, BigDecimal.ZERO});
      state[0] = state[0].add(BigDecimal.ONE);
      BigDecimal d = (BigDecimal) row[3];
      Integer v = (Integer) row[2];
      if (d != null && v != null) {
        BigDecimal p = d.multiply(BigDecimal.valueOf(v));
        state[1] = state[1] == null ? p : state[1].add(p);
        state[2] = state[2].add(BigDecimal.ONE);
      }
    }
    assertThat(expected.size()).isLessThanOrEqualTo(AggregateInputs.MAX_GROUPS);
    ScanProgram grouped = groupedByFirst(List.of(G, product), calls);
    try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), grouped, CONTEXT)) {
      List<Object[]> emitted = readAll(scanner);
      assertThat(emitted).hasSize(expected.size());
      for (Object[] row : emitted) {
        List<Object> key = Arrays.asList(row[0]);
        BigDecimal[] state = expected.get(String.valueOf(row[0]));
        assertThat(row[1]).isEqualTo(state[0].longValue());
        assertSameNumber(row[2], state[1], key);
        assertSameNumber(row[3], state[1], key); // AVG's partial: its sum, then its count
        assertThat(row[4]).as("group %s", key).isEqualTo(state[2].longValue());
      }
    }
  }

  private static void assertSameNumber(Object actual, BigDecimal expected, List<Object> key) {
    if (expected == null) {
      assertThat(actual).as("group %s", key).isNull();
    } else {
      assertThat(((BigDecimal) actual).compareTo(expected))
          .as("group %s: %s vs %s, seed %s", key, actual, expected, SEED)
          .isZero();
    }
  }

  /** A streaming grouping ({@code groupRuns}) of {@code rows} by G. */
  private static ProgramScanner groupRuns(List<Object[]> rows) {
    return new ProgramScanner(
        new ListRowCursor(rows),
        groupProgram(Optional.empty()),
        CONTEXT,
        io.cairn.core.agg.AggregationMemory.DEFAULT_MAX_BYTES,
        null,
        true);
  }

  @Test
  void rowsThatComeGroupedAreAggregatedGroupByGroupInNoMemory() {
    List<Object[]> rows = new ArrayList<>(randomRows(new Random(SEED), 20_000, 3000));
    // in index order: NULLs first, then by G
    rows.sort(
        Comparator.comparing(
            (Object[] r) -> (String) r[1], Comparator.nullsFirst(String::compareTo)));
    try (ProgramScanner scanner = groupRuns(rows)) {
      List<Object[]> emitted = new ArrayList<>();
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        assertThat(scanner.reservedBytes()).isZero();
        emitted.add(row);
      }
      // one row per group, in the order the groups came
      assertThat(emitted.get(0)[0]).isNull();
      assertThat(emitted.stream().skip(1).map(r -> (String) r[0]).toList())
          .isSortedAccordingTo(Comparator.naturalOrder());
      assertSameGroups(byGroup(emitted), expectedGroups(rows));
    }
    int[] pauses = {0};
    try (ProgramScanner scanner = groupRuns(rows)) {
      assertSameGroups(byGroup(readPaused(scanner, pauses)), expectedGroups(rows));
    }
    assertThat(pauses[0]).isPositive();
    try (ProgramScanner scanner = groupRuns(List.of())) {
      assertThat(scanner.next()).isNull();
      assertThat(scanner.next()).isNull();
    }
    // rows that do not come grouped: a group in pieces, whose states add up to the group's
    List<Object[]> shuffled = new ArrayList<>(rows);
    java.util.Collections.shuffle(shuffled, new Random(SEED));
    Map<String, Long> counts = new HashMap<>();
    try (ProgramScanner scanner = groupRuns(shuffled)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        counts.merge((String) row[0], (Long) row[1], Long::sum);
      }
    }
    Map<String, Long> expected = new HashMap<>();
    expectedGroups(rows).forEach((g, states) -> expected.put(g, (Long) states.get(0)));
    assertThat(counts).isEqualTo(expected);
  }

  @Test
  void manyGroupsAndGroupsByTwoKeys() {
    List<Object[]> rows = randomRows(new Random(SEED), 30_000, 12_000);
    try (ProgramScanner scanner =
        new ProgramScanner(new ListRowCursor(rows), groupProgram(Optional.empty()), CONTEXT)) {
      Map<String, List<Object>> groups = byGroup(readAll(scanner));
      assertThat(groups.size()).isGreaterThan(8000);
      assertSameGroups(groups, expectedGroups(rows));
    }
    // GROUP BY S, G (expression keys work the same): the number of distinct pairs
    ScanProgram two =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(G, S),
            ScanProgram.NO_LIMIT,
            0,
            List.of(1, 0),
            List.of(GROUP_CALLS.get(0)),
            List.of());
    Set<List<Object>> pairs = new HashSet<>();
    for (Object[] r : rows) {
      pairs.add(Arrays.asList(r[4], r[1]));
    }
    try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), two, CONTEXT)) {
      List<Object[]> emitted = readAll(scanner);
      Set<List<Object>> seen = new HashSet<>();
      long total = 0;
      for (Object[] row : emitted) {
        seen.add(Arrays.asList(row[0], row[1]));
        total += (Long) row[2];
      }
      assertThat(seen).isEqualTo(pairs);
      assertThat(emitted).hasSize(pairs.size());
      assertThat(total).isEqualTo(rows.size());
    }
  }

  /**
   * COUNT(*) by integer keys (one with NULLs, and two columns), behind a filter, counts rows in
   * batches whose groups are found together: the counts of every group, read at once or with a
   * pause at every deadline.
   */
  @Test
  void rowsCountedInBatchesByIntegerKeys() {
    List<Object[]> rows = randomRows(new Random(SEED), 30_000, 10);
    AggregateCall count = GROUP_CALLS.get(0);
    Expr mod = new Expr.Call(Op.MOD, List.of(K, new Expr.Literal(7L, BIGINT)), BIGINT);
    for (List<Expr> keys : List.of(List.of(V), List.of(V, K))) {
      Map<List<Object>, Long> expected = new HashMap<>();
      for (Object[] r : rows) {
        if ((Long) r[0] % 7 == 3) {
          continue; // the filter's
        }
        List<Object> key = keys.size() == 1 ? Arrays.asList(r[2]) : Arrays.asList(r[2], r[0]);
        expected.merge(key, 1L, Long::sum);
      }
      ScanProgram program =
          new ScanProgram(
              LAYOUT,
              Optional.of(
                  new Expr.Call(
                      Op.NOT_EQUALS, List.of(mod, new Expr.Literal(3L, BIGINT)), DataType.BOOLEAN)),
              keys,
              ScanProgram.NO_LIMIT,
              0,
              keys.size() == 1 ? List.of(0) : List.of(0, 1),
              List.of(count, count),
              List.of());
      for (boolean paused : new boolean[] {false, true}) {
        try (ProgramScanner scanner =
            new ProgramScanner(new ListRowCursor(rows), program, CONTEXT)) {
          List<Object[]> emitted = paused ? readPaused(scanner, new int[1]) : readAll(scanner);
          Map<List<Object>, Long> counted = new HashMap<>();
          for (Object[] row : emitted) {
            int k = keys.size();
            assertThat(row[k]).isEqualTo(row[k + 1]);
            Object previous = counted.put(Arrays.asList(Arrays.copyOf(row, k)), (Long) row[k]);
            assertThat(previous).as("one row per group").isNull();
          }
          assertThat(counted).as("by %s, paused %s", keys, paused).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void aGroupingPastItsMemoryLimitFailsNamingIt() {
    List<Object[]> rows = randomRows(new Random(SEED), 2000, 1000);
    ProgramScanner scanner =
        new ProgramScanner(new ListRowCursor(rows), groupProgram(Optional.empty()), CONTEXT, 8192);
    try (scanner) {
      assertThatThrownBy(scanner::next)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.AGGREGATE_MEMORY_EXCEEDED);
                assertThat(e.errorCode().sqlState()).isEqualTo("53200");
              })
          .hasMessageContaining("[8192] bytes")
          .hasMessageContaining("[cairn.aggregate.max-bytes]");
    }
    // the same grouping fits a larger limit
    try (ProgramScanner fits =
        new ProgramScanner(
            new ListRowCursor(rows), groupProgram(Optional.empty()), CONTEXT, 1 << 20)) {
      assertSameGroups(byGroup(readAll(fits)), expectedGroups(rows));
    }
  }

  /** An independent model of the sort: SQL order of strings and numbers, NULL placement per key. */
  private static Comparator<Object[]> model(List<SortKey> keys) {
    return (a, b) -> {
      for (SortKey k : keys) {
        Object x = a[k.column()];
        Object y = b[k.column()];
        if (Objects.equals(x, y)) {
          continue;
        }
        if (x == null || y == null) {
          return (x == null) == k.nullsFirst() ? -1 : 1;
        }
        @SuppressWarnings("unchecked")
        int c = ((Comparable<Object>) x).compareTo(y);
        if (c != 0) {
          return k.descending() ? -c : c;
        }
      }
      return 0;
    };
  }

  private static ScanProgram sortProgram(List<SortKey> keys, long offset, long limit) {
    return new ScanProgram(
        LAYOUT, Optional.empty(), List.of(K, G, V, S), limit, offset, List.of(), List.of(), keys);
  }

  /** The rows' projection (K, G, V, S). */
  private static List<Object[]> projected(List<Object[]> rows) {
    return rows.stream().map(r -> new Object[] {r[0], r[1], r[2], r[4]}).toList();
  }

  @Test
  void sortsWithNullsFirstOrLastAndDescending() {
    List<Object[]> rows = randomRows(new Random(SEED), 2000, 20);
    for (List<SortKey> keys :
        List.of(
            List.of(new SortKey(1, false, true), new SortKey(0, false, false)),
            List.of(new SortKey(1, false, false), new SortKey(0, true, false)),
            List.of(new SortKey(2, true, true), new SortKey(0, false, false)),
            List.of(
                new SortKey(2, true, false),
                new SortKey(3, false, true),
                new SortKey(0, true, true)),
            List.of(new SortKey(3, true, false), new SortKey(0, false, true)))) {
      // every key ends with K: the expected order is total
      List<Object[]> expected = new ArrayList<>(projected(rows));
      expected.sort(model(keys));
      try (ProgramScanner scanner =
          new ProgramScanner(new ListRowCursor(rows), sortProgram(keys, 0, -1), CONTEXT)) {
        assertThat(readAll(scanner))
            .as("keys " + keys + " seed " + SEED)
            .usingElementComparator(TestProgramScannerGroupsAndSorts::compareRows)
            .containsExactlyElementsOf(expected);
      }
    }
  }

  /** 0 when the rows are equal, else not 0 (for AssertJ's element comparisons). */
  private static int compareRows(Object[] a, Object[] b) {
    return Arrays.compare(a, b, (x, y) -> Objects.equals(x, y) ? 0 : 1);
  }

  @Test
  void topNWithTiesAndOffsets() {
    List<Object[]> rows = randomRows(new Random(SEED), 1500, 5);
    List<SortKey> byGroup = List.of(new SortKey(1, true, false));
    Comparator<Object[]> order = model(byGroup);
    List<Object[]> expected = new ArrayList<>(projected(rows));
    expected.sort(order);
    for (long[] offsetLimit :
        new long[][] {{0, 10}, {3, 5}, {295, 20}, {0, 0}, {1490, 100}, {2000, 5}, {7, -1}}) {
      long offset = offsetLimit[0];
      long limit = offsetLimit[1];
      List<Object[]> actual;
      try (ProgramScanner scanner =
          new ProgramScanner(
              new ListRowCursor(rows), sortProgram(byGroup, offset, limit), CONTEXT)) {
        actual = readAll(scanner);
      }
      int from = (int) Math.min(offset, expected.size());
      int to = limit < 0 ? expected.size() : (int) Math.min(offset + limit, expected.size());
      List<Object[]> window = expected.subList(from, to);
      String what = "offset " + offset + " limit " + limit + " seed " + SEED;
      // ties on G come in any order: the keys must match position by position, and every row
      // must be a row of the table with the key of its position
      assertThat(actual).as(what).hasSize(window.size());
      for (int i = 0; i < actual.size(); i++) {
        assertThat(actual.get(i)[1]).as(what).isEqualTo(window.get(i)[1]);
        long k = (Long) actual.get(i)[0];
        assertThat(actual.get(i)).as(what).isEqualTo(projected(rows).get((int) k - 1));
      }
      assertThat(actual.stream().map(r -> r[0]).distinct().count()).isEqualTo(actual.size());
    }
    // a total order: exactly the window
    List<SortKey> total = List.of(new SortKey(3, false, true), new SortKey(0, true, false));
    List<Object[]> sorted = new ArrayList<>(projected(rows));
    sorted.sort(model(total));
    ListRowCursor cursor = new ListRowCursor(rows);
    try (ProgramScanner scanner =
        new ProgramScanner(cursor, sortProgram(total, 100, 50), CONTEXT)) {
      Object[] first = scanner.next();
      // all rows read: the cursor (and its blocks) is released while the rows come from memory
      assertThat(cursor.closed).isTrue();
      List<Object[]> all = new ArrayList<>(List.<Object[]>of(first));
      all.addAll(readAll(scanner));
      assertThat(all)
          .usingElementComparator(TestProgramScannerGroupsAndSorts::compareRows)
          .containsExactlyElementsOf(sorted.subList(100, 150));
    }
  }

  @Test
  void offsetsWithoutOrderSkipWithoutProjecting() {
    List<Object[]> rows = randomRows(new Random(SEED), 10, 3);
    // 100 / (K - 3) fails for K = 3: skipped rows are never projected
    Expr failsAtThree =
        new Expr.Call(
            Op.DIVIDE,
            List.of(
                new Expr.Literal(100L, BIGINT),
                new Expr.Call(Op.MINUS, List.of(K, new Expr.Literal(3L, BIGINT)), DataType.BIGINT)),
            DataType.BIGINT);
    ScanProgram skipThree =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(K, failsAtThree),
            4,
            3,
            List.of(),
            List.of(),
            List.of());
    try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), skipThree, CONTEXT)) {
      assertThat(readAll(scanner))
          .usingElementComparator(TestProgramScannerGroupsAndSorts::compareRows)
          .containsExactly(
              new Object[] {4L, 100L},
              new Object[] {5L, 50L},
              new Object[] {6L, 33L},
              new Object[] {7L, 25L});
    }
    // with a filter: the offset counts kept rows (K > 5: skip 6 and 7)
    Expr above5 =
        new Expr.Call(Op.GREATER_THAN, List.of(K, new Expr.Literal(5L, BIGINT)), DataType.BOOLEAN);
    ScanProgram filtered =
        new ScanProgram(
            LAYOUT, Optional.of(above5), List.of(K), -1, 2, List.of(), List.of(), List.of());
    try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), filtered, CONTEXT)) {
      assertThat(readAll(scanner).stream().map(r -> r[0]).toList()).containsExactly(8L, 9L, 10L);
    }
    // an offset beyond the end, ordered or not
    for (List<SortKey> keys : List.of(List.<SortKey>of(), List.of(new SortKey(0, true, false)))) {
      ScanProgram beyond =
          new ScanProgram(LAYOUT, Optional.empty(), List.of(K), 5, 11, List.of(), List.of(), keys);
      try (ProgramScanner scanner = new ProgramScanner(new ListRowCursor(rows), beyond, CONTEXT)) {
        assertThat(scanner.next()).isNull();
      }
    }
  }

  @Test
  void groupingsAndSortsPauseAtTheirDeadlineAndKeepTheirPlace() {
    List<Object[]> rows = randomRows(new Random(SEED), 5000, 30);
    int[] pauses = {0};
    ListRowCursor cursor = new ListRowCursor(rows);
    try (ProgramScanner scanner =
        new ProgramScanner(cursor, groupProgram(Optional.empty()), CONTEXT)) {
      assertSameGroups(byGroup(readPaused(scanner, pauses)), expectedGroups(rows));
    }
    assertThat(pauses[0]).isBetween(4, 5);
    assertThat(cursor.rowsRead).isEqualTo(5000);
    assertThat(cursor.closed).isTrue();

    List<SortKey> keys = List.of(new SortKey(3, true, true), new SortKey(0, false, false));
    List<Object[]> expected = new ArrayList<>(projected(rows));
    expected.sort(model(keys));
    for (long limit : new long[] {-1, 10}) {
      pauses[0] = 0;
      try (ProgramScanner scanner =
          new ProgramScanner(new ListRowCursor(rows), sortProgram(keys, 5, limit), CONTEXT)) {
        assertThat(readPaused(scanner, pauses))
            .usingElementComparator(TestProgramScannerGroupsAndSorts::compareRows)
            .containsExactlyElementsOf(expected.subList(5, limit < 0 ? 5000 : 15));
      }
      assertThat(pauses[0]).isBetween(4, 5);
    }
  }

  @Test
  void aCloseInTheMiddleOfAGroupingOrSortStopsIt() {
    List<Object[]> rows = randomRows(new Random(SEED), 5000, 30);
    for (ScanProgram program :
        List.of(
            groupProgram(Optional.empty()),
            sortProgram(List.of(new SortKey(1, false, true)), 0, -1),
            sortProgram(List.of(new SortKey(1, false, true)), 2, 3))) {
      ListRowCursor cursor = new ListRowCursor(rows);
      ProgramScanner scanner = new ProgramScanner(cursor, program, CONTEXT);
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
      assertThatThrownBy(scanner::next).isInstanceOf(CairnException.class);
    }
  }

  private static final EvalContext CONTEXT = EvalContext.EMPTY;

  /** Rows encoded with {@link #CODEC}, served like a store's cursor. */
  private static final class ListRowCursor implements RowCursor {
    private final List<Bytes> keys = new ArrayList<>();
    private final List<Bytes> values = new ArrayList<>();
    private int current = -1;
    int rowsRead;
    boolean closed;
    IntConsumer onRow = n -> {};

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
