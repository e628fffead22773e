package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.assertClosingError;
import static io.cairn.it.server.ServerChecks.assertError;
import static io.cairn.it.server.ServerChecks.assertErrorThenClosed;
import static io.cairn.it.server.ServerChecks.assertServes;
import static io.cairn.it.server.ServerChecks.awaitIdle;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Error;
import io.cairn.protocol.Hello;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.relocated.protobuf.ByteString;
import io.cairn.relocated.protobuf.UnknownFieldSet;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Frames a broken or hostile client sends to a real server process: bytes that are not a request,
 * lengths beyond the maximum frame size, frames cut short, requests of a type the server does not
 * know, and requests before Hello. Each must get the documented error (docs/protocol.md) or a
 * closed connection, never a hang, and the server keeps serving everyone else; at the end it stops
 * gracefully without a leak in its log.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerBadFrames {
  /** Small, so that an oversized frame is cheap to send; the smallest the server accepts is 4k. */
  private static final int MAX_FRAME = 65536;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path temp;

  private static ServerProcess server;

  @BeforeAll
  static void startServer() throws Exception {
    server =
        ServerProcess.options(temp)
            .set("max-frame-bytes", Integer.toString(MAX_FRAME))
            .name("bad-frames")
            .start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      try {
        ServerChecks.stopAndAssertNoLeaks(server);
      } finally {
        server.close();
      }
    }
  }

  /** Whatever a case did, the next client is served and nothing of the bad client stays behind. */
  @AfterEach
  void serverStillServes() throws Exception {
    assertServes(server);
    awaitIdle(server);
  }

  // --- 1. malformed frames ---------------------------------------------------------------------

  @Test
  void bytesThatAreNotARequestArePROTOCOL_ERRORAndCloseOnlyThatConnection() throws Exception {
    try (RawClient bystander = RawClient.open(server.port(), "bystander");
        RawClient client = RawClient.open(server.port(), "garbage")) {
      // 0xFF... is a varint that never ends: no protobuf parser reads it as a message
      byte[] garbage = new byte[16];
      Arrays.fill(garbage, (byte) 0xFF);
      client.sendFrame(garbage);
      Error e = assertErrorThenClosed(client, 0, ErrorCode.PROTOCOL_ERROR);
      assertThat(e.getMessage()).as("the message names the frame's size").contains("16");

      // the other connection, opened before, is untouched
      assertThat(bystander.call(KvRows.ping()).hasPong()).isTrue();
    }
  }

  @Test
  void garbageAsTheFirstFrameIsPROTOCOL_ERROR() throws Exception {
    try (RawClient client = RawClient.connect(server.port())) {
      byte[] garbage = new byte[100];
      Arrays.fill(garbage, (byte) 0xFF);
      client.sendFrame(garbage);
      assertErrorThenClosed(client, 0, ErrorCode.PROTOCOL_ERROR);
    }
  }

  @Test
  void aValidRequestBehindGarbageIsNotServed() throws Exception {
    String table = "BEHIND_GARBAGE";
    try (RawClient client = RawClient.open(server.port(), "garbage-then-ddl")) {
      byte[] garbage = new byte[8];
      Arrays.fill(garbage, (byte) 0xFF);
      byte[] ddl = KvRows.createTable(table).setId(client.nextId()).build().toByteArray();
      // both frames in one write: the server must not go on reading after a broken frame
      client.sendRaw(concat(frame(garbage), frame(ddl)));
      assertErrorThenClosed(client, 0, ErrorCode.PROTOCOL_ERROR);
    }
    try (RawClient checker = RawClient.open(server.port(), "checker")) {
      assertThat(KvRows.tableNames(checker.call(KvRows.getCatalog())))
          .doesNotContain("PUBLIC." + table);
    }
  }

  @Test
  void requestIdZeroIsPROTOCOL_ERRORAndClosesTheConnection() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "id-zero")) {
      client.send(KvRows.ping().setId(0).build());
      assertErrorThenClosed(client, 0, ErrorCode.PROTOCOL_ERROR);
    }
    try (RawClient client = RawClient.open(server.port(), "empty-frame")) {
      // an empty frame parses as a Request with id 0 and no body
      client.sendFrame(new byte[0]);
      assertErrorThenClosed(client, 0, ErrorCode.PROTOCOL_ERROR);
    }
  }

  @Test
  void tenThousandPipelinedRequestsGetOneAnswerEach() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "pipeline")) {
      int count = 10_000;
      java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
      long first = client.nextId();
      for (int i = 1; i < count; i++) {
        client.nextId();
      }
      for (long id = first; id < first + count; id++) {
        all.write(frame(KvRows.ping().setId(id).build().toByteArray()));
      }
      client.sendRaw(all.toByteArray());
      java.util.Set<Long> answered = new java.util.HashSet<>();
      while (answered.size() < count) {
        Response r = client.read();
        assertThat(r).as("answer %s of %s (null: closed)", answered.size() + 1, count).isNotNull();
        if (r.getId() == 0) {
          continue; // an event
        }
        assertThat(r.hasPong()).as("%s", RawClient.describe(r)).isTrue();
        assertThat(r.getId()).isBetween(first, first + count - 1);
        assertThat(answered.add(r.getId())).as("a second answer to %s", r.getId()).isTrue();
      }
      assertThat(client.call(KvRows.ping()).hasPong()).isTrue();
    }
  }

  // --- 2. oversized frames ---------------------------------------------------------------------

  @Test
  void aLengthAboveTheMaximumIsFRAME_TOO_LARGENamingBothSizes() throws Exception {
    try (RawClient client = RawClient.connect(server.port())) {
      assertThat(client.hello("oversized").getMaxFrameBytes())
          .as("HelloOk names the maximum frame size")
          .isEqualTo(MAX_FRAME);
      // the length says one byte more than allowed; some of the body follows
      client.sendRaw(concat(length(MAX_FRAME + 1), new byte[1000]));
      Error e = assertErrorThenClosed(client, 0, ErrorCode.FRAME_TOO_LARGE);
      assertThat(e.getMessage())
          .as("the message names the frame's size and the limit")
          .contains(Integer.toString(MAX_FRAME + 1))
          .contains(Integer.toString(MAX_FRAME));
    }
  }

  @Test
  void aHugeLengthIsRefusedBeforeTheBodyArrives() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "huge")) {
      // 2 GiB - 1: the server must answer from the length alone, without waiting for the body
      client.sendRaw(length(Integer.MAX_VALUE));
      Error e = assertErrorThenClosed(client, 0, ErrorCode.FRAME_TOO_LARGE);
      assertThat(e.getMessage()).contains(Integer.toString(Integer.MAX_VALUE));
    }
  }

  @Test
  void anHttpRequestToTheProtocolPortIsFRAME_TOO_LARGE() throws Exception {
    try (RawClient client = RawClient.connect(server.port())) {
      // "GET " read as a length is 1,195,725,856 bytes
      client.sendRaw("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(US_ASCII));
      Error e = assertErrorThenClosed(client, 0, ErrorCode.FRAME_TOO_LARGE);
      assertThat(e.getMessage()).contains("1195725856");
    }
  }

  @Test
  void aFrameOfExactlyTheMaximumIsServed() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "at-the-limit")) {
      Request ping = padded(KvRows.ping().setId(client.nextId()), MAX_FRAME);
      assertThat(ping.getSerializedSize()).isEqualTo(MAX_FRAME);
      client.send(ping);
      Response answer = client.await(ping.getId());
      assertThat(answer.hasPong()).as("answer %s", RawClient.describe(answer)).isTrue();
    }
  }

  @Test
  void anAnswerAboveTheMaximumIsAnErrorAndTheConnectionStaysUsable() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "big-answer")) {
      TableDescriptor created = KvRows.created(client.call(KvRows.createTable("BIG_ANSWER")));
      KvRows rows = new KvRows(created);
      // 200 rows of 1,000 characters: a 200k answer, three times the maximum frame
      for (long from = 0; from < 200; from += 40) {
        RawClient.ok(client.call(rows.upsertRange(from, from + 40, 1000)));
      }
      Response answer = client.call(KvRows.get(rows.fullScan()));
      assertError(answer, ErrorCode.FRAME_TOO_LARGE);
      assertThat(client.largestFrame())
          .as("no frame the server sent is longer than its maximum")
          .isLessThanOrEqualTo(MAX_FRAME);
      assertThat(client.call(KvRows.ping()).hasPong()).isTrue();
      // a paged scan of the same rows works: pages stay below the frame size
      assertThat(rows.scanAll(client, 10)).hasSize(200);
      assertThat(client.largestFrame()).isLessThanOrEqualTo(MAX_FRAME);
    }
  }

  // --- 3. truncated frames ---------------------------------------------------------------------

  @Test
  void aFrameCutShortByACloseLeavesNothingBehind() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "truncated")) {
      client.sendRaw(concat(length(1000), new byte[10]));
    }
    try (RawClient client = RawClient.open(server.port(), "truncated-reset")) {
      client.sendRaw(concat(length(1000), new byte[10]));
      client.abort();
    }
    try (RawClient client = RawClient.connect(server.port())) {
      // half a length prefix, before Hello
      client.sendRaw(new byte[] {0, 0});
    }
    try (RawClient client = RawClient.open(server.port(), "truncated-big")) {
      // most of a frame at the limit: the server holds ~48k of it when the client goes
      client.sendRaw(concat(length(MAX_FRAME), new byte[MAX_FRAME * 3 / 4]));
      client.abort();
    }
    awaitIdle(server);
  }

  @Test
  void aFrameCutShortByAHalfCloseEndsTheConnection() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "half-closed")) {
      client.sendRaw(concat(length(1000), new byte[10]));
      client.shutdownOutput();
      // the rest of the frame can never come: the server closes, at most after a PROTOCOL_ERROR
      List<Response> frames = client.readUntilClosed(RawClient.DEFAULT_PATIENCE);
      for (Response r : frames) {
        assertError(r, ErrorCode.PROTOCOL_ERROR);
      }
      assertThat(frames).hasSizeLessThanOrEqualTo(1);
    }
  }

  // --- 4. unknown request types ----------------------------------------------------------------

  @Test
  void aRequestWithoutABodyIsPROTOCOL_ERRORForItsIdAndTheConnectionGoesOn() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "no-body")) {
      long id = client.nextId();
      client.send(Request.newBuilder().setId(id).build());
      Response answer = client.await(id);
      assertError(answer, ErrorCode.PROTOCOL_ERROR);
      assertThat(client.call(KvRows.ping()).hasPong()).as("a ping after it").isTrue();
    }
  }

  @Test
  void aRequestTypeFromANewerClientIsPROTOCOL_ERRORForItsIdAndTheConnectionGoesOn()
      throws Exception {
    try (RawClient client = RawClient.open(server.port(), "newer-client")) {
      // field 99 of Request: a body type this server does not know (here a message with one int)
      long id = client.nextId();
      UnknownFieldSet body =
          UnknownFieldSet.newBuilder()
              .addField(
                  99,
                  UnknownFieldSet.Field.newBuilder()
                      .addLengthDelimited(ByteString.copyFrom(new byte[] {0x08, 0x2A}))
                      .build())
              .build();
      client.send(Request.newBuilder().setId(id).setUnknownFields(body).build());
      assertError(client.await(id), ErrorCode.PROTOCOL_ERROR);

      // the same as the next request of a pipeline: answered in turn, nothing else lost
      long bad = client.nextId();
      long good = client.nextId();
      client.sendRaw(
          concat(
              frame(Request.newBuilder().setId(bad).setUnknownFields(body).build().toByteArray()),
              frame(KvRows.ping().setId(good).build().toByteArray())));
      assertError(client.await(bad), ErrorCode.PROTOCOL_ERROR);
      assertThat(client.await(good).hasPong()).isTrue();
      assertThat(client.call(KvRows.ping()).hasPong()).as("a ping after it").isTrue();
    }
  }

  // --- 5. requests before Hello ----------------------------------------------------------------

  @Test
  void ddlBeforeHelloIsAUTHENTICATION_REQUIREDAndNotDone() throws Exception {
    String table = "BEFORE_HELLO";
    try (RawClient client = RawClient.connect(server.port())) {
      client.send(KvRows.createTable(table));
      assertClosingError(client, ErrorCode.AUTHENTICATION_REQUIRED);
    }
    try (RawClient checker = RawClient.open(server.port(), "checker")) {
      assertThat(KvRows.tableNames(checker.call(KvRows.getCatalog())))
          .doesNotContain("PUBLIC." + table);
    }
  }

  @Test
  void requestsPipelinedBehindARefusedOneAreNotDone() throws Exception {
    // CREATE A, Hello, CREATE B in one write: A is refused, the connection closes, nothing runs
    try (RawClient client = RawClient.connect(server.port())) {
      byte[] createA =
          KvRows.createTable("PIPELINED_A").setId(client.nextId()).build().toByteArray();
      byte[] hello =
          Request.newBuilder()
              .setId(client.nextId())
              .setHello(Hello.newBuilder().setProtocolVersion(1).setClientName("late"))
              .build()
              .toByteArray();
      byte[] createB =
          KvRows.createTable("PIPELINED_B").setId(client.nextId()).build().toByteArray();
      client.sendRaw(concat(frame(createA), frame(hello), frame(createB)));
      assertClosingError(client, ErrorCode.AUTHENTICATION_REQUIRED);
    }
    try (RawClient checker = RawClient.open(server.port(), "checker")) {
      assertThat(KvRows.tableNames(checker.call(KvRows.getCatalog())))
          .doesNotContain("PUBLIC.PIPELINED_A", "PUBLIC.PIPELINED_B");
    }
  }

  @Test
  void writesAndReadsBeforeHelloAreAUTHENTICATION_REQUIREDAndNotDone() throws Exception {
    KvRows rows;
    try (RawClient owner = RawClient.open(server.port(), "owner")) {
      rows = new KvRows(KvRows.created(owner.call(KvRows.createTable("WRITE_BEFORE_HELLO"))));
      RawClient.ok(owner.call(rows.upsert(1, 1)));
    }
    List<Request.Builder> refused =
        List.of(rows.upsert(2, 1, 2), KvRows.get(rows.fullScan()), KvRows.ping());
    for (Request.Builder request : refused) {
      try (RawClient client = RawClient.connect(server.port())) {
        client.send(request);
        assertClosingError(client, ErrorCode.AUTHENTICATION_REQUIRED);
      }
    }
    try (RawClient checker = RawClient.open(server.port(), "checker")) {
      Object[][] all = KvRows.rows(checker.call(KvRows.get(rows.fullScan())));
      assertThat(Arrays.stream(all).map(Arrays::asList).toList())
          .as("only the owner's row; the write before Hello was not done")
          .containsExactly(List.of(1L, KvRows.value(1, 1), 1L));
    }
  }

  /**
   * A request before Hello was read whole, so its refusal is its answer: every request gets exactly
   * one response with its id (rpc.proto, "Requests carry a client-chosen id"); id 0 is for events
   * and for frames that could not be read. A client waiting for that id otherwise sees only a lost
   * connection.
   */
  @Test
  void theRefusalOfARequestBeforeHelloCarriesItsId() throws Exception {
    try (RawClient client = RawClient.connect(server.port())) {
      long id = client.send(KvRows.getCatalog());
      assertErrorThenClosed(client, id, ErrorCode.AUTHENTICATION_REQUIRED);
    }
  }

  @Test
  void helloWithAnotherProtocolVersionIsPROTOCOL_VERSION_MISMATCHNamingBoth() throws Exception {
    try (RawClient client = RawClient.connect(server.port())) {
      long id =
          client.send(
              Request.newBuilder()
                  .setHello(Hello.newBuilder().setProtocolVersion(999).setClientName("future")));
      Error e = assertErrorThenClosed(client, id, ErrorCode.PROTOCOL_VERSION_MISMATCH);
      assertThat(e.getMessage()).contains("999").contains("1");
    }
  }

  // --- frames ----------------------------------------------------------------------------------

  private static byte[] length(int length) {
    return ByteBuffer.allocate(4).putInt(length).array();
  }

  private static byte[] frame(byte[] body) {
    return concat(length(body.length), body);
  }

  private static byte[] concat(byte[]... parts) {
    int total = 0;
    for (byte[] p : parts) {
      total += p.length;
    }
    ByteBuffer b = ByteBuffer.allocate(total);
    for (byte[] p : parts) {
      b.put(p);
    }
    return b.array();
  }

  /** {@code request} with an unknown field of padding, serialized to exactly {@code size} bytes. */
  private static Request padded(Request.Builder request, int size) {
    int padding = size - request.build().getSerializedSize();
    while (true) {
      Request candidate =
          request
              .clone()
              .setUnknownFields(
                  UnknownFieldSet.newBuilder()
                      .addField(
                          1000,
                          UnknownFieldSet.Field.newBuilder()
                              .addLengthDelimited(ByteString.copyFrom(new byte[padding]))
                              .build())
                      .build())
              .build();
      int over = candidate.getSerializedSize() - size;
      if (over == 0) {
        return candidate;
      }
      padding -= over;
    }
  }
}
