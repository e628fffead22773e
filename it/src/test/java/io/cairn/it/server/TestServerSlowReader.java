package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.RELEASE_PATIENCE;
import static io.cairn.it.server.ServerChecks.awaitIdle;
import static io.cairn.it.server.ServerChecks.awaitValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that sends requests and never reads the answers. The server must stop reading its
 * requests once its answers back up (docs/protocol.md, "Flow control"), so what it holds for that
 * client stays below its in-flight and write-buffer limits instead of growing with every request,
 * while other clients get their answers as fast as usual; when the client goes, everything it held
 * is released.
 *
 * <p>The client sends up to {@value #REQUESTS} Gets of a 1 MB answer each (6 KB per request: more
 * than the socket buffers of both ends can hold), with a 64 KB receive buffer. The server's figures
 * come over JMX: requests read, bytes of answers encoded ({@code BytesOut}), heap after a GC.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerSlowReader {
  private static final int REQUESTS = 40_000;
  private static final int ROWS = 1000;
  private static final int VALUE_CHARS = 1000;
  private static final int MAX_IN_FLIGHT = 16;

  /** A request's answer is the whole table: ~1 MB. */
  private static final long ANSWER_BYTES = (long) ROWS * VALUE_CHARS;

  /**
   * What the kernel may hold between the two ends: the server's send buffer (Linux autotunes it up
   * to net.ipv4.tcp_wmem's maximum, 4 MB by default) and the client's fixed receive buffer.
   */
  private static final long KERNEL_BYTES = 8L << 20;

  /** Answers to other clients must come as fast as usual: generous, for a loaded CI machine. */
  private static final Duration NORMAL_LATENCY = Duration.ofSeconds(2);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  @Test
  void aClientThatNeverReadsCannotMakeTheServerBufferWithoutBound() throws Exception {
    try (ServerProcess server =
        ServerProcess.options(temp)
            .set("max-in-flight", Integer.toString(MAX_IN_FLIGHT))
            .heap("256m")
            .jvm("-XX:MaxDirectMemorySize=256m")
            .name("slow-reader")
            .start()) {
      KvRows rows;
      try (RawClient loader = RawClient.open(server.port(), "loader")) {
        rows = new KvRows(KvRows.created(loader.call(KvRows.createTable("BIG"))));
        for (long from = 0; from < ROWS; from += 100) {
          RawClient.ok(loader.call(rows.upsertRange(from, from + 100, VALUE_CHARS)));
        }
      }
      awaitIdle(server);
      long heapBefore = server.heapUsedAfterGc();
      long bytesOutBefore = server.serverMetric("BytesOut");

      // the slow client: a writer thread sends Gets until the socket blocks; nobody reads
      ScanSpec everything = rows.scanInSteps(0, ROWS, 4);
      RawClient slow = RawClient.connect(server.port(), 64 << 10);
      slow.hello("slow-reader");
      AtomicLong sent = new AtomicLong();
      AtomicReference<Throwable> writerFailure = new AtomicReference<>();
      Thread writer =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < REQUESTS; i++) {
                    slow.send(KvRows.get(everything));
                    sent.incrementAndGet();
                  }
                } catch (IOException e) {
                  // the test closed the socket under the blocked write: expected at the end
                } catch (Throwable t) {
                  writerFailure.set(t);
                }
              },
              "slow-reader-writer");
      writer.setDaemon(true);
      writer.start();
      try {
        long requestSize = KvRows.get(everything).setId(1).build().getSerializedSize();
        long stalledAt = awaitStall(server, sent, writer);
        assertThat(stalledAt)
            .as(
                "requests sent before the server stopped reading (of %s, %s bytes each)",
                REQUESTS, requestSize)
            .isLessThan(REQUESTS);

        // what the server holds for the slow client: answers encoded but not read by anyone
        long held = server.serverMetric("BytesOut") - bytesOutBefore - slow.bytesRead();
        long bound = MAX_IN_FLIGHT * (ANSWER_BYTES + (64 << 10)) + KERNEL_BYTES;
        assertThat(held)
            .as(
                "bytes of answers to the slow client the server encoded (bound: %s in flight x"
                    + " %s bytes + %s bytes of socket buffers); %s requests read",
                MAX_IN_FLIGHT, ANSWER_BYTES, KERNEL_BYTES, server.serverMetric("Requests"))
            .isLessThanOrEqualTo(bound);
        assertThat(server.serverMetric("QueuedRequests") + server.serverMetric("ActiveRequests"))
            .as("requests queued or running for the slow client")
            .isLessThanOrEqualTo(MAX_IN_FLIGHT);

        System.err.printf(
            "TestServerSlowReader: the slow client sent %s requests of %s bytes before blocking;"
                + " the server read %s requests and holds %s bytes of answers for it (bound %s)%n",
            stalledAt, requestSize, server.serverMetric("Requests"), held, bound);

        // everyone else is served as usual, the big answer included
        try (RawClient other = RawClient.open(server.port(), "other")) {
          long slowest = 0;
          for (int i = 0; i < 30; i++) {
            long start = System.nanoTime();
            Request.Builder request =
                i % 3 == 0 ? KvRows.ping() : KvRows.get(rows.scan(i * 10L, i * 10L + 10));
            Response answer = RawClient.ok(other.call(request));
            slowest = Math.max(slowest, System.nanoTime() - start);
            if (answer.hasScanPage()) {
              assertThat(KvRows.rows(answer)).hasNumberOfRows(10);
            }
          }
          assertThat(Duration.ofNanos(slowest))
              .as("the slowest answer to another client")
              .isLessThan(NORMAL_LATENCY);
          assertThat(KvRows.rows(other.call(KvRows.get(everything)))).hasNumberOfRows(ROWS);
        }

        // the server's heap did not fill with the slow client's answers
        long heapDuring = server.heapUsedAfterGc();
        System.err.printf(
            "TestServerSlowReader: heap after GC %s bytes before, %s while blocked%n",
            heapBefore, heapDuring);
        assertThat(heapDuring - heapBefore)
            .as(
                "heap growth while the slow client is blocked (before %s, now %s)",
                heapBefore, heapDuring)
            .isLessThan(64L << 20);
        assertThat(writerFailure.get()).as("the writer's failure").isNull();
      } finally {
        slow.abort();
        writer.join(TimeUnit.SECONDS.toMillis(30));
      }
      assertThat(writer.isAlive()).as("the writer thread ended after the socket closed").isFalse();
      awaitIdle(server);
      awaitValue(
          "requests queued or running after the slow client left",
          () -> server.serverMetric("QueuedRequests") + server.serverMetric("ActiveRequests"),
          0L,
          RELEASE_PATIENCE);
      ServerChecks.stopAndAssertNoLeaks(server);
    }
  }

  /**
   * The same with the server's default limits (128 requests in flight per connection, 16 MiB
   * frames) and 4 MB answers: what the server encodes for a client that never reads must not take
   * the memory that other clients' answers need. With a 256 MiB direct memory limit, another
   * client's 4 MB answers must still come, and the server must not run out of memory.
   */
  @Test
  void aClientThatNeverReadsCannotTakeTheMemoryOtherClientsNeed() throws Exception {
    int rowCount = 4000;
    try (ServerProcess server =
        ServerProcess.options(temp)
            .heap("512m")
            .jvm("-XX:MaxDirectMemorySize=256m")
            .name("slow-reader-defaults")
            .start()) {
      KvRows rows;
      try (RawClient loader = RawClient.open(server.port(), "loader")) {
        rows = new KvRows(KvRows.created(loader.call(KvRows.createTable("BIGGER"))));
        for (long from = 0; from < rowCount; from += 200) {
          RawClient.ok(loader.call(rows.upsertRange(from, from + 200, VALUE_CHARS)));
        }
      }
      awaitIdle(server);
      long bytesOutBefore = server.serverMetric("BytesOut");

      RawClient slow = RawClient.connect(server.port(), 64 << 10);
      try {
        slow.hello("slow-reader");
        for (int i = 0; i < 200; i++) {
          slow.send(KvRows.get(rows.fullScan()));
        }
        awaitWorkDone(server);
        long held = server.serverMetric("BytesOut") - bytesOutBefore - slow.bytesRead();
        System.err.printf(
            "TestServerSlowReader: with the default limits the server read %s requests and"
                + " holds %s bytes of answers for a client that never reads%n",
            server.serverMetric("Requests"), held);

        try (RawClient other = RawClient.open(server.port(), "other")) {
          other.setReadTimeout(NORMAL_LATENCY.multipliedBy(5));
          for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            Response answer;
            try {
              answer = other.call(KvRows.get(rows.fullScan()));
            } catch (AssertionError e) {
              throw new AssertionError(
                  "another client's 4 MB Get failed (server threads: "
                      + server.dumpThreads()
                      + ") while the server holds "
                      + held
                      + " bytes of answers for a client that never reads; the server's log"
                      + " says:\n"
                      + String.join(
                          "\n",
                          server.logLines().stream()
                              .filter(l -> l.contains("OutOfMemoryError") || l.contains("ERROR"))
                              .limit(10)
                              .toList()),
                  e);
            }
            assertThat(RawClient.describe(answer))
                .as(
                    "another client's 4 MB answer while the server holds %s bytes for the slow"
                        + " client",
                    held)
                .isEqualTo(RawClient.describe(RawClient.ok(answer)));
            assertThat(KvRows.rows(answer)).hasNumberOfRows(rowCount);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("time for another client's 4 MB answer")
                .isLessThan(NORMAL_LATENCY.multipliedBy(2));
          }
        }
        assertThat(server.logLines().stream().filter(l -> l.contains("OutOfMemoryError")).toList())
            .as("the server ran out of memory (log %s)", server.log())
            .isEmpty();
      } finally {
        slow.abort();
      }
      awaitIdle(server);
      ServerChecks.stopAndAssertNoLeaks(server);
    }
  }

  /** Waits until the server runs no request and its request count stays put for a second. */
  private static void awaitWorkDone(ServerProcess server) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long last = -1;
    long stableSince = System.nanoTime();
    while (true) {
      long requests = server.serverMetric("Requests");
      long busy = server.serverMetric("ActiveRequests") + server.serverMetric("QueuedRequests");
      if (requests != last || busy != 0) {
        last = requests;
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince > TimeUnit.SECONDS.toNanos(1)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the server kept working for 60 s: " + requests + " requests, " + busy + " running");
      }
      Thread.sleep(50);
    }
  }

  /**
   * Waits until neither the writer nor the server's request count has moved for a second (the
   * server stopped reading and the sockets are full), or the writer sent everything; returns the
   * number of requests sent.
   */
  private static long awaitStall(ServerProcess server, AtomicLong sent, Thread writer)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    long lastSent = -1;
    long lastRequests = -1;
    long stableSince = System.nanoTime();
    while (writer.isAlive()) {
      long nowSent = sent.get();
      long nowRequests = server.serverMetric("Requests");
      if (nowSent != lastSent || nowRequests != lastRequests) {
        lastSent = nowSent;
        lastRequests = nowRequests;
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince > TimeUnit.SECONDS.toNanos(1)) {
        return nowSent;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the slow client kept sending for 60 s: " + nowSent + " requests sent");
      }
      Thread.sleep(50);
    }
    return sent.get();
  }
}
