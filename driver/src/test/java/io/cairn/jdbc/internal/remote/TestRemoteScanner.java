package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.Error;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.wire.RowPageWriter;
import io.cairn.protocol.wire.WirePrograms;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Remote scans against a scripted server: Get or paged scan, one page ahead, closing early. */
class TestRemoteScanner {
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(new RowLayout.ColumnLayout(1, DataType.INTEGER.withNullable(false))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);
  private static final ScanProgram PROGRAM =
      new ScanProgram(
          LAYOUT,
          Optional.empty(),
          List.of(new Expr.ColumnRef(0, DataType.INTEGER)),
          ScanProgram.NO_LIMIT);

  private final List<AutoCloseable> resources = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable r : resources) {
      r.close();
    }
  }

  private static Response.Builder page(long scanner, boolean done, int... values) {
    RowPageWriter writer = new RowPageWriter(1);
    for (int v : values) {
      writer.add(new Object[] {v});
    }
    return Response.newBuilder()
        .setScanPage(
            ScanPage.newBuilder()
                .setScannerId(done ? 0 : scanner)
                .setRowCount(values.length)
                .setColumnCount(1)
                .setRows(writer.finish())
                .setDone(done));
  }

  private RemoteKvTable table(TestingRpcServer server) {
    RpcConnection connection = new RpcConnection(server.config());
    resources.add(connection::close);
    return new RemoteKvStore(connection).handle("T1");
  }

  private static ScanRequest scan(List<KeyRange> ranges) {
    return new ScanRequest(ranges, PROGRAM, EvalContext.EMPTY, true);
  }

  @Test
  void fewPointKeysAreOneGet() throws Exception {
    TestingRpcServer server =
        new TestingRpcServer((request, c) -> c.answer(request, page(0, true, 1, 2)));
    resources.add(server);
    List<KeyRange> points = new ArrayList<>();
    for (int i = 0; i < RemoteKvTable.MAX_GET_POINTS; i++) {
      points.add(KeyRange.point(Bytes.wrap(new byte[] {1, (byte) i})));
    }
    try (RowScanner scanner = table(server).scan(scan(points))) {
      assertThat(scanner.next()).containsExactly(1);
      assertThat(scanner.next()).containsExactly(2);
      assertThat(scanner.next()).isNull();
    }
    Request get = server.nextRequest();
    assertThat(get.hasGet()).isTrue();
    assertThat(get.getGet().getScan().getTable()).isEqualTo("T1");
    assertThat(get.getGet().getScan().getRangesCount()).isEqualTo(RemoteKvTable.MAX_GET_POINTS);

    // one more point, or a range, makes it a paged scan
    points.add(KeyRange.point(Bytes.wrap(new byte[] {2})));
    try (RowScanner scanner = table(server).scan(scan(points))) {
      assertThat(scanner.next()).containsExactly(1);
    }
    assertThat(server.nextRequest().hasOpenScan()).isTrue();
    try (RowScanner scanner = table(server).scan(scan(List.of(KeyRange.ALL)))) {
      assertThat(scanner.next()).containsExactly(1);
    }
    assertThat(server.nextRequest().hasOpenScan()).isTrue();
  }

  /** {@code depth} nested NOTs over a comparison of column 0. */
  private static ScanRequest deepScan(int depth) {
    Expr e =
        new Expr.Call(
            Op.GREATER_THAN,
            List.of(new Expr.ColumnRef(0, DataType.INTEGER), new Expr.Literal(0, DataType.INTEGER)),
            DataType.BOOLEAN);
    for (int i = 1; i < depth; i++) {
      e = new Expr.Call(Op.NOT, List.of(e), DataType.BOOLEAN);
    }
    ScanProgram program = new ScanProgram(LAYOUT, Optional.of(e), List.of(e), ScanProgram.NO_LIMIT);
    return new ScanRequest(List.of(KeyRange.ALL), program, EvalContext.EMPTY, true);
  }

  @Test
  void deepProgramsTravelFlatAndTooDeepOnesAreRefusedBeforeSending() throws Exception {
    TestingRpcServer server =
        new TestingRpcServer((request, c) -> c.answer(request, page(0, true, 1)));
    resources.add(server);
    RemoteKvTable table = table(server);
    assertThatThrownBy(() -> table.scan(deepScan(WirePrograms.MAX_EXPR_DEPTH + 1)))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
              assertThat(e.getMessage()).contains("[" + WirePrograms.MAX_EXPR_DEPTH + "]");
            });
    try (RowScanner scanner = table.scan(deepScan(1_500))) {
      assertThat(scanner.next()).containsExactly(1);
    }
    // the first request the server saw: the refused scan sent nothing
    Request open = server.nextRequest();
    assertThat(open.hasOpenScan()).isTrue();
    io.cairn.protocol.ScanProgram sent = open.getOpenScan().getScan().getProgram();
    assertThat(sent.getFilter().hasNodes()).isTrue();
    assertThat(sent.getProjection(0).hasNodes()).isTrue();
    // compared as flat messages (comparing 1,500-level records recurses deeply)
    assertThat(WirePrograms.toProto(WirePrograms.fromProto(sent))).isEqualTo(sent);
    assertThat(WirePrograms.toProto(deepScan(1_500).program())).isEqualTo(sent);
  }

  @Test
  void onePageIsPrefetchedAndCloseFromAnotherThreadStopsTheScan() throws Exception {
    List<Request> scanNexts = new CopyOnWriteArrayList<>();
    TestingRpcServer server =
        new TestingRpcServer(
            (request, c) -> {
              switch (request.getBodyCase()) {
                case OPEN_SCAN -> c.answer(request, page(7, false, 1, 2));
                case SCAN_NEXT -> {
                  scanNexts.add(request);
                  if (scanNexts.size() == 1) {
                    c.answer(request, page(7, false, 3));
                  } // the second stays unanswered until it is cancelled
                }
                case CANCEL -> {
                  Request target = scanNexts.get(scanNexts.size() - 1);
                  assertThat(request.getCancel().getTarget()).isEqualTo(target.getId());
                  c.answer(
                      target,
                      Response.newBuilder()
                          .setError(
                              Error.newBuilder()
                                  .setCode(ErrorCode.QUERY_CANCELED.code())
                                  .setSqlState("57014")
                                  .setMessage("cancelled")));
                }
                case CLOSE_SCAN -> c.answer(request, Response.newBuilder());
                default -> throw new IOException("unexpected " + request);
              }
            });
    resources.add(server);
    RowScanner scanner = table(server).scan(scan(List.of(KeyRange.ALL)));
    assertThat(scanner.next()).containsExactly(1);
    assertThat(server.nextRequest().hasOpenScan()).isTrue();
    // taking the first page asked for the second at once
    Request first = server.nextRequest();
    assertThat(first.getScanNext().getScannerId()).isEqualTo(7);
    assertThat(scanner.next()).containsExactly(2);
    assertThat(server.requests.poll(100, TimeUnit.MILLISECONDS)).isNull(); // never two ahead
    assertThat(scanner.next()).containsExactly(3);
    assertThat(server.nextRequest().hasScanNext()).isTrue();

    CompletableFuture<Object[]> blocked = CompletableFuture.supplyAsync(scanner::next);
    Thread.sleep(100);
    assertThat(blocked).isNotDone();
    scanner.close();
    assertThatThrownBy(() -> blocked.get(5, TimeUnit.SECONDS))
        .cause()
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELED));
    assertThat(server.nextRequest().hasCancel()).isTrue();
    Request close = server.nextRequest();
    assertThat(close.getCloseScan().getScannerId()).isEqualTo(7);
    scanner.close(); // idempotent
    assertThat(server.requests.poll(100, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void closingAFinishedScanSendsNothing() throws Exception {
    TestingRpcServer server =
        new TestingRpcServer((request, c) -> c.answer(request, page(0, true, 1)));
    resources.add(server);
    try (RowScanner scanner = table(server).scan(scan(List.of(KeyRange.ALL)))) {
      assertThat(scanner.next()).containsExactly(1);
      assertThat(scanner.next()).isNull();
    }
    assertThat(server.nextRequest().hasOpenScan()).isTrue();
    assertThat(server.requests.poll(100, TimeUnit.MILLISECONDS)).isNull();
  }
}
