package io.cairn.it.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Response;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Clients that write their own keys until told to stop or until the server goes away, and remember
 * which writes the server acknowledged: the rows {@code (k, value(k, 1), 1)}, three keys per
 * Mutate, client {@code c} writing keys from {@code c * 1,000,000}. A write answered with an error
 * other than SERVER_SHUTTING_DOWN, or a client that does not finish, is a failure.
 */
final class AckedWriters {
  private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
  private final Set<Long> attempted = ConcurrentHashMap.newKeySet();
  private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
  private final List<String> endings = Collections.synchronizedList(new ArrayList<>());
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();

  /** Starts {@code clients} writers on {@code server}'s table {@code rows}. */
  static AckedWriters start(ServerProcess server, KvRows rows, int clients) {
    AckedWriters writers = new AckedWriters();
    for (int c = 0; c < clients; c++) {
      long first = c * 1_000_000L;
      Thread t =
          new Thread(
              () -> {
                try {
                  writers.run(server.port(), rows, first);
                } catch (Throwable e) {
                  writers.failures.add("writer from " + first + " failed: " + e);
                }
              },
              "writer-" + c);
      t.setDaemon(true);
      writers.threads.add(t);
      t.start();
    }
    return writers;
  }

  private void run(int port, KvRows rows, long first) throws IOException {
    long k = first;
    try (RawClient client = RawClient.open(port, "writer-" + first)) {
      while (!stop.get()) {
        long[] keys = {k, k + 1, k + 2};
        k += 3;
        for (long key : keys) {
          attempted.add(key);
        }
        long id;
        Response answer;
        try {
          id = client.send(rows.upsert(1, keys));
          answer = readAnswer(client, id);
        } catch (IOException e) {
          endings.add("connection gone: " + e);
          return;
        }
        if (answer == null) {
          endings.add("connection closed");
          return;
        }
        if (answer.hasError()) {
          if (answer.getError().getCode() == ErrorCode.SERVER_SHUTTING_DOWN.code()) {
            endings.add("SERVER_SHUTTING_DOWN");
            return;
          }
          failures.add("upsert from " + keys[0] + ": " + RawClient.describe(answer));
          continue;
        }
        for (long key : keys) {
          acknowledged.add(key);
        }
      }
      endings.add("stopped");
    }
  }

  /** The answer to {@code id}, skipping events; null when the connection closed first. */
  private static Response readAnswer(RawClient client, long id) throws IOException {
    while (true) {
      Response r;
      try {
        r = client.read();
      } catch (AssertionError e) {
        if (RawClient.CUT.equals(e.getMessage())) {
          return null; // a frame cut by the server's going away
        }
        throw e;
      }
      if (r == null || r.getId() == id) {
        return r;
      }
    }
  }

  /** Tells the writers to stop after their current write. */
  void stop() {
    stop.set(true);
  }

  /** Waits for every writer to end; fails naming those still running after {@code patience}. */
  void await(Duration patience) throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    for (Thread t : threads) {
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      assertThat(t.isAlive())
          .as("hang: %s still running after %s", t.getName(), patience)
          .isFalse();
    }
  }

  long acknowledgedCount() {
    return acknowledged.size();
  }

  List<String> failures() {
    return List.copyOf(failures);
  }

  /** How each writer ended: "stopped", "SERVER_SHUTTING_DOWN", "connection closed", ... */
  List<String> endings() {
    return List.copyOf(endings);
  }

  /**
   * Reads the table through a new client of {@code server} and checks that every acknowledged write
   * is there, with its value, and nothing that was never written.
   */
  void assertTable(ServerProcess server, KvRows rows, String when) throws IOException {
    Set<Long> present = new TreeSet<>();
    List<String> wrong = new ArrayList<>();
    try (RawClient reader = RawClient.open(server.port(), "checker")) {
      for (Object[] row : rows.scanAll(reader, 5000)) {
        long k = (Long) row[0];
        present.add(k);
        if (!KvRows.value(k, 1).equals(row[1])) {
          wrong.add("row " + k + " has value " + row[1]);
        }
      }
    }
    Set<Long> lost = new TreeSet<>(acknowledged);
    lost.removeAll(present);
    Set<Long> invented = new TreeSet<>(present);
    invented.removeAll(attempted);
    assertThat(lost)
        .as("%s: acknowledged rows missing (of %s acknowledged)", when, acknowledged.size())
        .isEmpty();
    assertThat(invented).as("%s: rows never written", when).isEmpty();
    assertThat(wrong).as("%s: rows with a wrong value", when).isEmpty();
  }
}
