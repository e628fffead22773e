package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.CreateTable;
import io.cairn.protocol.Get;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.OpenScan;
import io.cairn.protocol.PageLimits;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanNext;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.wire.RowPageReader;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.relocated.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table T(K BIGINT PRIMARY KEY, V VARCHAR(100), N INTEGER) and the requests tests send about it:
 * its creation, writes and scans, as a client would encode them.
 */
final class TestingRpcTables {
  static final DataType K_TYPE = DataType.BIGINT.withNullable(false);
  static final Expr K = new Expr.ColumnRef(0, K_TYPE);
  static final Expr V = new Expr.ColumnRef(1, DataType.varchar(100));
  static final Expr N = new Expr.ColumnRef(2, DataType.INTEGER);

  private TestingRpcTables() {}

  static TableDescriptor draft(String name) {
    return new TableDescriptor(
        0,
        "PUBLIC",
        name,
        List.of(
            new ColumnDescriptor("K", 1, K_TYPE),
            new ColumnDescriptor("V", 2, DataType.varchar(100)),
            new ColumnDescriptor("N", 3, DataType.INTEGER)),
        List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
        Map.of(),
        1);
  }

  static Request.Builder createTable(String name) {
    return Request.newBuilder()
        .setCreateTable(
            CreateTable.newBuilder()
                .setDraft(ByteString.copyFrom(DescriptorSerializer.serialize(draft(name)))));
  }

  /** Creates table {@code name} and returns its descriptor as the server made it. */
  static TableDescriptor create(TestingRpcClient client, String name) {
    Response answer = client.call(createTable(name));
    assertThat(answer.hasTableDescriptor()).as("%s", answer).isTrue();
    return DescriptorSerializer.deserialize(answer.getTableDescriptor().getTable().toByteArray());
  }

  static Mutation put(TableDescriptor t, long k, String v, Integer n) {
    RowCodec codec = new RowCodec(t.layout());
    Object[] row = {k, v, n};
    return new Mutation.Put(codec.encodeKey(row), codec.encodeValue(row));
  }

  static Mutation insert(TableDescriptor t, long k, String v, Integer n) {
    RowCodec codec = new RowCodec(t.layout());
    Object[] row = {k, v, n};
    return new Mutation.Put(
        codec.encodeKey(row), codec.encodeValue(row), Mutation.Condition.MUST_NOT_EXIST);
  }

  static Request.Builder mutate(TableDescriptor t, List<Mutation> mutations) {
    return Request.newBuilder()
        .setMutate(
            Mutate.newBuilder().addBatches(WireMessages.toProto(t.kvTableName(), mutations)));
  }

  /** Writes rows k = from .. to - 1 with v = "v" + k, n = k % 100, in batches. */
  static void load(TestingRpcClient client, TableDescriptor t, long from, long to) {
    List<Mutation> batch = new ArrayList<>();
    for (long k = from; k < to; k++) {
      batch.add(put(t, k, "v" + k, (int) (k % 100)));
      if (batch.size() == 1000 || k == to - 1) {
        Response answer = client.call(mutate(t, batch));
        assertThat(answer.hasMutateResult()).as("%s", answer).isTrue();
        batch.clear();
      }
    }
  }

  static ScanSpec scan(TableDescriptor t, Optional<Expr> filter, List<Expr> projection) {
    return scan(t, new ScanProgram(t.layout(), filter, projection, ScanProgram.NO_LIMIT));
  }

  static ScanSpec scan(TableDescriptor t, ScanProgram program) {
    return WireMessages.toProto(
        t.kvTableName(), new ScanRequest(List.of(KeyRange.ALL), program, EvalContext.EMPTY, true));
  }

  /** COUNT(*) as a partial aggregate in the scan. */
  static ScanSpec count(TableDescriptor t, Optional<Expr> filter) {
    return scan(
        t,
        new ScanProgram(
            t.layout(),
            filter,
            List.of(),
            ScanProgram.NO_LIMIT,
            List.of(
                new AggregateCall(
                    AggregateKind.COUNT_STAR,
                    List.of(),
                    false,
                    DataType.BIGINT.withNullable(false)))));
  }

  /** V = value */
  static Optional<Expr> vEquals(String value) {
    return Optional.of(
        new Expr.Call(
            Op.EQUALS,
            List.of(V, new Expr.Literal(value, DataType.varchar(100))),
            DataType.BOOLEAN));
  }

  static Request.Builder get(ScanSpec scan) {
    return Request.newBuilder().setGet(Get.newBuilder().setScan(scan));
  }

  static Request.Builder openScan(ScanSpec scan, int rows, int bytes, int millis) {
    return Request.newBuilder()
        .setOpenScan(OpenScan.newBuilder().setScan(scan).setLimits(limits(rows, bytes, millis)));
  }

  static Request.Builder scanNext(long scanner, int rows, int bytes, int millis) {
    return Request.newBuilder()
        .setScanNext(
            ScanNext.newBuilder().setScannerId(scanner).setLimits(limits(rows, bytes, millis)));
  }

  static PageLimits limits(int rows, int bytes, int millis) {
    return PageLimits.newBuilder().setMaxRows(rows).setMaxBytes(bytes).setMaxMillis(millis).build();
  }

  static List<List<Object>> rows(ScanPage page) {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row :
        RowPageReader.read(page.getRows(), page.getRowCount(), page.getColumnCount())) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  /** The answer's page; fails the test on anything else. */
  static ScanPage page(Response answer) {
    assertThat(answer.hasScanPage()).as("%s", answer).isTrue();
    return answer.getScanPage();
  }
}
