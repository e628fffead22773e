package io.cairn.store;

import static io.cairn.store.TestingTables.CODEC;
import static io.cairn.store.TestingTables.K;
import static io.cairn.store.TestingTables.LAYOUT;
import static io.cairn.store.TestingTables.V;
import static io.cairn.store.TestingTables.delete;
import static io.cairn.store.TestingTables.insert;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local indexes in the store: entries kept with their rows by every commit, built from a snapshot,
 * read covered or with row lookups, carried by splits and log replay, dropped by compactions.
 */
class TestLocalIndexes {
  /** An index on V (ascending), carrying nothing. */
  static final IndexSpec ON_V =
      new IndexSpec(7, List.of(V), List.of(SortOrder.ASC), List.of(), true);

  /** An index on -V (a function of V), descending. */
  static final IndexSpec ON_MINUS_V =
      new IndexSpec(
          9,
          List.of(new Expr.Call(Op.NEGATE, List.of(V), DataType.INTEGER)),
          List.of(SortOrder.DESC),
          List.of(),
          true);

  static final Map<String, String> SMALL =
      Map.of(
          StoreConfig.MEMSTORE_FLUSH_SIZE, "64k",
          StoreConfig.REGION_SPLIT_SIZE, "16k",
          StoreConfig.COMPACTION_MIN_FILES, "3",
          StoreConfig.COMPACTION_THROUGHPUT, "0");

  @TempDir Path dir;

  private EmbeddedStore open(Map<String, String> settings) {
    return EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(settings));
  }

  /** The (V, K) pairs of index {@code spec}'s entries with V in [from, to], covered, sorted. */
  static List<List<Object>> entries(KvTable t, IndexSpec spec, Integer value) {
    RowLayout entryLayout = spec.entryLayout(LAYOUT);
    KeyRange over =
        value == null
            ? KeyRange.ALL
            : KeyRange.prefix(new RowCodec(entryLayout).encodeKeyPrefix(List.of(value)));
    ScanProgram program =
        new ScanProgram(
            entryLayout,
            Optional.empty(),
            List.of(
                new Expr.ColumnRef(0, entryLayout.columnType(0)),
                new Expr.ColumnRef(1, DataType.BIGINT)),
            ScanProgram.NO_LIMIT);
    ScanRequest request =
        new ScanRequest(
                List.of(IndexKeys.range(spec.indexId(), over)), program, EvalContext.EMPTY, true)
            .withIndex(new IndexRead(spec.indexId(), false));
    List<List<Object>> rows = new ArrayList<>(readAll(t, request));
    rows.sort(Comparator.comparing((List<Object> r) -> (Long) r.get(1)));
    return rows;
  }

  /** The (K, V) rows found through index {@code spec}'s entries of V = {@code value}. */
  static List<List<Object>> lookup(KvTable t, IndexSpec spec, int value) {
    KeyRange over =
        KeyRange.prefix(new RowCodec(spec.entryLayout(LAYOUT)).encodeKeyPrefix(List.of(value)));
    ScanRequest request =
        new ScanRequest(
                List.of(IndexKeys.range(spec.indexId(), over)),
                new ScanProgram(LAYOUT, Optional.empty(), List.of(K, V), ScanProgram.NO_LIMIT),
                EvalContext.EMPTY,
                true)
            .withIndex(new IndexRead(spec.indexId(), true));
    List<List<Object>> rows = new ArrayList<>(readAll(t, request));
    rows.sort(Comparator.comparing((List<Object> r) -> (Long) r.get(0)));
    return rows;
  }

  private static void assertConsistent(KvTable t, IndexSpec spec, long rows) {
    IndexCheck check = t.verifyIndex(spec.indexId());
    assertThat(check.samples()).isEmpty();
    assertThat(check.consistent()).isTrue();
    assertThat(check.rows()).isEqualTo(rows);
    assertThat(check.entries()).isEqualTo(rows);
  }

  @Test
  void everyCommitKeepsTheEntriesOfItsRows() {
    try (EmbeddedStore store = new EmbeddedStore("test")) {
      KvTable t = store.createTable("T");
      t.defineIndexes(LAYOUT, List.of(ON_V, ON_MINUS_V));
      t.mutate(List.of(put(1, 10), put(2, 20), put(3, 10)));
      assertThat(entries(t, ON_V, 10)).containsExactly(List.of(10, 1L), List.of(10, 3L));
      t.mutate(List.of(put(1, 20))); // update: the old entry goes, the new one comes
      assertThat(entries(t, ON_V, 10)).containsExactly(List.of(10, 3L));
      assertThat(entries(t, ON_V, 20)).containsExactly(List.of(20, 1L), List.of(20, 2L));
      t.mutate(List.of(delete(2), insert(4, 20), put(4, 30))); // the batch's own rows count
      assertThat(entries(t, ON_V, 20)).containsExactly(List.of(20, 1L));
      assertThat(entries(t, ON_V, 30)).containsExactly(List.of(30, 4L));
      assertThat(entries(t, ON_MINUS_V, -30)).containsExactly(List.of(-30, 4L));
      assertThat(lookup(t, ON_V, 20)).containsExactly(List.of(1L, 20));
      // a data scan never sees entries
      assertThat(readAll(t, scanAll()))
          .containsExactly(List.of(1L, 20), List.of(3L, 10), List.of(4L, 30));
      assertConsistent(t, ON_V, 3);
      assertConsistent(t, ON_MINUS_V, 3);
      assertThat(t.approximateRowCount()).isLessThan(12); // entries are not rows
    }
  }

  @Test
  void buildWritesTheEntriesOfExistingRowsAndWritesDuringItWin() {
    try (EmbeddedStore store = open(SMALL)) {
      KvTable t = store.createTable("T");
      List<Mutation> rows = new ArrayList<>();
      for (long k = 0; k < 3000; k++) {
        rows.add(put(k, (int) (k % 100)));
      }
      t.mutate(rows);
      t.flush();
      t.split();
      assertThat(t.regions()).hasSizeGreaterThan(1);
      t.defineIndexes(LAYOUT, List.of(ON_V.withReadable(false)));
      t.mutate(List.of(put(5, 1000), delete(6))); // maintained before the build's snapshot
      AtomicLong progress = new AtomicLong();
      long built = t.buildIndex(ON_V.indexId(), progress::set);
      assertThat(built).isEqualTo(2999);
      assertThat(progress.get()).isEqualTo(2999);
      assertConsistent(t, ON_V, 2999);
      assertThat(entries(t, ON_V, 1000)).containsExactly(List.of(1000, 5L));
      assertThat(entries(t, ON_V, 6)).hasSize(29); // 6, 106, ... without 6 itself
      t.mutate(List.of(put(106, 7)));
      assertThat(entries(t, ON_V, 6)).hasSize(28);
      assertThat(lookup(t, ON_V, 7)).hasSize(31);
      assertConsistent(t, ON_V, 2999);
    }
  }

  @Test
  void aBigRegionIsBuiltInPiecesIntoFilesOfDisjointKeyRanges() {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t =
          store.createTable(
              "T", new io.cairn.kv.TableSpec(Map.of("GUIDE_POSTS_WIDTH", "100000"), List.of()));
      List<Mutation> rows = new ArrayList<>();
      for (long k = 0; k < 250_000; k++) {
        rows.add(put(k, (int) ((k * 7919) % 100_003)));
        if (rows.size() == 50_000) {
          t.mutate(rows);
          rows.clear();
        }
      }
      t.flush();
      t.compact(true);
      assertThat(t.regions()).hasSize(1);
      int filesBefore = t.regions().get(0).fileCount();
      t.defineIndexes(LAYOUT, List.of(ON_V.withReadable(false)));
      assertThat(t.buildIndex(ON_V.indexId(), n -> {})).isEqualTo(250_000);
      assertThat(t.regions().get(0).fileCount() - filesBefore)
          .as("files the build added")
          .isBetween(1, Runtime.getRuntime().availableProcessors());
      assertConsistent(t, ON_V, 250_000);
      assertThat(entries(t, ON_V, 7919))
          .containsExactly(List.of(7919, 1L), List.of(7919, 100_004L), List.of(7919, 200_007L));
    }
  }

  @Test
  void splitsFlushesAndCompactionsCarryEntriesWithTheirRows() {
    try (EmbeddedStore store = open(SMALL)) {
      KvTable t = store.createTable("T");
      t.defineIndexes(LAYOUT, List.of(ON_V));
      for (int round = 0; round < 5; round++) {
        List<Mutation> batch = new ArrayList<>();
        for (long k = 0; k < 2000; k++) {
          batch.add(put(k, (int) ((k * 7 + round) % 50)));
        }
        t.mutate(batch);
        t.flush();
      }
      t.split();
      t.compact(true);
      t.split();
      assertThat(t.regions().size()).isGreaterThan(2);
      assertConsistent(t, ON_V, 2000);
      assertThat(entries(t, ON_V, null)).hasSize(2000);
      assertThat(readAll(t, scanAll())).hasSize(2000);
    }
  }

  @Test
  void theLogReplaysEntriesWithTheirRows() {
    EmbeddedStore crashed = open(Map.of());
    KvTable t = crashed.createTable("T");
    t.defineIndexes(LAYOUT, List.of(ON_V));
    t.mutate(List.of(put(1, 10), put(2, 20)));
    t.flush();
    t.mutate(List.of(put(1, 30), delete(2), put(3, 10)));
    crashed.abandonForTesting();
    try (EmbeddedStore store = open(Map.of())) {
      KvTable reopened = store.table("T").orElseThrow();
      reopened.defineIndexes(LAYOUT, List.of(ON_V));
      assertConsistent(reopened, ON_V, 2);
      assertThat(entries(reopened, ON_V, null)).containsExactly(List.of(30, 1L), List.of(10, 3L));
      assertThat(readAll(reopened, scanAll())).containsExactly(List.of(1L, 30), List.of(3L, 10));
    }
  }

  @Test
  void aDroppedIndexsEntriesGoAtTheNextCompaction() {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t = store.createTable("T");
      t.defineIndexes(LAYOUT, List.of(ON_V, ON_MINUS_V));
      List<Mutation> rows = new ArrayList<>();
      for (long k = 0; k < 500; k++) {
        rows.add(put(k, (int) k));
      }
      t.mutate(rows);
      t.flush();
      t.defineIndexes(LAYOUT, List.of(ON_MINUS_V)); // DROP INDEX of ON_V: O(1)
      assertThatThrownBy(() -> entries(t, ON_V, null))
          .isInstanceOf(CairnException.class)
          .extracting(e -> ((CairnException) e).errorCode())
          .isEqualTo(ErrorCode.INDEX_NOT_FOUND);
      t.compact(true);
      // were ON_V (same id) defined again, the compaction left none of its old entries
      t.defineIndexes(LAYOUT, List.of(ON_V, ON_MINUS_V));
      IndexCheck check = t.verifyIndex(ON_V.indexId());
      assertThat(check.entries()).isZero();
      assertThat(check.missing()).isEqualTo(500);
      assertConsistent(t, ON_MINUS_V, 500);
    }
  }

  @Test
  void onlyCommitsWriteIndexEntries() {
    try (EmbeddedStore store = new EmbeddedStore("test")) {
      KvTable t = store.createTable("T");
      t.defineIndexes(LAYOUT, List.of(ON_V));
      io.cairn.core.encoding.ByteBuilder b = new io.cairn.core.encoding.ByteBuilder();
      IndexKeys.appendPrefix(b, 7);
      IndexKeys.appendRowKey(b, new byte[] {1, 2}, 1, 1);
      Bytes forged = b.toBytes();
      assertThatThrownBy(() -> t.mutate(List.of(new Mutation.Put(forged, Bytes.EMPTY))))
          .isInstanceOf(CairnException.class)
          .hasMessageContaining("index key space");
      assertThat(CODEC.encodeKey(new Object[] {1L, null}).get(0))
          .isNotEqualTo(IndexKeys.SPACE_MARKER);
    }
  }
}
