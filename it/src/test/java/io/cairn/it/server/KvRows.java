package io.cairn.it.server;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.Admin;
import io.cairn.protocol.CloseScan;
import io.cairn.protocol.CreateTable;
import io.cairn.protocol.Flush;
import io.cairn.protocol.Get;
import io.cairn.protocol.GetCatalog;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.Mutation;
import io.cairn.protocol.OpenScan;
import io.cairn.protocol.PageLimits;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.ScanNext;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.TableBatch;
import io.cairn.protocol.wire.RowPageReader;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.relocated.protobuf.ByteString;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The test tables of the raw protocol tests, {@code PUBLIC.NAME(K BIGINT PRIMARY KEY, V VARCHAR, N
 * BIGINT)}, and the requests that create, write, scan and flush them, built with the same codecs
 * the driver uses ({@link RowCodec}, {@link io.cairn.protocol.wire}). Rows are {@code (k, v, n)}.
 */
final class KvRows {
  private static final LocalDateTime STATEMENT_TIME = LocalDateTime.of(2025, 1, 1, 0, 0);

  private final TableDescriptor table;
  private final RowCodec codec;

  /** The table the server created (its descriptor as the server answered it). */
  KvRows(TableDescriptor table) {
    this.table = requireNonNull(table, "table is null");
    this.codec = new RowCodec(table.layout());
  }

  /** The draft of {@code PUBLIC.name}; the server assigns its table id. */
  static TableDescriptor draft(String name) {
    return draft(name, Map.of());
  }

  /** The draft of {@code PUBLIC.name} with table {@code options} (e.g. BLOCKCACHE=FALSE). */
  static TableDescriptor draft(String name, Map<String, String> options) {
    List<ColumnDescriptor> columns =
        List.of(
            new ColumnDescriptor("K", 1, DataType.BIGINT.withNullable(false)),
            new ColumnDescriptor("V", 2, DataType.VARCHAR.withNullable(true)),
            new ColumnDescriptor("N", 3, DataType.BIGINT.withNullable(true)));
    return new TableDescriptor(
        0,
        Catalog.DEFAULT_SCHEMA,
        name,
        columns,
        List.of(new KeyColumn(0, SortOrder.ASC)),
        options,
        1);
  }

  /** CREATE TABLE PUBLIC.name, split into regions before each key of {@code splitKeys}. */
  static Request.Builder createTable(String name, long... splitKeys) {
    return createTable(draft(name), splitKeys);
  }

  /** CREATE TABLE of {@code draft}, split into regions before each key of {@code splitKeys}. */
  static Request.Builder createTable(TableDescriptor draft, long... splitKeys) {
    RowCodec codec = new RowCodec(draft.layout());
    CreateTable.Builder create =
        CreateTable.newBuilder()
            .setDraft(ByteString.copyFrom(DescriptorSerializer.serialize(draft)));
    for (long k : splitKeys) {
      create.addSplitPoints(WireMessages.bytes(codec.encodeKeyPrefix(List.of(k))));
    }
    return Request.newBuilder().setCreateTable(create);
  }

  /** The descriptor in a CreateTable answer. */
  static TableDescriptor created(io.cairn.protocol.Response answer) {
    RawClient.ok(answer);
    if (!answer.hasTableDescriptor() || answer.getTableDescriptor().getTable().isEmpty()) {
      throw new AssertionError("CreateTable was answered with " + RawClient.describe(answer));
    }
    return DescriptorSerializer.deserialize(answer.getTableDescriptor().getTable().toByteArray());
  }

  static Request.Builder getCatalog() {
    return Request.newBuilder().setGetCatalog(GetCatalog.getDefaultInstance());
  }

  /** The qualified names of the tables in a CatalogData answer. */
  static List<String> tableNames(io.cairn.protocol.Response answer) {
    RawClient.ok(answer);
    if (!answer.hasCatalogData()) {
      throw new AssertionError("GetCatalog was answered with " + RawClient.describe(answer));
    }
    List<String> names = new ArrayList<>();
    for (ByteString bytes : answer.getCatalogData().getTablesList()) {
      names.add(DescriptorSerializer.deserialize(bytes.toByteArray()).qualifiedName());
    }
    return names;
  }

  static Request.Builder ping() {
    return Request.newBuilder().setPing(Ping.getDefaultInstance());
  }

  TableDescriptor table() {
    return table;
  }

  String kvTable() {
    return table.kvTableName();
  }

  /** The value every test writes for key {@code k} in version {@code n}. */
  static String value(long k, long n) {
    return "v" + k + "." + n;
  }

  /** Upserts rows {@code (k, value(k, n), n)} for every k in {@code keys}, in one batch. */
  Request.Builder upsert(long n, long... keys) {
    TableBatch.Builder batch = TableBatch.newBuilder().setTable(kvTable());
    for (long k : keys) {
      Object[] row = {k, value(k, n), n};
      batch.addMutations(
          Mutation.newBuilder()
              .setKey(WireMessages.bytes(codec.encodeKey(row)))
              .setValue(WireMessages.bytes(codec.encodeValue(row))));
    }
    return Request.newBuilder().setMutate(Mutate.newBuilder().addBatches(batch));
  }

  /** Upserts rows {@code (k, v, k)} for k in [{@code from}, {@code to}) with {@code v} padded. */
  Request.Builder upsertRange(long from, long to, int valueChars) {
    TableBatch.Builder batch = TableBatch.newBuilder().setTable(kvTable());
    for (long k = from; k < to; k++) {
      Object[] row = {k, padded(k, valueChars), k};
      batch.addMutations(
          Mutation.newBuilder()
              .setKey(WireMessages.bytes(codec.encodeKey(row)))
              .setValue(WireMessages.bytes(codec.encodeValue(row))));
    }
    return Request.newBuilder().setMutate(Mutate.newBuilder().addBatches(batch));
  }

  /** A value of exactly {@code chars} characters that starts with the key. */
  static String padded(long k, int chars) {
    StringBuilder b = new StringBuilder(chars).append(k).append(':');
    while (b.length() < chars) {
      b.append((char) ('a' + (b.length() + k) % 26));
    }
    b.setLength(chars);
    return b.toString();
  }

  /** Every row, every column. */
  ScanSpec fullScan() {
    return scan(KeyRange.ALL);
  }

  /** Keys in [{@code from}, {@code to}), every column. */
  ScanSpec scan(long from, long to) {
    Bytes start = codec.encodeKeyPrefix(List.of(from));
    Bytes stop = codec.encodeKeyPrefix(List.of(to));
    return scan(new KeyRange(start, stop));
  }

  /**
   * Keys in [{@code from}, {@code to}) as one key range per {@code step} keys: the same rows as
   * {@link #scan(long, long)}, in a longer request.
   */
  ScanSpec scanInSteps(long from, long to, long step) {
    List<KeyRange> ranges = new ArrayList<>();
    for (long k = from; k < to; k += step) {
      ranges.add(
          new KeyRange(
              codec.encodeKeyPrefix(List.of(k)),
              codec.encodeKeyPrefix(List.of(Math.min(k + step, to)))));
    }
    return scan(ranges);
  }

  private ScanSpec scan(KeyRange range) {
    return scan(List.of(range));
  }

  private ScanSpec scan(List<KeyRange> ranges) {
    List<Expr> projection = new ArrayList<>();
    for (int i = 0; i < table.columns().size(); i++) {
      projection.add(new Expr.ColumnRef(i, table.columns().get(i).type()));
    }
    ScanProgram program =
        new ScanProgram(
            table.layout(), java.util.Optional.empty(), projection, ScanProgram.NO_LIMIT);
    ScanRequest request =
        new ScanRequest(ranges, program, new EvalContext(new Object[0], STATEMENT_TIME), true);
    return WireMessages.toProto(kvTable(), request);
  }

  static Request.Builder get(ScanSpec scan) {
    return Request.newBuilder().setGet(Get.newBuilder().setScan(scan));
  }

  static Request.Builder openScan(ScanSpec scan, int maxRows, int maxBytes) {
    return Request.newBuilder()
        .setOpenScan(OpenScan.newBuilder().setScan(scan).setLimits(limits(maxRows, maxBytes)));
  }

  static Request.Builder scanNext(long scannerId, int maxRows, int maxBytes) {
    return Request.newBuilder()
        .setScanNext(
            ScanNext.newBuilder().setScannerId(scannerId).setLimits(limits(maxRows, maxBytes)));
  }

  static Request.Builder closeScan(long scannerId) {
    return Request.newBuilder().setCloseScan(CloseScan.newBuilder().setScannerId(scannerId));
  }

  private static PageLimits limits(int maxRows, int maxBytes) {
    return PageLimits.newBuilder().setMaxRows(maxRows).setMaxBytes(maxBytes).build();
  }

  Request.Builder flush() {
    return Request.newBuilder()
        .setAdmin(Admin.newBuilder().setTable(kvTable()).setFlush(Flush.getDefaultInstance()));
  }

  /** The rows of a ScanPage answer, each {@code (k, v, n)}. */
  static Object[][] rows(io.cairn.protocol.Response answer) {
    RawClient.ok(answer);
    if (!answer.hasScanPage()) {
      throw new AssertionError("a scan was answered with " + RawClient.describe(answer));
    }
    ScanPage page = answer.getScanPage();
    return RowPageReader.read(page.getRows(), page.getRowCount(), page.getColumnCount());
  }

  /**
   * Reads the whole table through {@code client} with a paged scan of {@code maxRows} rows per
   * page; checks that keys ascend.
   */
  List<Object[]> scanAll(RawClient client, int maxRows) throws java.io.IOException {
    List<Object[]> all = new ArrayList<>();
    io.cairn.protocol.Response page = client.call(openScan(fullScan(), maxRows, 0));
    while (true) {
      for (Object[] row : rows(page)) {
        if (!all.isEmpty() && (Long) all.get(all.size() - 1)[0] >= (Long) row[0]) {
          throw new AssertionError(
              "keys out of order: [" + all.get(all.size() - 1)[0] + "] then [" + row[0] + "]");
        }
        all.add(row);
      }
      if (page.getScanPage().getDone()) {
        return all;
      }
      page = client.call(scanNext(page.getScanPage().getScannerId(), maxRows, 0));
    }
  }
}
