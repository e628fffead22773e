package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Event;
import io.cairn.protocol.Response;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graceful stop (SIGTERM) of a durable server with clients connected: one idle, one in the middle
 * of a paged scan, one that never reads its answers. Every client must learn that the server is
 * going (the ShuttingDown event, SERVER_SHUTTING_DOWN for new requests, or a closed connection),
 * none may hang, the server must exit within its shutdown timeout (plus the time to flush), with no
 * leak in its log, and every acknowledged write, flushed or only in the log, must be there after a
 * restart.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerShutdown {
  private static final int ROWS = 2000;

  /** The server's shutdown-timeout; it must exit well within this plus the time to flush. */
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

  private static final Duration EXIT_PATIENCE = Duration.ofSeconds(30);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  @Test
  void connectedClientsAreToldAndNoneHangs() throws Exception {
    Path data = temp.resolve("data");
    KvRows rows;
    try (ServerProcess server =
        ServerProcess.options(temp)
            .data(data)
            .set("shutdown-timeout", SHUTDOWN_TIMEOUT.toMillis() + "ms")
            .name("shutdown-1")
            .start()) {
      RawClient idle = RawClient.open(server.port(), "idle");
      RawClient scanning = RawClient.open(server.port(), "scanning");
      RawClient slow = RawClient.connect(server.port(), 64 << 10);
      try {
        rows = new KvRows(KvRows.created(scanning.call(KvRows.createTable("SHUTDOWN"))));
        // half the rows flushed to block files, half only in the memstore and the log
        for (long from = 0; from < ROWS; from += 250) {
          RawClient.ok(scanning.call(rows.upsertRange(from, from + 250, 300)));
          if (from + 250 == ROWS / 2) {
            RawClient.ok(scanning.call(rows.flush()));
          }
        }
        Response first = RawClient.ok(scanning.call(KvRows.openScan(rows.fullScan(), 10, 0)));
        long scanner = first.getScanPage().getScannerId();
        assertThat(first.getScanPage().getDone()).isFalse();

        // the slow client asks for the whole table again and again, and reads nothing
        slow.hello("slow");
        for (int i = 0; i < 50; i++) {
          slow.send(KvRows.get(rows.fullScan()));
        }

        long stopStart = System.nanoTime();
        CompletableFuture<Integer> exit =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return server.stop();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                  }
                });

        // the idle client hears ShuttingDown, then the connection closes
        List<Response> idleFrames = idle.readUntilClosed(EXIT_PATIENCE);
        assertThat(idleFrames.stream().map(RawClient::describe).toList())
            .as("what the idle client received before the connection closed")
            .isNotEmpty();
        for (Response r : idleFrames) {
          assertThat(r.getId()).as("events only: %s", RawClient.describe(r)).isZero();
          assertThat(r.hasEvent()).as("events only: %s", RawClient.describe(r)).isTrue();
        }
        assertThat(idleFrames.stream().map(r -> r.getEvent().getKindCase()))
            .as("the events the idle client heard (CREATE TABLE's too)")
            .contains(Event.KindCase.SHUTTING_DOWN);

        // the scanning client goes on asking: pages or SERVER_SHUTTING_DOWN, then the end
        List<Response> scanFrames = askUntilClosed(scanning, rows, scanner);
        for (Response r : scanFrames) {
          if (r.getId() == 0) {
            assertThat(r.hasEvent()).as("frame %s", RawClient.describe(r)).isTrue();
          } else if (r.hasError()) {
            assertError(r, ErrorCode.SERVER_SHUTTING_DOWN);
          } else {
            assertThat(r.hasScanPage()).as("answer %s", RawClient.describe(r)).isTrue();
          }
        }

        int code = exit.get(EXIT_PATIENCE.toSeconds() + 30, TimeUnit.SECONDS);
        Duration took = Duration.ofNanos(System.nanoTime() - stopStart);
        assertThat(code).as("exit status after SIGTERM\n%s", server.describe()).isIn(0, 143);
        System.err.println("TestServerShutdown: SIGTERM to exit took " + took);
        assertThat(took)
            .as("time from SIGTERM to exit, with a client that never reads")
            .isLessThan(SHUTDOWN_TIMEOUT.plus(EXIT_PATIENCE));

        // what the slow client gets once it reads: answers, the event, then the end (maybe in the
        // middle of an answer that the server could not send before it gave up on the client)
        for (Response r : slow.readUntilClosedOrCut(EXIT_PATIENCE)) {
          if (r.hasError()) {
            assertError(r, ErrorCode.SERVER_SHUTTING_DOWN);
          }
        }
        assertThat(server.leakReports()).as("leak reports in %s", server.log()).isEmpty();
      } finally {
        idle.close();
        scanning.close();
        slow.close();
      }
    }

    try (ServerProcess again = ServerProcess.options(temp).data(data).name("shutdown-2").start()) {
      try (RawClient client = RawClient.open(again.port(), "after-restart")) {
        List<Object[]> all = rows.scanAll(client, 1000);
        assertThat(all).as("every acknowledged row after the restart").hasSize(ROWS);
        for (int i = 0; i < ROWS; i++) {
          assertThat(all.get(i)).containsExactly((long) i, KvRows.padded(i, 300), (long) i);
        }
      }
      ServerChecks.stopAndAssertNoLeaks(again);
    }
  }

  @Test
  void newConnectionsDuringShutdownAreRefusedOrToldSo() throws Exception {
    try (ServerProcess server =
        ServerProcess.options(temp)
            .set("shutdown-timeout", SHUTDOWN_TIMEOUT.toMillis() + "ms")
            .name("shutdown-connect")
            .start()) {
      // a request that keeps the server busy: a client that never reads its big answers
      RawClient slow = RawClient.connect(server.port(), 64 << 10);
      slow.hello("slow");
      KvRows rows;
      try (RawClient loader = RawClient.open(server.port(), "loader")) {
        rows = new KvRows(KvRows.created(loader.call(KvRows.createTable("BUSY"))));
        RawClient.ok(loader.call(rows.upsertRange(0, 1000, 1000)));
      }
      for (int i = 0; i < 20; i++) {
        slow.send(KvRows.get(rows.fullScan()));
      }
      RawClient listener = RawClient.open(server.port(), "listener");
      CompletableFuture<Integer> exit =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return server.stop();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              });
      try {
        Response event;
        do {
          event = listener.read();
          assertThat(event).as("the ShuttingDown event (null: the connection closed)").isNotNull();
          assertThat(event.hasEvent()).as("%s", RawClient.describe(event)).isTrue();
        } while (event.getEvent().getKindCase() != Event.KindCase.SHUTTING_DOWN);
        // the server is shutting down now; a new client is refused, told, or cut off
        List<String> outcomes = new ArrayList<>();
        try (RawClient late = RawClient.connect(server.port())) {
          long id = late.send(KvRows.ping());
          List<Response> frames = late.readUntilClosed(EXIT_PATIENCE);
          for (Response r : frames) {
            if (r.getId() == id) {
              assertError(r, ErrorCode.SERVER_SHUTTING_DOWN);
            } else {
              assertThat(r.hasEvent()).as("frame %s", RawClient.describe(r)).isTrue();
            }
            outcomes.add(RawClient.describe(r));
          }
        } catch (IOException refused) {
          outcomes.add("refused: " + refused);
        }
        System.err.println("TestServerShutdown: a client during shutdown got " + outcomes);
        assertThat(exit.get(EXIT_PATIENCE.toSeconds() + 30, TimeUnit.SECONDS)).isIn(0, 143);
        assertThat(server.leakReports()).as("leak reports in %s", server.log()).isEmpty();
      } finally {
        listener.close();
        slow.close();
      }
    }
  }

  @Test
  void writersUnderLoadLoseNoAcknowledgedWriteAndNoneHangs() throws Exception {
    Path data = temp.resolve("load");
    KvRows rows;
    AckedWriters writers;
    try (ServerProcess server =
        ServerProcess.options(temp)
            .data(data)
            .set("shutdown-timeout", SHUTDOWN_TIMEOUT.toMillis() + "ms")
            .name("shutdown-load-1")
            .start()) {
      try (RawClient admin = RawClient.open(server.port(), "admin")) {
        rows = new KvRows(KvRows.created(admin.call(KvRows.createTable("LOAD"))));
      }
      writers = AckedWriters.start(server, rows, 20);
      ServerChecks.awaitValue(
          "at least 3,000 acknowledged writes",
          () -> writers.acknowledgedCount() >= 3000 || !writers.failures().isEmpty(),
          true,
          EXIT_PATIENCE);
      CompletableFuture<Integer> exit =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return server.stop();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              });
      writers.await(EXIT_PATIENCE);
      System.err.println(
          "TestServerShutdown: "
              + writers.acknowledgedCount()
              + " writes acknowledged; writers ended with "
              + writers.endings().stream()
                  .collect(
                      java.util.stream.Collectors.groupingBy(
                          e -> e, java.util.stream.Collectors.counting())));
      assertThat(exit.get(EXIT_PATIENCE.toSeconds() + 30, TimeUnit.SECONDS)).isIn(0, 143);
      assertThat(writers.failures()).as("writes answered with unexpected errors").isEmpty();
      assertThat(writers.endings())
          .as("how the writers ended: only the server's going away")
          .hasSize(20)
          .doesNotContain("stopped");
      assertThat(server.leakReports()).as("leak reports in %s", server.log()).isEmpty();
    }
    try (ServerProcess again =
        ServerProcess.options(temp).data(data).name("shutdown-load-2").start()) {
      writers.assertTable(again, rows, "after SIGTERM under load and a restart");
      ServerChecks.stopAndAssertNoLeaks(again);
    }
  }

  /**
   * Asks for the next page (or opens a new scan when one ended) until the server closes the
   * connection, reading every answer; a write that fails because the server is gone ends it too.
   * Returns what was read.
   */
  private static List<Response> askUntilClosed(RawClient client, KvRows rows, long scanner)
      throws IOException {
    List<Response> frames = new ArrayList<>();
    long deadline = System.nanoTime() + EXIT_PATIENCE.toNanos();
    long open = scanner;
    while (System.nanoTime() < deadline) {
      long id;
      try {
        id =
            client.send(
                open == 0 ? KvRows.openScan(rows.fullScan(), 10, 0) : KvRows.scanNext(open, 10, 0));
      } catch (IOException gone) {
        return frames;
      }
      while (true) {
        Response r = client.read();
        if (r == null) {
          return frames;
        }
        frames.add(r);
        if (r.getId() == id) {
          if (r.hasScanPage()) {
            open = r.getScanPage().getDone() ? 0 : r.getScanPage().getScannerId();
          }
          break;
        }
      }
    }
    throw new AssertionError(
        "hang: the scanning client was still answered " + EXIT_PATIENCE + " after SIGTERM");
  }
}
