package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.CreateIndex;
import io.cairn.protocol.Event;
import io.cairn.protocol.IndexProgress;
import io.cairn.protocol.IndexResult;
import io.cairn.protocol.Pong;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Progress reports of a request in flight (IndexProgress events) against a scripted server: they
 * reach the call's consumer, restart its timeout (a server that keeps reporting is working, however
 * long it takes), and are ignored for calls that take none or are no longer in flight.
 */
class TestRpcProgress {
  private static final Duration TIMEOUT = Duration.ofMillis(400);

  private TestingRpcServer server;
  private RpcConnection connection;

  @AfterEach
  void close() throws IOException {
    if (connection != null) {
      connection.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** A server that answers CreateIndex after {@code reports} reports, Ping with Pong. */
  private void start(int reports) throws IOException {
    server =
        new TestingRpcServer(
            (request, c) -> {
              if (request.hasCreateIndex()) {
                reportThenAnswer(request, c, reports);
              } else if (request.hasPing()) {
                c.answer(request, Response.newBuilder().setPong(Pong.getDefaultInstance()));
              }
            });
    RemoteConfig c = server.config();
    connection =
        new RpcConnection(
            new RemoteConfig(
                c.address(),
                c.user(),
                c.password(),
                c.tls(),
                c.tlsTrustCertificate(),
                Duration.ofSeconds(10),
                TIMEOUT),
            RpcConnection.PROTOCOL_VERSION);
  }

  private static Request.Builder createIndex() {
    return Request.newBuilder()
        .setCreateIndex(
            CreateIndex.newBuilder()
                .setTable("T")
                .setReportProgress(true)
                .setProgressIntervalMillis(0));
  }

  private static Response.Builder progress(long request, long rows) {
    return Response.newBuilder()
        .setId(0)
        .setEvent(
            Event.newBuilder()
                .setIndexProgress(
                    IndexProgress.newBuilder().setRequest(request).setRowsIndexed(rows)));
  }

  /**
   * Reports rows 1..{@code reports} to {@code request}'s call, one per half timeout (so together
   * they last longer than the timeout), then answers with {@code reports} rows indexed.
   */
  private static void reportThenAnswer(Request request, TestingRpcServer.Connection c, int reports)
      throws IOException {
    try {
      for (int i = 1; i <= reports; i++) {
        // the build's time passing on the server: what the timeout is about
        TimeUnit.MILLISECONDS.sleep(TIMEOUT.toMillis() / 2);
        c.send(progress(request.getId() + 1000, -1)); // no call of that id: ignored
        c.send(progress(request.getId(), i));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    c.answer(
        request,
        Response.newBuilder()
            .setIndexResult(IndexResult.newBuilder().setIndex("I").setRowsIndexed(reports)));
  }

  @Test
  void reportsReachTheCallAndKeepItAliveBeyondTheTimeout() throws Exception {
    start(5);
    List<Long> reports = new CopyOnWriteArrayList<>();
    Response answer = connection.callAndWait(createIndex(), "CreateIndex T.I", reports::add);
    assertThat(answer.getIndexResult().getRowsIndexed()).isEqualTo(5);
    assertThat(reports).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void aFailingConsumerLeavesTheCallAndTheConnectionAlone() throws Exception {
    start(2);
    Response answer =
        connection.callAndWait(
            createIndex(),
            "CreateIndex T.I",
            rows -> {
              throw new IllegalStateException("consumer failed");
            });
    assertThat(answer.getIndexResult().getRowsIndexed()).isEqualTo(2);
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void aCallThatTakesNoReportsStillTimesOut() throws Exception {
    start(3);
    CairnException e =
        assertThrows(
            CairnException.class, () -> connection.callAndWait(createIndex(), "CreateIndex T.I"));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.REQUEST_TIMEOUT);
  }
}
