package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.N;
import static io.cairn.server.rpc.TestingRpcTables.V;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static io.cairn.server.rpc.TestingRpcTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.kv.ScanProgram;
import io.cairn.protocol.Call;
import io.cairn.protocol.ExprNode;
import io.cairn.protocol.ExprNodes;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.wire.WirePrograms;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Requests fail alone: a frame that is whole but not a request, a tree nested beyond the parser's
 * limit, an invalid or too deep scan program each get an error for their own id, while a scan on
 * the same connection keeps reading; and deep expressions (sent flat) run on the server.
 */
@ExtendWith(NettyLeakCheck.class)
class TestServerRequestFailures {
  private static final DataType VARCHAR = DataType.varchar(100_000);

  private CairnServer server;
  private TestingRpcClient client;
  private TableDescriptor t;

  @BeforeEach
  void start() {
    server = TestingServers.start();
    client = TestingRpcClient.open(server.port(), "");
    t = TestingRpcTables.create(client, "T");
    TestingRpcTables.load(client, t, 0, 100);
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** The bytes of a Request with {@code id} and an OpenScan body that is not a message. */
  private static byte[] brokenBody(long id) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(Request.newBuilder().setId(id).build().toByteArray());
    // field 32 (open_scan), length-delimited, 3 bytes of a varint that never ends
    body.writeBytes(new byte[] {(byte) 0x82, 0x02, 3, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
    return body.toByteArray();
  }

  private static byte[] frame(byte[] body) {
    return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
  }

  /** Opens a scan of every row, 10 rows a page, and returns its scanner id after the first page. */
  private long openScan() {
    ScanSpec all = TestingRpcTables.scan(t, Optional.empty(), List.of(K, V, N));
    ScanPage first = page(client.call(TestingRpcTables.openScan(all, 10, 0, 0)));
    assertThat(first.getDone()).isFalse();
    assertThat(first.getRowCount()).isEqualTo(10);
    return first.getScannerId();
  }

  /** Reads the scan to its end and returns how many rows it had after the first page. */
  private int readRest(long scanner) {
    int rows = 0;
    while (true) {
      ScanPage next = page(client.call(TestingRpcTables.scanNext(scanner, 10, 0, 0)));
      rows += next.getRowCount();
      if (next.getDone()) {
        return rows;
      }
    }
  }

  private void assertPings() {
    assertThat(client.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
        .isTrue();
  }

  @Test
  void aWholeFrameThatIsNotARequestFailsOnlyItsIdWhileAScanGoesOn() {
    long scanner = openScan();
    long id = client.nextId();
    byte[] body = brokenBody(id);
    client.writeRaw(frame(body));
    Response answer = client.await(id);
    assertError(answer, ErrorCode.PROTOCOL_ERROR);
    assertThat(answer.getError().getMessage())
        .contains("Request [" + id + "]")
        .contains("[" + body.length + "] bytes")
        .hasSizeLessThan(400);
    assertThat(readRest(scanner)).isEqualTo(90);
    assertPings();
  }

  @Test
  void aBrokenFramePipelinedBetweenGoodOnesFailsAlone() {
    long bad = client.nextId();
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    long before = client.nextId();
    all.writeBytes(
        client.frame(Request.newBuilder().setId(before).setPing(Ping.getDefaultInstance())));
    all.writeBytes(frame(brokenBody(bad)));
    long after = client.nextId();
    all.writeBytes(
        client.frame(Request.newBuilder().setId(after).setPing(Ping.getDefaultInstance())));
    client.writeRaw(all.toByteArray());
    assertThat(client.await(before).hasPong()).isTrue();
    assertError(client.await(bad), ErrorCode.PROTOCOL_ERROR);
    assertThat(client.await(after).hasPong()).isTrue();
  }

  @Test
  void aTreeNestedBeyondTheParsersLimitFailsOnlyItsRequest() {
    long scanner = openScan();
    // 600 nested NOTs as a tree: 1,200 levels of messages, beyond the parser's 1,000
    io.cairn.protocol.DataType bool = WirePrograms.toProto(DataType.BOOLEAN);
    io.cairn.protocol.Expr tree =
        WirePrograms.toProto(
            new Expr.Call(Op.IS_NULL, List.of(N), DataType.BOOLEAN.withNullable(false)));
    for (int i = 0; i < 600; i++) {
      tree =
          io.cairn.protocol.Expr.newBuilder()
              .setType(bool)
              .setCall(Call.newBuilder().setOp(Op.NOT.id()).addOperands(tree))
              .build();
    }
    ScanSpec all = TestingRpcTables.scan(t, Optional.empty(), List.of(K));
    ScanSpec deep =
        all.toBuilder().setProgram(all.getProgram().toBuilder().setFilter(tree)).build();
    Response answer = client.call(TestingRpcTables.get(deep));
    assertError(answer, ErrorCode.PROTOCOL_ERROR);
    assertThat(answer.getError().getMessage()).contains("could not be read").contains("nesting");
    assertThat(readRest(scanner)).isEqualTo(90);
    assertPings();
  }

  @Test
  void anInvalidProgramFailsOnlyItsRequest() {
    long scanner = openScan();
    io.cairn.protocol.DataType bool = WirePrograms.toProto(DataType.BOOLEAN);
    // NOT of two nodes that are not there
    io.cairn.protocol.Expr broken =
        io.cairn.protocol.Expr.newBuilder()
            .setType(bool)
            .setNodes(
                ExprNodes.newBuilder()
                    .addNodes(
                        ExprNode.newBuilder().setType(bool).setOp(Op.NOT.id()).setOperandCount(2)))
            .build();
    ScanSpec all = TestingRpcTables.scan(t, Optional.empty(), List.of(K));
    ScanSpec bad =
        all.toBuilder().setProgram(all.getProgram().toBuilder().setFilter(broken)).build();
    Response answer = client.call(TestingRpcTables.get(bad));
    assertError(answer, ErrorCode.PROTOCOL_ERROR);
    assertThat(answer.getError().getMessage()).contains("node [0]");
    assertThat(readRest(scanner)).isEqualTo(90);
    assertPings();
  }

  @Test
  void deepExpressionsRunAndTooDeepOnesAreSTATEMENT_TOO_COMPLEX() {
    long scanner = openScan();
    // the filter (AND, >, then the chain) as deep as a server takes: compiled and evaluated on a
    // worker's ordinary stack
    int depth = WirePrograms.MAX_EXPR_DEPTH - 2;
    Expr concat = V;
    Expr plus = N;
    for (int i = 0; i < depth; i++) {
      concat = new Expr.Call(Op.CONCAT, List.of(concat, new Expr.Literal("x", VARCHAR)), VARCHAR);
      plus =
          new Expr.Call(
              Op.PLUS, List.of(plus, new Expr.Literal(1, DataType.INTEGER)), DataType.INTEGER);
    }
    // K < 3 AND N + 1 + 1 ... > 1,200: rows 1 and 2 (N = K % 100)
    Expr filter =
        new Expr.Call(
            Op.AND,
            List.of(
                new Expr.Call(
                    Op.LESS_THAN,
                    List.of(K, new Expr.Literal(3L, DataType.BIGINT)),
                    DataType.BOOLEAN),
                new Expr.Call(
                    Op.GREATER_THAN,
                    List.of(plus, new Expr.Literal(depth, DataType.INTEGER)),
                    DataType.BOOLEAN)),
            DataType.BOOLEAN);
    ScanSpec spec =
        TestingRpcTables.scan(
            t,
            new ScanProgram(
                t.layout(), Optional.of(filter), List.of(K, concat), ScanProgram.NO_LIMIT));
    assertThat(spec.getProgram().getFilter().hasNodes()).isTrue();
    List<List<Object>> rows = rows(page(client.call(TestingRpcTables.get(spec))));
    assertThat(rows)
        .containsExactly(
            List.of(1L, "v1" + "x".repeat(depth)), List.of(2L, "v2" + "x".repeat(depth)));

    Expr tooDeep = concat;
    for (int i = depth; i <= WirePrograms.MAX_EXPR_DEPTH; i++) {
      tooDeep = new Expr.Call(Op.CONCAT, List.of(tooDeep, new Expr.Literal("x", VARCHAR)), VARCHAR);
    }
    ScanSpec refused =
        TestingRpcTables.scan(
            t,
            new ScanProgram(t.layout(), Optional.empty(), List.of(tooDeep), ScanProgram.NO_LIMIT));
    Response answer = client.call(TestingRpcTables.get(refused));
    assertError(answer, ErrorCode.STATEMENT_TOO_COMPLEX);
    assertThat(answer.getError().getMessage())
        .contains("[" + WirePrograms.MAX_EXPR_DEPTH + "]")
        .hasSizeLessThan(300);
    assertThat(readRest(scanner)).isEqualTo(90);
    assertPings();
  }

  @Test
  void beforeHelloABrokenFrameWithAnIdIsAnsweredUnderItThenClosed() {
    try (TestingRpcClient fresh = TestingRpcClient.connect(server.port())) {
      long id = fresh.nextId();
      fresh.writeRaw(frame(brokenBody(id)));
      Response answer = fresh.read();
      assertThat(answer.getId()).isEqualTo(id);
      assertError(answer, ErrorCode.PROTOCOL_ERROR);
      assertThat(fresh.closedByServer()).isTrue();
    }
  }

  @Test
  void aBrokenFramePipelinedBehindHelloFailsAloneAndTheSessionOpens() {
    try (TestingRpcClient fresh = TestingRpcClient.connect(server.port())) {
      long hello = fresh.nextId();
      long bad = fresh.nextId();
      long ping = fresh.nextId();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      all.writeBytes(
          fresh.frame(
              Request.newBuilder()
                  .setId(hello)
                  .setHello(
                      io.cairn.protocol.Hello.newBuilder()
                          .setProtocolVersion(1)
                          .setClientName("pipelined"))));
      all.writeBytes(frame(brokenBody(bad)));
      all.writeBytes(
          fresh.frame(Request.newBuilder().setId(ping).setPing(Ping.getDefaultInstance())));
      fresh.writeRaw(all.toByteArray());
      assertThat(fresh.await(hello).hasHelloOk()).isTrue();
      assertError(fresh.await(bad), ErrorCode.PROTOCOL_ERROR);
      assertThat(fresh.await(ping).hasPong()).isTrue();
      assertThat(fresh.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
          .isTrue();
    }
  }

  @Test
  void theIdOfABrokenFrameIsReadFieldByField() {
    assertThat(findId(brokenBody(7))).isEqualTo(7);
    assertThat(findId(Request.newBuilder().setId(1L << 40).build().toByteArray()))
        .isEqualTo(1L << 40);
    // the id after another field, and the last of two
    assertThat(findId(new byte[] {0x60, 0x00, 0x08, 0x05})).isEqualTo(5);
    assertThat(findId(new byte[] {0x08, 0x05, 0x08, 0x06, (byte) 0xFF})).isEqualTo(6);
    // none: garbage, an empty frame, a tag of zero, a group before the id, an id cut short
    assertThat(findId(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF})).isZero();
    assertThat(findId(new byte[0])).isZero();
    assertThat(findId(new byte[] {0, 0x08, 0x05})).isZero();
    assertThat(findId(new byte[] {0x13, 0x08, 0x05})).isZero();
    assertThat(findId(new byte[] {0x08, (byte) 0x80})).isZero();
  }

  private static long findId(byte[] bytes) {
    return RequestDecoder.findId(ByteBuffer.wrap(bytes));
  }
}
