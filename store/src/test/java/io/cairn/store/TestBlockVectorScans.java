package io.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.SortKey;
import io.cairn.kv.TableSpec;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.coprocessor.ProgramScanner;
import io.cairn.store.file.VectorCache;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans whose aggregates (and filters) read whole data blocks as column vectors give the answers of
 * the same programs run one row at a time: over one compacted file, with rows in the memstore, over
 * several files, over a file whose blocks hold several versions and tombstones (kept by a
 * snapshot), at an older read point, over ranges that start and stop inside blocks, and a second
 * time from the cached vectors.
 */
class TestBlockVectorScans {
  @TempDir Path dir;

  private static final DataType BIGINT = DataType.BIGINT.withNullable(false);
  private static final DataType DECIMAL = DataType.decimal(12, 2);

  /**
   * K BIGINT key, V INTEGER, S VARCHAR (of 0 to 10 characters), D DECIMAL(12, 2), C CHAR(17) (of 0
   * to 17 characters but for the padding: over 7 bytes held among a vector's strings).
   */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, BIGINT),
              new RowLayout.ColumnLayout(2, DataType.INTEGER),
              new RowLayout.ColumnLayout(3, DataType.VARCHAR),
              new RowLayout.ColumnLayout(4, DECIMAL),
              new RowLayout.ColumnLayout(5, DataType.chars(17))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);
  private static final Expr K = new Expr.ColumnRef(0, BIGINT);
  private static final Expr V = new Expr.ColumnRef(1, DataType.INTEGER);
  private static final Expr S = new Expr.ColumnRef(2, DataType.VARCHAR);
  private static final Expr D = new Expr.ColumnRef(3, DECIMAL);
  private static final Expr C = new Expr.ColumnRef(4, DataType.chars(17));
  private static final List<Expr> PROJECTION = List.of(K, V, S, D, C);

  private static final String[] MODES = {
    "MAIL", "SHIP", "AIR REG", "DELIVER IN PERSON", "COLLECT COD", "TAKE BACK RETURN", ""
  };

  private static AggregateCall call(AggregateKind kind, int argument, DataType type) {
    return new AggregateCall(
        kind, kind == AggregateKind.COUNT_STAR ? List.of() : List.of(argument), false, type);
  }

  private static final AggregateCall COUNT_STAR = call(AggregateKind.COUNT_STAR, -1, BIGINT);

  /** Programs as (group by, calls). */
  private static final List<List<Integer>> GROUP_BYS =
      List.of(List.of(), List.of(), List.of(2), List.of(1), List.of(2, 1), List.of(0), List.of(4));

  private static final List<List<AggregateCall>> CALLS =
      List.of(
          List.of(COUNT_STAR),
          List.of(
              COUNT_STAR,
              call(AggregateKind.SUM, 1, DataType.BIGINT),
              call(AggregateKind.SUM, 0, DataType.BIGINT),
              call(AggregateKind.SUM, 3, DataType.decimal(38, 2)),
              call(AggregateKind.AVG, 3, DataType.decimal(38, 6))),
          List.of(COUNT_STAR, call(AggregateKind.SUM, 3, DataType.decimal(38, 2))),
          List.of(COUNT_STAR, call(AggregateKind.SUM, 0, DataType.BIGINT)),
          List.of(call(AggregateKind.AVG, 3, DataType.decimal(38, 6))),
          // by the key: groups emitted every GroupsByBytes.EMIT_AT, as the rows come in key order
          List.of(COUNT_STAR, call(AggregateKind.SUM, 3, DataType.decimal(38, 2))),
          List.of(COUNT_STAR, call(AggregateKind.SUM, 1, DataType.BIGINT)));

  private static Expr compare(Op op, Expr column, Object value, DataType type) {
    return new Expr.Call(op, List.of(column, new Expr.Literal(value, type)), DataType.BOOLEAN);
  }

  private static Expr and(Expr a, Expr b) {
    return new Expr.Call(Op.AND, List.of(a, b), DataType.BOOLEAN);
  }

  private static final List<Optional<Expr>> FILTERS =
      List.of(
          Optional.empty(),
          Optional.of(compare(Op.GREATER_THAN_OR_EQUAL, V, 100, DataType.INTEGER)),
          Optional.of(
              and(
                  compare(Op.LESS_THAN, D, new BigDecimal("50.00"), DECIMAL),
                  compare(Op.GREATER_THAN, K, 1000L, DataType.BIGINT))),
          Optional.of(
              and(
                  compare(Op.GREATER_THAN, V, 0, DataType.INTEGER),
                  new Expr.Call(
                      Op.LIKE,
                      List.of(S, new Expr.Literal("a%", DataType.VARCHAR)),
                      DataType.BOOLEAN))),
          Optional.of(compare(Op.EQUALS, C, "DELIVER IN PERSON", DataType.chars(17))),
          Optional.of(
              new Expr.Call(
                  Op.OR,
                  List.of(
                      compare(Op.EQUALS, C, "MAIL", DataType.chars(4)),
                      and(
                          compare(Op.NOT_EQUALS, C, "COLLECT COD", DataType.chars(11)),
                          compare(Op.GREATER_THAN, V, 0, DataType.INTEGER))),
                  DataType.BOOLEAN)));

  private static Bytes key(long k) {
    return CODEC.encodeKey(new Object[] {k, null, null, null, null});
  }

  private Mutation put(long k) {
    int r = random.nextInt(100);
    Integer v = r < 10 ? null : random.nextInt(2000) - 500;
    String s =
        r % 9 == 0 ? null : r % 13 == 0 ? "abcdefghij" : "abcdefg".substring(0, random.nextInt(4));
    BigDecimal d = r % 11 == 0 ? null : BigDecimal.valueOf(random.nextInt(20000) - 5000, 2);
    String mode = r % 7 == 0 ? null : MODES[random.nextInt(MODES.length)];
    String c = mode == null ? null : mode + " ".repeat(17 - mode.length()); // as SQL stores it
    Object[] row = {k, v, s, d, c};
    return new Mutation.Put(CODEC.encodeKey(row), CODEC.encodeValue(row));
  }

  private static Mutation delete(long k) {
    return new Mutation.Delete(key(k));
  }

  private final Random random = new Random(42);

  @Test
  void blocksReadAsVectorsGiveTheAnswersOfRows() {
    blocksGiveTheAnswersOfRows(StoreConfig.defaults(), true);
  }

  /** A cache of a few blocks: evicting, and once full admitting one block in eight. */
  @Test
  void aSmallCacheGivesTheSameAnswers() {
    blocksGiveTheAnswersOfRows(
        StoreConfig.from(Map.of(StoreConfig.VECTOR_CACHE_SIZE, "16k")), false);
  }

  private void blocksGiveTheAnswersOfRows(StoreConfig config, boolean holdsAll) {
    try (EmbeddedStore store = EmbeddedStore.open(dir.resolve("s"), config)) {
      KvTable t = store.createTable("T", new TableSpec(Map.of("BLOCKSIZE", "1024"), List.of()));
      for (long from = 0; from < 8000; from += 2000) {
        List<Mutation> rows = new ArrayList<>();
        for (long k = from; k < from + 2000; k += 2) {
          rows.add(put(k));
        }
        t.mutate(rows);
        t.flush();
      }
      check(t, ScanRequest.LATEST, "four files of separate key ranges");
      t.compact(true);
      check(t, ScanRequest.LATEST, "one compacted file");
      check(t, ScanRequest.LATEST, "one compacted file, vectors cached");
      VectorCache cache = store.readContext().vectors();
      if (holdsAll) {
        assertThat(cache.blockCount()).as("blocks kept as vectors").isGreaterThan(20);
      } else {
        assertThat(cache.evictions()).as("blocks evicted").isPositive();
        assertThat(cache.bytes()).isLessThanOrEqualTo(cache.maxBytes());
      }

      t.mutate(changes(100, 0, 8400));
      check(t, ScanRequest.LATEST, "changes in the memstore");
      t.flush();
      check(t, ScanRequest.LATEST, "two files");
      try (KvSnapshot snapshot = store.openSnapshot()) {
        long before = snapshot.readPoint();
        t.mutate(changes(300, 5000, 8400));
        List<Mutation> newer = new ArrayList<>();
        for (long k = 3001; k < 5000; k += 2) {
          newer.add(put(k));
        }
        t.mutate(newer); // blocks of single versions, half of them newer than the snapshot
        t.flush();
        t.compact(true); // keeps the versions the snapshot reads, and the tombstones over them
        check(t, ScanRequest.LATEST, "versions and tombstones in one file");
        check(t, before, "an older read point");
      }
      t.compact(true);
      check(t, ScanRequest.LATEST, "compacted again");
    }
  }

  /**
   * Rows of which every 37th has two versions in the file: some blocks end with a row's newer
   * version and the next begins with its older one, which must not be read as another row when the
   * first block is skipped.
   */
  @Test
  void versionsOfARowAcrossTwoBlocksAreOneRow() {
    try (EmbeddedStore store = EmbeddedStore.open(dir.resolve("s"), StoreConfig.defaults())) {
      KvTable t = store.createTable("U", new TableSpec(Map.of("BLOCKSIZE", "1024"), List.of()));
      List<Mutation> rows = new ArrayList<>();
      for (long k = 0; k < 8000; k += 2) {
        rows.add(put(k));
      }
      t.mutate(rows);
      try (KvSnapshot snapshot = store.openSnapshot()) {
        List<Mutation> newer = new ArrayList<>();
        for (long k = 0; k < 8000; k += 2 * 37) {
          newer.add(put(k));
        }
        t.mutate(newer);
        t.flush();
        t.compact(true);
        check(t, ScanRequest.LATEST, "two versions of some rows");
        check(t, ScanRequest.LATEST, "two versions of some rows, vectors cached");
        check(t, snapshot.readPoint(), "the older versions");
      }
    }
  }

  /**
   * A top-N by D ASC NULLS FIRST whose NULLs are all in the last blocks: by then its threshold is a
   * value, and the blocks' NULL rows, whose prefixes the vectors do not hold, must still be read.
   */
  @Test
  void topRowsOfNullsAfterTheThresholdIsFound() {
    try (EmbeddedStore store = EmbeddedStore.open(dir.resolve("s"), StoreConfig.defaults())) {
      KvTable t = store.createTable("N", new TableSpec(Map.of("BLOCKSIZE", "1024"), List.of()));
      List<Mutation> rows = new ArrayList<>();
      for (long k = 0; k < 6000; k++) {
        BigDecimal d = k >= 5990 ? null : BigDecimal.valueOf(random.nextInt(20000) - 5000, 2);
        Object[] row = {k, (int) k, "s", d, null};
        rows.add(new Mutation.Put(CODEC.encodeKey(row), CODEC.encodeValue(row)));
      }
      t.mutate(rows);
      t.flush();
      t.compact(true);
      for (SortKey order : List.of(new SortKey(3, false, true), new SortKey(3, true, false))) {
        ScanRequest top =
            new ScanRequest(
                List.of(KeyRange.ALL),
                new ScanProgram(
                    LAYOUT,
                    Optional.empty(),
                    PROJECTION,
                    4,
                    0,
                    List.of(),
                    List.of(),
                    List.of(order)),
                EvalContext.EMPTY,
                true,
                ScanRequest.LATEST);
        for (int run = 0; run < 2; run++) { // blocks built, then from the vector cache
          List<List<Object>> found = read(t, top);
          assertThat(found).as("top 4 by %s", order).isEqualTo(rowByRow(t, top));
          if (order.nullsFirst()) {
            assertThat(column(found, 3)).as("the NULLs first").containsOnlyNulls().hasSize(4);
          }
        }
      }
    }
  }

  /** {@code n} random puts and deletes of keys in [from, to). */
  private List<Mutation> changes(int n, int from, int to) {
    List<Mutation> changes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long k = from + random.nextInt(to - from);
      changes.add(random.nextInt(3) == 0 ? delete(k) : put(k));
    }
    return changes;
  }

  /** Compares each program over random ranges with the same program over the rows scanned. */
  private void check(KvTable t, long readPoint, String when) {
    List<KeyRange> ranges = new ArrayList<>();
    ranges.add(KeyRange.ALL);
    for (int i = 0; i < 6; i++) {
      long a = random.nextInt(8600);
      long b = a + random.nextInt(4000);
      ranges.add(new KeyRange(key(a), key(b)));
    }
    for (KeyRange range : ranges) {
      for (Optional<Expr> filter : FILTERS) {
        // rows: blocks the vector filter rejects whole are skipped, the others read row by row
        ScanRequest rows =
            new ScanRequest(
                List.of(range),
                new ScanProgram(LAYOUT, filter, PROJECTION, ScanProgram.NO_LIMIT),
                EvalContext.EMPTY,
                true,
                readPoint);
        assertThat(read(t, rows))
            .as("%s: rows, filter %s, over %s", when, filter, range)
            .isEqualTo(rowByRow(t, rows));
        // top-N: rows of blocks that sort after the N-th row found so far are passed over
        for (SortKey order :
            List.of(
                new SortKey(0, true, false),
                new SortKey(3, false, true),
                new SortKey(3, true, false),
                new SortKey(1, false, false))) {
          ScanRequest top =
              new ScanRequest(
                  List.of(range),
                  new ScanProgram(
                      LAYOUT, filter, PROJECTION, 6, 0, List.of(), List.of(), List.of(order)),
                  EvalContext.EMPTY,
                  true,
                  readPoint);
          assertThat(column(read(t, top), order.column()))
              .as("%s: top 6 by %s, filter %s, over %s", when, order, filter, range)
              .isEqualTo(column(rowByRow(t, top), order.column()));
        }
        probes(t, range, filter, readPoint, when);
        for (int p = 0; p < CALLS.size(); p++) {
          ScanProgram program =
              new ScanProgram(
                  LAYOUT,
                  filter,
                  PROJECTION,
                  ScanProgram.NO_LIMIT,
                  0,
                  GROUP_BYS.get(p),
                  CALLS.get(p),
                  List.of());
          ScanRequest request =
              new ScanRequest(List.of(range), program, EvalContext.EMPTY, true, readPoint);
          assertThat(read(t, request))
              .as("%s: program %d, filter %s, over %s", when, p, filter, range)
              .containsExactlyInAnyOrderElementsOf(rowByRow(t, request));
        }
      }
    }
  }

  /**
   * Joins probed in the scan, INNER, SEMI, LEFT and ANTI on V (INTEGER), on D (DECIMAL(12, 2), keys
   * at scales 0, 2 and 3) and on (V, V) (two integer columns: pairs of equal and of unequal
   * values), whose key-set filters select blocks' rows from their vectors (and whose INNER and SEMI
   * probes of integers look their keys up there) and whose joined rows are read from the vectors,
   * and a COUNT of the joined rows; against the same programs over the rows scanned.
   */
  private void probes(
      KvTable t, KeyRange range, Optional<Expr> filter, long readPoint, String when) {
    JoinHashTable.Builder ints = JoinHashTable.builder(1, List.of(0));
    JoinHashTable.Builder decimals = JoinHashTable.builder(1, List.of(0));
    JoinHashTable.Builder pairs = JoinHashTable.builder(2, List.of(0, 1));
    Random keys = new Random(range.hashCode());
    for (int i = 0; i < 40; i++) {
      ints.add(new Object[] {keys.nextInt(2000) - 500});
      ints.add(new Object[] {keys.nextInt(2000) - 500}); // some twice
      decimals.add(new Object[] {BigDecimal.valueOf(keys.nextInt(20000) - 5000, 2)});
      decimals.add(new Object[] {BigDecimal.valueOf(keys.nextInt(200) - 50)});
      decimals.add(new Object[] {BigDecimal.valueOf(keys.nextInt(200000) - 50000, 3)});
      int x = keys.nextInt(2000) - 500;
      pairs.add(new Object[] {x, x});
      pairs.add(new Object[] {x, keys.nextBoolean() ? x : x + 1});
    }
    pairs.add(new Object[] {7, null});
    ints.add(new Object[] {null});
    JoinHashTable byV = ints.build();
    JoinHashTable byD = decimals.build();
    JoinHashTable byVV = pairs.build();
    HashCacheLookup lookup =
        id -> id.equals("v") ? byV : id.equals("d") ? byD : id.equals("vv") ? byVV : null;
    for (HashProbe.Kind kind : HashProbe.Kind.values()) {
      for (String on : List.of("v", "d", "vv")) {
        Expr probeKey = on.equals("d") ? D : V;
        DataType buildType = on.equals("d") ? DataType.decimal(12, 3) : DataType.INTEGER;
        HashProbe probe =
            new HashProbe(
                on,
                on.equals("vv") ? List.of(V, V) : List.of(probeKey),
                kind,
                on.equals("vv") ? List.of(buildType, buildType) : List.of(buildType),
                Optional.empty(),
                false);
        List<Expr> projection =
            kind == HashProbe.Kind.SEMI || kind == HashProbe.Kind.ANTI
                ? List.of(K, probeKey)
                : List.of(K, probeKey, new Expr.ColumnRef(6, buildType));
        List<List<AggregateCall>> calls = List.of(List.of(), List.of(COUNT_STAR));
        for (List<AggregateCall> aggregates : calls) {
          ScanProgram program =
              new ScanProgram(
                  LAYOUT,
                  filter,
                  projection,
                  ScanProgram.NO_LIMIT,
                  0,
                  List.of(),
                  aggregates,
                  List.of(),
                  Optional.of(probe));
          ScanRequest request =
              new ScanRequest(
                  List.of(range), program, EvalContext.EMPTY, true, readPoint, null, null, lookup);
          List<List<Object>> expected = rowByRow(t, request);
          assertThat(read(t, request))
              .as(
                  "%s: %s probe on %s, %s, filter %s, over %s",
                  when, kind, probeKey, aggregates, filter, range)
              .isEqualTo(expected);
        }
      }
    }
  }

  private static List<Object> column(List<List<Object>> rows, int column) {
    List<Object> values = new ArrayList<>();
    for (List<Object> row : rows) {
      values.add(row.get(column));
    }
    return values;
  }

  private static List<List<Object>> read(KvTable t, ScanRequest request) {
    try (RowScanner scanner = t.scan(request)) {
      return drain(scanner);
    }
  }

  private static List<List<Object>> drain(RowScanner scanner) {
    List<List<Object>> result = new ArrayList<>();
    for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
      result.add(Arrays.asList(row));
    }
    return result;
  }

  /** The request's program run over a list of the rows a plain scan of its range returns. */
  private static List<List<Object>> rowByRow(KvTable t, ScanRequest request) {
    ScanProgram plain = new ScanProgram(LAYOUT, Optional.empty(), PROJECTION, -1);
    List<byte[][]> rows = new ArrayList<>();
    ScanRequest all =
        new ScanRequest(request.ranges(), plain, EvalContext.EMPTY, true, request.readPoint());

    for (List<Object> row : read(t, all)) {
      Object[] values = row.toArray();
      Bytes k = CODEC.encodeKey(values);
      Bytes v = CODEC.encodeValue(values);
      rows.add(new byte[][] {k.toByteArray(), v.toByteArray()});
    }
    try (ProgramScanner scanner =
        new ProgramScanner(
            new ListCursor(rows),
            request.program(),
            EvalContext.EMPTY,
            1 << 24,
            null,
            false,
            request.hashCaches())) {
      return drain(scanner);
    }
  }

  /** Rows from a list (offers no blocks: the program reads them one at a time). */
  private static final class ListCursor implements RowCursor {
    private final List<byte[][]> rows;
    private int at = -1;

    ListCursor(List<byte[][]> rows) {
      this.rows = rows;
    }

    @Override
    public boolean next() {
      return ++at < rows.size();
    }

    @Override
    public byte[] keyArray() {
      return rows.get(at)[0];
    }

    @Override
    public int keyOffset() {
      return 0;
    }

    @Override
    public int keyLength() {
      return rows.get(at)[0].length;
    }

    @Override
    public ByteBuffer valueBuffer() {
      return ByteBuffer.wrap(rows.get(at)[1]);
    }

    @Override
    public int valueOffset() {
      return 0;
    }

    @Override
    public int valueLength() {
      return rows.get(at)[1].length;
    }

    @Override
    public void close() {}
  }
}
