package io.cairn.jmh;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.io.FileTrees;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rows of {@link ReadPathRows} in a KV table of a durable store opened through {@link Stores}
 * (no SQL layer): loaded, flushed, major-compacted into one block file and read once so that the
 * block cache holds it. {@link #close()} closes the store and deletes its directory.
 */
final class KvReadPathTable implements AutoCloseable {
  static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.decimal(15, 2)),
              new RowLayout.ColumnLayout(3, DataType.DOUBLE),
              new RowLayout.ColumnLayout(4, DataType.DATE),
              new RowLayout.ColumnLayout(5, DataType.VARCHAR)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  static final RowCodec CODEC = new RowCodec(LAYOUT);

  private static final Expr QTY = new Expr.ColumnRef(1, DataType.decimal(15, 2));
  private static final Expr D = new Expr.ColumnRef(3, DataType.DATE);
  private static final AggregateCall COUNT_STAR =
      new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT);
  private static final AggregateCall SUM_FIRST =
      new AggregateCall(AggregateKind.SUM, List.of(0), false, DataType.decimal(38, 2));
  private static final int BATCH = 10_000;

  private final Path dir;
  private final KvStore store;
  private final KvTable table;
  private final int rows;

  private KvReadPathTable(Path dir, KvStore store, int rows) {
    this.dir = dir;
    this.store = store;
    this.table = store.createTable("T");
    this.rows = rows;
  }

  /**
   * Creates, loads, compacts and warms the table in a store opened with {@code cache}'s settings;
   * fails unless the cache (if any) then holds all of it.
   */
  static KvReadPathTable create(int rows, CacheSetting cache, String cacheSize) throws IOException {
    if (rows <= 0) {
      throw new IllegalArgumentException("rows: expected > 0, found [" + rows + "]");
    }
    Path dir = Files.createTempDirectory("cairn-jmh-kv");
    KvReadPathTable t = null;
    try {
      t = new KvReadPathTable(dir, Stores.open(dir, cache.storeSettings(cacheSize)), rows);
      t.load();
      BlockCacheCounters before = null;
      for (int pass = 0; pass < 2; pass++) {
        before = BlockCacheCounters.read(dir);
        long found = t.countRows(scanAll());
        if (found != rows) {
          throw new IllegalStateException("Rows: expected [" + rows + "], found [" + found + "]");
        }
      }
      BlockCacheCounters.read(dir).checkNoMissesSince(before, cacheSize);
      return t;
    } catch (RuntimeException e) {
      try {
        if (t != null) {
          t.close();
        } else {
          FileTrees.deleteRecursively(dir);
        }
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  int rows() {
    return rows;
  }

  KvTable table() {
    return table;
  }

  BlockCacheCounters cacheCounters() {
    return BlockCacheCounters.read(dir);
  }

  static Object[] row(long k) {
    return new Object[] {
      k, ReadPathRows.qty(k), ReadPathRows.price(k), ReadPathRows.date(k), ReadPathRows.text(k)
    };
  }

  static Bytes key(long k) {
    return CODEC.encodeKey(new Object[] {k, null, null, null, null});
  }

  /** Every row, nothing projected: each row is handed out (as an empty row). */
  static ScanRequest scanAll() {
    return request(List.of(KeyRange.ALL), Optional.empty(), List.of());
  }

  /** The rows with {@code QTY < 10} (20%), nothing projected. */
  static ScanRequest scanQtyBelowLimit() {
    return request(List.of(KeyRange.ALL), Optional.of(qtyBelowLimit()), List.of());
  }

  /** Every row, with QTY projected: decodes a column of each row into a value. */
  static ScanRequest scanProjectQty() {
    return request(List.of(KeyRange.ALL), Optional.empty(), List.of(QTY));
  }

  /** {@code COUNT(*)} in the scan program (what SQL's COUNT(*) sends): one row out. */
  static ScanRequest countStar() {
    return aggregate(Optional.empty(), List.of(), COUNT_STAR);
  }

  /** {@code COUNT(*) WHERE QTY < 10} in the scan program. */
  static ScanRequest countStarQtyBelowLimit() {
    return aggregate(Optional.of(qtyBelowLimit()), List.of(), COUNT_STAR);
  }

  /** {@code SUM(QTY) WHERE D < DATE '1995-01-01'} in the scan program (one partial sum out). */
  static ScanRequest sumQtyBeforeDateLimit() {
    Expr filter =
        new Expr.Call(
            Op.LESS_THAN,
            List.of(D, new Expr.Literal(ReadPathRows.DATE_LIMIT, DataType.DATE)),
            DataType.BOOLEAN);
    return aggregate(Optional.of(filter), List.of(QTY), SUM_FIRST);
  }

  private static Expr qtyBelowLimit() {
    return new Expr.Call(
        Op.LESS_THAN,
        List.of(QTY, new Expr.Literal(ReadPathRows.QTY_LIMIT.setScale(2), DataType.decimal(15, 2))),
        DataType.BOOLEAN);
  }

  private static ScanRequest aggregate(
      Optional<Expr> filter, List<Expr> projection, AggregateCall call) {
    return new ScanRequest(
        List.of(KeyRange.ALL),
        new ScanProgram(LAYOUT, filter, projection, ScanProgram.NO_LIMIT, List.of(call)),
        EvalContext.EMPTY,
        true);
  }

  /** Runs an aggregating scan and returns the first value of its one row. */
  Object aggregateValue(ScanRequest request) {
    try (RowScanner scanner = table.scan(request)) {
      Object[] row = scanner.next();
      if (row == null || scanner.next() != null) {
        throw new IllegalStateException("An aggregating scan must return exactly one row");
      }
      return row[0];
    }
  }

  /** The whole row at {@code k}. */
  static ScanRequest get(long k) {
    List<Expr> all = new ArrayList<>();
    for (int i = 0; i < LAYOUT.columnCount(); i++) {
      all.add(new Expr.ColumnRef(i, LAYOUT.columnType(i)));
    }
    return request(List.of(KeyRange.point(key(k))), Optional.empty(), all);
  }

  private static ScanRequest request(
      List<KeyRange> ranges, Optional<Expr> filter, List<Expr> projection) {
    return new ScanRequest(
        ranges,
        new ScanProgram(LAYOUT, filter, projection, ScanProgram.NO_LIMIT),
        EvalContext.EMPTY,
        true);
  }

  /** Runs the scan to its end and returns how many rows it gave. */
  long countRows(ScanRequest request) {
    long n = 0;
    try (RowScanner scanner = table.scan(request)) {
      while (scanner.next() != null) {
        n++;
      }
    }
    return n;
  }

  private void load() {
    List<Mutation> batch = new ArrayList<>(BATCH);
    for (long k = 0; k < rows; k++) {
      Object[] row = row(k);
      batch.add(new Mutation.Put(CODEC.encodeKey(row), CODEC.encodeValue(row)));
      if (batch.size() == BATCH || k + 1 == rows) {
        table.mutate(batch, Durability.SKIP);
        batch = new ArrayList<>(BATCH);
      }
    }
    table.flush();
    table.compact(true);
  }

  @Override
  public void close() throws IOException {
    try {
      store.close();
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }
}
