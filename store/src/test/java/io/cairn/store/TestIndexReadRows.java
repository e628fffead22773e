package io.cairn.store;

import static io.cairn.store.TestingTables.K;
import static io.cairn.store.TestingTables.LAYOUT;
import static io.cairn.store.TestingTables.V;
import static io.cairn.store.TestingTables.key;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index read restricted to a row-key range ({@link IndexRead#rows()}): only the regions that
 * overlap it, only the entries of its rows, each row exactly once over requests whose row ranges
 * cut the key space, however the regions split since; and every request's rows in index order,
 * whatever number of regions it spans.
 */
class TestIndexReadRows {
  static final IndexSpec ON_V = TestLocalIndexes.ON_V;

  /** ON_V's parts descending. */
  static final IndexSpec ON_V_DESC =
      new IndexSpec(8, List.of(V), List.of(SortOrder.DESC), List.of(), true);

  static final int ROWS = 2000;

  @TempDir Path dir;

  /** V of row {@code k}: spread so that every region holds small and large values. */
  static int value(long k) {
    return (int) ((k * 7919) % 101);
  }

  private static void fill(KvTable t) {
    List<Mutation> rows = new ArrayList<>();
    for (long k = 0; k < ROWS; k++) {
      rows.add(put(k, value(k)));
    }
    t.mutate(rows);
  }

  /** The (V, K) pairs of {@code spec}'s entries of rows in {@code rows}, in the order read. */
  private static List<List<Object>> read(KvTable t, IndexSpec spec, KeyRange rows, boolean lookup) {
    List<Expr> projection =
        lookup
            ? List.of(V, K)
            : List.of(
                new Expr.ColumnRef(0, DataType.INTEGER), new Expr.ColumnRef(1, DataType.BIGINT));
    ScanProgram program =
        new ScanProgram(
            lookup ? LAYOUT : spec.entryLayout(LAYOUT),
            Optional.empty(),
            projection,
            ScanProgram.NO_LIMIT);
    ScanRequest request =
        new ScanRequest(List.of(IndexKeys.range(spec.indexId())), program, EvalContext.EMPTY, true)
            .withIndex(new IndexRead(spec.indexId(), lookup).withRows(rows));
    return readAll(t, request);
  }

  private static Comparator<List<Object>> indexOrder(boolean descending) {
    Comparator<List<Object>> byValue = Comparator.comparing(r -> (Integer) r.get(0));
    return (descending ? byValue.reversed() : byValue)
        .thenComparing(r -> (Long) r.get(1), Comparator.naturalOrder());
  }

  /** Row ranges cutting the key space at {@code cuts} (row numbers). */
  private static List<KeyRange> cut(long... cuts) {
    List<KeyRange> ranges = new ArrayList<>();
    Bytes start = Bytes.EMPTY;
    for (long c : cuts) {
      ranges.add(new KeyRange(start, key(c)));
      start = key(c);
    }
    ranges.add(new KeyRange(start, Bytes.EMPTY));
    return ranges;
  }

  /** Reads {@code spec} in pieces of {@code ranges}: each in index order, each row once. */
  private static void assertExactlyOnceInOrder(
      KvTable t, IndexSpec spec, List<KeyRange> ranges, boolean lookup) {
    boolean descending = spec.orders().get(0) == SortOrder.DESC;
    List<List<Object>> all = new ArrayList<>();
    for (KeyRange rows : ranges) {
      List<List<Object>> piece = read(t, spec, rows, lookup);
      assertThat(piece).isSortedAccordingTo(indexOrder(descending));
      for (List<Object> r : piece) {
        assertThat(rows.contains(key((Long) r.get(1)))).as("row %s in %s", r, rows).isTrue();
      }
      all.addAll(piece);
    }
    assertThat(all).hasSize(ROWS);
    all.sort(Comparator.comparing(r -> (Long) r.get(1)));
    for (int k = 0; k < ROWS; k++) {
      assertThat(all.get(k)).containsExactly(value(k), (long) k);
    }
  }

  @Test
  void aReadOfAllRowsIsInIndexOrderAcrossRegions() {
    try (EmbeddedStore store = new EmbeddedStore("test")) {
      KvTable t =
          store.createTable("T", new TableSpec(Map.of(), List.of(key(500), key(1000), key(1500))));
      t.defineIndexes(LAYOUT, List.of(ON_V, ON_V_DESC));
      fill(t);
      assertThat(t.regions()).hasSize(4);
      for (boolean lookup : new boolean[] {false, true}) {
        assertExactlyOnceInOrder(t, ON_V, List.of(KeyRange.ALL), lookup);
        assertExactlyOnceInOrder(t, ON_V_DESC, List.of(KeyRange.ALL), lookup);
      }
    }
  }

  @Test
  void rowRangesReadEachRowOnceWhereverTheyCutRegions() {
    try (EmbeddedStore store = new EmbeddedStore("test")) {
      KvTable t =
          store.createTable("T", new TableSpec(Map.of(), List.of(key(500), key(1000), key(1500))));
      t.defineIndexes(LAYOUT, List.of(ON_V, ON_V_DESC));
      fill(t);
      for (boolean lookup : new boolean[] {false, true}) {
        // at region boundaries, inside regions, across several regions
        assertExactlyOnceInOrder(t, ON_V, cut(500, 1000, 1500), lookup);
        assertExactlyOnceInOrder(t, ON_V, cut(17, 499, 501, 1200), lookup);
        assertExactlyOnceInOrder(t, ON_V_DESC, cut(250, 1750), lookup);
      }
      // a range outside every row reads nothing
      assertThat(read(t, ON_V, new KeyRange(key(5000), Bytes.EMPTY), false)).isEmpty();
      assertThat(read(t, ON_V, new KeyRange(key(600), key(601)), true))
          .containsExactly(List.of(value(600), 600L));
    }
  }

  @Test
  void rangesCutBeforeSplitsStillReadEachRowOnceInOrder() {
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(TestLocalIndexes.SMALL))) {
      KvTable t = store.createTable("T");
      t.defineIndexes(LAYOUT, List.of(ON_V, ON_V_DESC));
      fill(t);
      t.flush();
      // cut at the regions of now, then split them: each range spans several regions
      List<Bytes> cuts = new ArrayList<>();
      t.regions().stream().skip(1).forEach(r -> cuts.add(r.range().start()));
      t.split();
      t.compact(true);
      t.split();
      assertThat(t.regions().size()).isGreaterThan(cuts.size() + 1);
      List<KeyRange> ranges = new ArrayList<>();
      Bytes start = Bytes.EMPTY;
      for (Bytes c : cuts) {
        ranges.add(new KeyRange(start, c));
        start = c;
      }
      ranges.add(new KeyRange(start, Bytes.EMPTY));
      for (boolean lookup : new boolean[] {false, true}) {
        assertExactlyOnceInOrder(t, ON_V, ranges, lookup);
        assertExactlyOnceInOrder(t, ON_V_DESC, cut(333, 1234), lookup);
      }
    }
  }

  @Test
  void aLimitStopsARequestAfterItsFirstRowsInIndexOrder() {
    try (EmbeddedStore store = new EmbeddedStore("test")) {
      KvTable t =
          store.createTable("T", new TableSpec(Map.of(), List.of(key(500), key(1000), key(1500))));
      t.defineIndexes(LAYOUT, List.of(ON_V));
      fill(t);
      ScanProgram program =
          new ScanProgram(
              ON_V.entryLayout(LAYOUT),
              Optional.empty(),
              List.of(
                  new Expr.ColumnRef(0, DataType.INTEGER), new Expr.ColumnRef(1, DataType.BIGINT)),
              5);
      ScanRequest request =
          new ScanRequest(
                  List.of(IndexKeys.range(ON_V.indexId())), program, EvalContext.EMPTY, true)
              .withIndex(new IndexRead(ON_V.indexId(), false));
      List<List<Object>> expected = new ArrayList<>();
      for (long k = 0; k < ROWS; k++) {
        expected.add(List.of(value(k), k));
      }
      expected.sort(indexOrder(false));
      assertThat(readAll(t, request)).isEqualTo(expected.subList(0, 5));
    }
  }
}
