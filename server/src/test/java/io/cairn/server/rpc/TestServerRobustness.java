package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.N;
import static io.cairn.server.rpc.TestingRpcTables.V;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Admin;
import io.cairn.protocol.Flush;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.netty.channel.ChannelOutboundBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broken and hostile clients: the server answers what it can, closes what it must, keeps serving
 * everyone else, and gives back every buffer (Netty's, checked by {@link NettyLeakCheck}, and the
 * store's pooled ones and cached blocks, checked by the server's leak check when the store closes
 * after each test).
 */
@ExtendWith(NettyLeakCheck.class)
class TestServerRobustness {
  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  private void assertServesOthers() {
    try (TestingRpcClient other = TestingRpcClient.open(server.port(), "")) {
      assertThat(other.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
          .isTrue();
    }
  }

  private static byte[] header(long length) {
    return ByteBuffer.allocate(4).putInt((int) length).array();
  }

  @Test
  void anOversizedFrameIsAnsweredNamingBothSizesThenClosed() {
    server = TestingServers.start(Map.of(ServerConfig.MAX_FRAME_BYTES, "64k"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      client.writeRaw(header(1 << 20));
      client.writeRaw(new byte[1000]);
      Response answer = client.read();
      assertThat(answer.getId()).isZero();
      assertError(answer, ErrorCode.FRAME_TOO_LARGE);
      assertThat(answer.getError().getMessage()).contains("[1048576]").contains("[65536]");
      assertThat(client.closedByServer()).isTrue();
    }
    // what an HTTP client sends reads as a length of 1195725856 ("GET ")
    try (TestingRpcClient http = TestingRpcClient.connect(server.port())) {
      http.writeRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(US_ASCII));
      assertError(http.read(), ErrorCode.FRAME_TOO_LARGE);
      assertThat(http.closedByServer()).isTrue();
    }
    assertServesOthers();
  }

  @Test
  void bytesThatAreNotARequestAreAProtocolErrorThenClosed() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      byte[] garbage = {0, 1, 2, 3, (byte) 0xff};
      client.writeRaw(header(garbage.length));
      client.writeRaw(garbage);
      Response answer = client.read();
      assertThat(answer.getId()).isZero();
      assertError(answer, ErrorCode.PROTOCOL_ERROR);
      assertThat(answer.getError().getMessage()).contains("[5] bytes is not a request");
      assertThat(client.closedByServer()).isTrue();
    }
    // garbage as the very first frame, before any Hello
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      client.writeRaw(new byte[] {0, 0, 0, 2, (byte) 0xff, (byte) 0xff});
      assertError(client.read(), ErrorCode.PROTOCOL_ERROR);
      assertThat(client.closedByServer()).isTrue();
    }
    assertServesOthers();
  }

  @Test
  void aTruncatedFrameAndAClosedSocketLeaveNothingBehind() {
    server = TestingServers.start();
    for (int i = 0; i < 3; i++) {
      TestingRpcClient client = TestingRpcClient.open(server.port(), "");
      client.writeRaw(header(1000));
      client.writeRaw(new byte[10 + i * 100]);
      client.close();
    }
    // a frame cut short by a half-close
    TestingRpcClient client = TestingRpcClient.open(server.port(), "");
    client.writeRaw(header(1000));
    client.writeRaw(new byte[10]);
    try {
      client.socket().shutdownOutput();
      assertThat(client.closedByServer()).isTrue();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      client.close();
    }
    TestingAwait.until(
        () -> server.context().metrics().getConnections() == 0, "every connection closed");
    assertServesOthers();
  }

  @Test
  void aClientThatDisappearsMidScanReleasesEveryBufferAndBlock(@TempDir Path dir)
      throws IOException {
    server = TestingServers.start(Map.of(ServerConfig.DATA, dir.toString()));
    TableDescriptor t;
    try (TestingRpcClient setup = TestingRpcClient.open(server.port(), "")) {
      t = TestingRpcTables.create(setup, "T");
      TestingRpcTables.load(setup, t, 0, 50_000);
      Response flushed =
          setup.call(
              Request.newBuilder()
                  .setAdmin(
                      Admin.newBuilder()
                          .setTable(t.kvTableName())
                          .setFlush(Flush.getDefaultInstance())));
      assertThat(flushed.hasAdminResult()).isTrue();
    }
    ScanSpec all = TestingRpcTables.scan(t, Optional.empty(), List.of(K, V, N));
    for (int i = 0; i < 5; i++) {
      TestingRpcClient client = TestingRpcClient.open(server.port(), "");
      ScanPage first = page(client.call(TestingRpcTables.openScan(all, 10, 0, 0)));
      assertThat(first.getDone()).isFalse();
      // a reset, as a crashed client's kernel would send
      client.socket().setSoLinger(true, 0);
      client.close();
    }
    TestingAwait.until(
        () ->
            server.context().metrics().getOpenScanners() == 0
                && server.context().metrics().getConnections() == 0,
        "the scanners of the vanished clients closed");
    assertServesOthers();
    // the store closes in close(): the leak check then finds every pooled buffer and cached
    // block given back
  }

  @Test
  void aClientThatNeverReadsIsNotReadFromEither() throws Exception {
    server =
        TestingServers.start(
            Map.of(ServerConfig.MAX_IN_FLIGHT, "4", ServerConfig.PAGE_MAX_BYTES, "256k"));
    TableDescriptor t;
    try (TestingRpcClient setup = TestingRpcClient.open(server.port(), "")) {
      t = TestingRpcTables.create(setup, "T");
      TestingRpcTables.load(setup, t, 0, 100_000);
    }
    ScanSpec all = TestingRpcTables.scan(t, Optional.empty(), List.of(K, V, N));
    TestingRpcClient greedy = TestingRpcClient.open(server.port(), "");
    greedy.socket().setReceiveBufferSize(64 << 10);
    AtomicInteger sent = new AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 100_000; i++) {
                  greedy.send(TestingRpcTables.openScan(all, 0, 256 << 10, 0));
                  sent.incrementAndGet();
                }
              } catch (UncheckedIOException e) {
                // the socket closed under the blocked write: expected at the end
              }
            },
            "greedy-writer");
    writer.setDaemon(true);
    long before = server.context().metrics().getRequests();
    writer.start();
    // wait until the server stops reading: its request count stays still
    long last = -1;
    long now = server.context().metrics().getRequests();
    while (now != last) {
      last = now;
      TestingAwait.sleep(500);
      now = server.context().metrics().getRequests();
    }
    long read = now - before;
    assertThat(sent.get())
        .as("the writer is blocked: the server stopped reading")
        .isLessThan(100_000);
    // seen: 25,000 requests sent (into the kernel's buffers), 110 read
    assertThat(read).as("requests the server read").isLessThan(1_000);
    ServerConnection connection =
        server.context().connections().stream()
            .filter(c -> c.requestCount() > 1000 || c.openScanners() > 0)
            .findFirst()
            .orElseThrow();
    ChannelOutboundBuffer outbound = connection.channel().unsafe().outboundBuffer();
    long pending = outbound == null ? 0 : outbound.totalPendingWriteBytes();
    // seen: 1.2 MiB: the high water mark, then what the requests already running answered
    assertThat(pending)
        .as("answers the server holds for a client that does not read")
        .isLessThanOrEqualTo(CairnServer.WRITE_BUFFER_HIGH + 4 * ((256 << 10) + (64 << 10)));
    assertThat((long) connection.openScanners()).isLessThanOrEqualTo(read);
    // everyone else is served meanwhile
    assertServesOthers();
    greedy.close();
    writer.join(10_000);
    TestingAwait.until(
        () -> server.context().metrics().getOpenScanners() == 0, "the greedy client's scanners");
  }
}
