package io.cairn.store.coprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.memory.MemoryPool;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sorts and top-N of scan programs whose keys are plain columns, which the store sorts as bytes
 * ({@link SortBuffer}), against a plain Java sort of the projected rows with {@link
 * SortKey#comparator} (the driver's order): random rows of many types with NULLs, DESC, NULLS
 * FIRST/LAST, several keys, ties, offsets and limits, pauses while reading, memory limits.
 */
class TestProgramSortBytes {
  /**
   * (K BIGINT, T VARCHAR key DESC, I INTEGER, D DECIMAL(12,2), S VARCHAR(30), DT DATE, F DOUBLE, W
   * DECIMAL(30,4)), key (K, T DESC).
   */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.varchar(20).withNullable(false)),
              new RowLayout.ColumnLayout(3, DataType.INTEGER),
              new RowLayout.ColumnLayout(4, DataType.decimal(12, 2)),
              new RowLayout.ColumnLayout(5, DataType.varchar(30)),
              new RowLayout.ColumnLayout(6, DataType.DATE),
              new RowLayout.ColumnLayout(7, DataType.DOUBLE),
              new RowLayout.ColumnLayout(8, DataType.decimal(30, 4))),
          List.of(
              new RowLayout.KeyColumn(0, SortOrder.ASC),
              new RowLayout.KeyColumn(1, SortOrder.DESC)),
          false,
          1);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);

  /** The projection (S, K, D, I, DT, F, T, W): sort keys name these positions. */
  private static final List<Expr> PROJECTION =
      List.of(
          new Expr.ColumnRef(4, DataType.varchar(30)),
          new Expr.ColumnRef(0, DataType.BIGINT.withNullable(false)),
          new Expr.ColumnRef(3, DataType.decimal(12, 2)),
          new Expr.ColumnRef(2, DataType.INTEGER),
          new Expr.ColumnRef(5, DataType.DATE),
          new Expr.ColumnRef(6, DataType.DOUBLE),
          new Expr.ColumnRef(1, DataType.varchar(20).withNullable(false)),
          new Expr.ColumnRef(7, DataType.decimal(30, 4)));

  private static final int[] PROJECTED = {4, 0, 3, 2, 5, 6, 1, 7};

  private static final long SEED = Long.getLong("cairn.test.seed", System.nanoTime());

  /** A failure names the seed that reproduces it. */
  @RegisterExtension
  static final TestExecutionExceptionHandler SEED_ON_FAILURE =
      (context, e) -> {
        throw new AssertionError("seed " + SEED + " (-Dcairn.test.seed=" + SEED + ")", e);
      };

  private static final String[] STRINGS = {
    "", "a", "a ", "ab", "b", "\u0000", "a\u0000b", "é", "\uE000", "\uFFFD", "\uD83D\uDE00", "z"
  };

  private static final double[] DOUBLES = {
    0.0, -0.0, 1.5, -1.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e-300, 7
  };

  private static String randomString(Random random) {
    StringBuilder s = new StringBuilder();
    int parts = random.nextInt(3);
    for (int i = 0; i < parts; i++) {
      s.append(STRINGS[random.nextInt(STRINGS.length)]);
    }
    return s.toString();
  }

  /** Values of W: some over 18 digits, some of scales other than the column's, many ties. */
  private static BigDecimal wideDecimal(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> new BigDecimal(new java.math.BigInteger(90, random), 4).negate();
      case 1 -> new BigDecimal(new java.math.BigInteger(90, random), 4);
      case 2 -> BigDecimal.valueOf(random.nextInt(21) - 10, random.nextInt(7));
      default -> BigDecimal.valueOf(random.nextLong(), 4);
    };
  }

  /** Table rows with few distinct values per column (many ties) and NULLs. */
  private static List<Object[]> randomRows(Random random, int count) {
    List<Object[]> rows = new ArrayList<>();
    for (long k = 0; k < count; k++) {
      rows.add(
          new Object[] {
            k,
            randomString(random),
            random.nextInt(6) == 0 ? null : random.nextInt(41) - 20,
            random.nextInt(6) == 0
                ? null
                : BigDecimal.valueOf(
                    random.nextBoolean()
                        ? random.nextInt(201) - 100
                        : random.nextLong() % 100_000_000_000L,
                    random.nextInt(5) == 0 ? random.nextInt(4) : 2),
            random.nextInt(6) == 0 ? null : randomString(random),
            random.nextInt(6) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(30) - 15),
            random.nextInt(6) == 0 ? null : DOUBLES[random.nextInt(DOUBLES.length)],
            random.nextInt(6) == 0 ? null : wideDecimal(random)
          });
    }
    return rows;
  }

  private static List<Bytes[]> encoded(List<Object[]> rows) {
    List<Bytes[]> encoded = new ArrayList<>();
    for (Object[] row : rows) {
      encoded.add(new Bytes[] {CODEC.encodeKey(row), CODEC.encodeValue(row)});
    }
    return encoded;
  }

  private static Object[] projected(Object[] row) {
    Object[] p = new Object[PROJECTED.length];
    for (int i = 0; i < p.length; i++) {
      p[i] = row[PROJECTED[i]];
    }
    return p;
  }

  private static ScanProgram program(
      List<Expr> projection, List<SortKey> keys, long offset, long limit) {
    return new ScanProgram(
        LAYOUT, Optional.empty(), projection, limit, offset, List.of(), List.of(), keys);
  }

  private static List<Object[]> read(ProgramScanner scanner, boolean paused) {
    List<Object[]> result = new ArrayList<>();
    while (true) {
      Object[] row = paused ? scanner.next(System.nanoTime() - 1) : scanner.next();
      if (row == null) {
        return result;
      }
      if (row != ProgramScanner.NOT_YET) {
        result.add(row);
      }
    }
  }

  private static List<SortKey> randomKeys(Random random) {
    List<SortKey> keys = new ArrayList<>();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      keys.add(
          new SortKey(
              random.nextInt(PROJECTED.length), random.nextBoolean(), random.nextBoolean()));
    }
    return keys;
  }

  /**
   * Checks {@code actual} against the window [offset, offset + limit) of {@code table} sorted by
   * {@code keys}: the same keys position by position, every row a distinct row of the table; when
   * {@code stable}, rows with equal keys in the table's order (the order the scan read them), as a
   * stable sort gives.
   */
  private static void assertWindow(
      List<Object[]> actual,
      List<Object[]> table,
      List<SortKey> keys,
      long offset,
      long limit,
      String what,
      boolean stable) {
    Comparator<Object[]> order = SortKey.comparator(keys);
    List<Object[]> expected =
        new ArrayList<>(table.stream().map(TestProgramSortBytes::projected).toList());
    expected.sort(order);
    int from = (int) Math.min(offset, expected.size());
    int to = limit < 0 ? expected.size() : (int) Math.min(offset + limit, expected.size());
    List<Object[]> window = expected.subList(from, to);
    assertThat(actual).as(what).hasSize(window.size());
    Map<Long, Object[]> byKey = new HashMap<>();
    for (Object[] row : table) {
      byKey.put((Long) row[0], projected(row));
    }
    for (int i = 0; i < actual.size(); i++) {
      Object[] row = actual.get(i);
      assertThat(order.compare(row, window.get(i))).as(what + " row " + i).isZero();
      assertThat(row).as(what + " row " + i).isEqualTo(byKey.remove((Long) row[1]));
      if (stable) {
        assertThat(row).as(what + " row " + i + " (stable)").isEqualTo(window.get(i));
      }
    }
  }

  @Test
  void randomSortsAndTopNMatchAJavaSort() {
    Random random = new Random(SEED);
    for (int round = 0; round < 60; round++) {
      List<Object[]> table = randomRows(random, 1 + random.nextInt(round < 30 ? 200 : 3000));
      List<SortKey> keys = randomKeys(random);
      long offset = random.nextInt(4) == 0 ? random.nextInt(50) : 0;
      long limit =
          switch (random.nextInt(4)) {
            case 0 -> ScanProgram.NO_LIMIT;
            case 1 -> 1 + random.nextInt(5);
            case 2 -> 1 + random.nextInt(100);
            default -> 1 + random.nextInt(4000);
          };
      boolean paused = random.nextBoolean();
      boolean direct = random.nextBoolean();
      String what =
          "round "
              + round
              + " keys "
              + keys
              + " offset "
              + offset
              + " limit "
              + limit
              + " paused "
              + paused
              + " seed "
              + SEED;
      List<Object[]> actual;
      try (ProgramScanner scanner =
          new ProgramScanner(
              new TestingRowCursor(encoded(table), direct),
              program(PROJECTION, keys, offset, limit),
              EvalContext.EMPTY)) {
        actual = read(scanner, paused);
        assertThat(scanner.reservedBytes()).as(what).isZero();
      }
      assertWindow(actual, table, keys, offset, limit, what, true);
    }
  }

  @Test
  void aTopNOfManyRowsKeepsItsTopUnderEveryKeyShape() {
    Random random = new Random(SEED + 1);
    List<Object[]> table = randomRows(random, 20_000);
    for (List<SortKey> keys :
        List.of(
            List.of(new SortKey(2, false, false)),
            List.of(new SortKey(2, true, true)),
            List.of(new SortKey(0, false, true), new SortKey(1, true, false)),
            List.of(new SortKey(6, false, false)),
            List.of(new SortKey(5, true, false), new SortKey(4, false, true)))) {
      for (long limit : new long[] {1, 10, 1500}) {
        List<Object[]> actual;
        try (ProgramScanner scanner =
            new ProgramScanner(
                new TestingRowCursor(encoded(table), false),
                program(PROJECTION, keys, 3, limit),
                EvalContext.EMPTY)) {
          actual = read(scanner, false);
        }
        assertWindow(actual, table, keys, 3, limit, "keys " + keys + " limit " + limit, true);
      }
    }
  }

  @Test
  void aKeyThatIsAnExpressionSortsAsValues() {
    Random random = new Random(SEED + 2);
    List<Object[]> table = randomRows(random, 2000);
    List<Expr> projection = new ArrayList<>(PROJECTION);
    // position 3: I + 1 instead of I; the order is the same as by I
    projection.set(
        3,
        new Expr.Call(
            Op.PLUS,
            List.of(new Expr.ColumnRef(2, DataType.INTEGER), new Expr.Literal(1, DataType.INTEGER)),
            DataType.INTEGER));
    List<SortKey> keys = List.of(new SortKey(3, true, false), new SortKey(1, false, false));
    try (ProgramScanner scanner =
        new ProgramScanner(
            new TestingRowCursor(encoded(table), false),
            program(projection, keys, 0, ScanProgram.NO_LIMIT),
            EvalContext.EMPTY)) {
      List<Object[]> actual = read(scanner, true);
      List<Object[]> asI =
          actual.stream()
              .map(
                  r -> {
                    Object[] c = r.clone();
                    c[3] = c[3] == null ? null : (Integer) c[3] - 1;
                    return c;
                  })
              .toList();
      assertWindow(asI, table, keys, 0, -1, "expression key", false);
    }
  }

  @Test
  void aByteSortPastItsMemoryFailsWith53200AndHoldsNothing() {
    List<Object[]> table = randomRows(new Random(SEED + 3), 20_000);
    MemoryPool connection = MemoryPool.root("the connection", 1L << 30, "c", Duration.ZERO);
    List<SortKey> keys = List.of(new SortKey(0, false, false));
    try (ProgramScanner scanner =
        new ProgramScanner(
            new TestingRowCursor(encoded(table), false),
            program(PROJECTION, keys, 0, ScanProgram.NO_LIMIT),
            EvalContext.EMPTY,
            256 << 10,
            connection)) {
      Throwable e = catchThrowable(scanner::next);
      assertThat(e)
          .isInstanceOfSatisfying(
              CairnException.class,
              c -> assertThat(c.errorCode()).isEqualTo(ErrorCode.MEMORY_LIMIT_EXCEEDED))
          .hasMessageContaining("a sort in the store");
      assertThat(connection.used()).isZero();
    }
    // a top-N of the same rows fits, and holds far fewer bytes than its input
    MemoryPool small = MemoryPool.root("the small connection", 256 << 10, "c", Duration.ZERO);
    try (ProgramScanner scanner =
        new ProgramScanner(
            new TestingRowCursor(encoded(table), true),
            program(PROJECTION, keys, 0, 50),
            EvalContext.EMPTY,
            256 << 10,
            small)) {
      List<Object[]> actual = read(scanner, true);
      assertWindow(actual, table, keys, 0, 50, "top 50", true);
      assertThat(small.used()).isZero();
    }
  }

  /**
   * Past its memory, a byte sort given a spill directory writes its rows as sorted runs and merges
   * them: the same rows in the same (stable) order as in memory, offsets and limits applied, a
   * top-N whose buffer passes the memory too; its files are gone when the scan ends or is closed.
   */
  @Test
  void aByteSortPastItsMemorySpillsSortedRunsAndMergesThem(@TempDir Path spill) throws IOException {
    Random random = new Random(SEED + 5);
    List<Object[]> table = randomRows(random, 20_000);
    MemoryPool connection = MemoryPool.root("the connection", 1L << 30, "c", Duration.ZERO);
    long[][] windows = {{0, ScanProgram.NO_LIMIT}, {7, 12_000}, {0, 15_000}, {19_990, 50}};
    for (int round = 0; round < 8; round++) {
      List<SortKey> keys = randomKeys(random);
      long[] window = windows[round % windows.length];
      boolean paused = round % 3 == 0;
      String what = "round " + round + " keys " + keys + " window " + Arrays.toString(window);
      List<Object[]> actual;
      try (ProgramScanner scanner =
          new ProgramScanner(
                  new TestingRowCursor(encoded(table), round % 2 == 0),
                  program(PROJECTION, keys, window[0], window[1]),
                  EvalContext.EMPTY,
                  256 << 10,
                  connection)
              .spillSortsTo(spill)) {
        actual = read(scanner, paused);
        assertThat(scanner.reservedBytes()).as(what).isZero();
      }
      assertWindow(actual, table, keys, window[0], window[1], what, true);
      assertThat(spill).as(what).isEmptyDirectory();
      assertThat(connection.used()).as(what).isZero();
    }
    // closed while merging: the runs' files go with the scan
    try (ProgramScanner scanner =
        new ProgramScanner(
                new TestingRowCursor(encoded(table), false),
                program(PROJECTION, List.of(new SortKey(4, false, true)), 0, ScanProgram.NO_LIMIT),
                EvalContext.EMPTY,
                256 << 10,
                connection)
            .spillSortsTo(spill)) {
      assertThat(scanner.next()).isNotNull();
      try (Stream<Path> files = Files.list(spill)) {
        assertThat(files.count()).isGreaterThan(2);
      }
    }
    assertThat(spill).isEmptyDirectory();
    assertThat(connection.used()).isZero();
  }

  @Test
  void theBufferSortsAndKeepsItsFirstRows() {
    Random random = new Random(SEED + 4);
    MemoryPool pool = MemoryPool.root("a pool", 1L << 30, "c", Duration.ZERO);
    // prefixes: the first 8 bytes, or only the first byte (equal prefixes of unequal keys)
    for (boolean coarse : new boolean[] {false, true}) {
      try (var reservation = pool.reservation("a sort in the store")) {
        SortBuffer buffer = new SortBuffer(reservation);
        List<byte[]> keys = new ArrayList<>();
        java.nio.ByteBuffer value = java.nio.ByteBuffer.allocate(3);
        for (int i = 0; i < 50_000; i++) {
          // prefix-free like encoded sort keys: letters 2..4 (few: long equal prefixes), then 1
          byte[] key = new byte[1 + random.nextInt(12)];
          for (int j = 0; j < key.length - 1; j++) {
            key[j] = (byte) (2 + random.nextInt(3));
          }
          key[key.length - 1] = 1;
          keys.add(key);
          long prefix = coarse ? key[0] : SortBuffer.bytesPrefix(key, 0, key.length);
          buffer.add(prefix, key, key.length, new byte[] {1, 2}, 0, 2, value, 0, 3);
        }
        keys.sort(Arrays::compareUnsigned);
        buffer.keepFirst(30_000, false);
        assertThat(buffer.size()).isEqualTo(30_000);
        for (int i = 0; i < buffer.size(); i++) {
          assertThat(buffer.compareKey(i, keys.get(i), keys.get(i).length)).as("row " + i).isZero();
          assertThat(buffer.keyLength(i)).isEqualTo(2);
          assertThat(buffer.valueLength(i)).isEqualTo(3);
        }
      }
    }
    assertThat(pool.used()).isZero();
  }
}
