package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.RELEASE_PATIENCE;
import static io.cairn.it.server.ServerChecks.awaitIdle;
import static io.cairn.it.server.ServerChecks.awaitValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Response;
import io.cairn.relocated.protobuf.ByteString;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@value #CLIENTS} clients, each on its own connection, write and scan one table of a durable
 * server at once for {@code -Dcairn.it.server.seconds} (default 20) seconds, while one of them
 * flushes the table now and then and some drop their connection in the middle of a scan. The table
 * is read without the block cache, so open scans hold buffers of the store's pool.
 *
 * <p>Client {@code c} owns the keys {@code c * 1,000,000 + i}; it upserts new keys in batches and
 * updates its older ones, and writes {@code (k, "v" + k + "." + n, n)} for version {@code n} of key
 * {@code k}. It knows, for each of its keys, the last version the server acknowledged and the last
 * it sent; its reads of its own keys must see every acknowledged version (read your writes) and
 * nothing it never wrote, and paged scans of the whole table must return ascending keys with
 * consistent values. Afterwards every acknowledged version must be in the table, also after a
 * graceful stop (SIGTERM, which must flush) and a new server process on the same directory; every
 * scanner and pooled buffer must have been released, and the server's log must hold no leak.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerConcurrentClients {
  private static final int CLIENTS = 100;
  private static final long KEYS_PER_CLIENT = 1_000_000;
  private static final String TABLE = "CONCURRENT";

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  /** What one client wrote: per key, the last acknowledged version (0: none) and the last sent. */
  private static final class Model {
    final Map<Long, long[]> versions = new TreeMap<>();
    final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    long nextKey;
    long acknowledged;
    long gets;
    long scans;
    long aborts;
  }

  @Test
  void acknowledgedWritesOfAHundredClientsSurviveAndEverythingIsReleased() throws Exception {
    long seed = Long.getLong("cairn.it.server.seed", System.nanoTime());
    Duration duration = Duration.ofSeconds(Long.getLong("cairn.it.server.seconds", 20));
    Path data = temp.resolve("data");
    System.err.printf(
        "TestServerConcurrentClients: seed [%s] (-Dcairn.it.server.seed=%s), %s clients for %s%n",
        seed, seed, CLIENTS, duration);

    Model[] models = new Model[CLIENTS];
    Map<Long, Object[]> beforeStop;
    try (ServerProcess server =
        ServerProcess.options(temp).data(data).heap("512m").name("concurrent-1").start()) {
      KvRows rows;
      try (RawClient admin = RawClient.open(server.port(), "admin")) {
        rows =
            new KvRows(
                KvRows.created(
                    admin.call(
                        KvRows.createTable(
                            KvRows.draft(TABLE, Map.of("BLOCKCACHE", "FALSE")),
                            25 * KEYS_PER_CLIENT,
                            50 * KEYS_PER_CLIENT,
                            75 * KEYS_PER_CLIENT))));
      }
      awaitIdle(server);
      long baselineBuffers = server.bufferPoolSum("UsedBuffers");

      SplittableRandom random = new SplittableRandom(seed);
      long deadline = System.nanoTime() + duration.toNanos();
      List<Thread> threads = new ArrayList<>();
      Map<Integer, Throwable> crashed = new ConcurrentHashMap<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        Model model = new Model();
        models[c] = model;
        SplittableRandom clientRandom = random.split();
        Thread t =
            new Thread(
                () -> {
                  try {
                    runClient(server, rows, client, model, clientRandom, deadline);
                  } catch (Throwable e) {
                    crashed.put(client, e);
                  }
                },
                "client-" + c);
        t.setDaemon(true);
        threads.add(t);
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join(duration.plusSeconds(60).toMillis());
        assertThat(t.isAlive()).as("hang: %s still running a minute after the end", t).isFalse();
      }
      long acknowledged = Arrays.stream(models).mapToLong(m -> m.acknowledged).sum();
      System.err.printf(
          "TestServerConcurrentClients: %s acknowledged writes, %s gets, %s scans, %s dropped"
              + " connections%n",
          acknowledged,
          Arrays.stream(models).mapToLong(m -> m.gets).sum(),
          Arrays.stream(models).mapToLong(m -> m.scans).sum(),
          Arrays.stream(models).mapToLong(m -> m.aborts).sum());
      assertThat(crashed).as("clients that failed (seed %s)", seed).isEmpty();
      List<String> failures = new ArrayList<>();
      for (Model m : models) {
        failures.addAll(m.failures);
      }
      assertThat(failures).as("unexpected answers (seed %s)", seed).isEmpty();
      assertThat(acknowledged).as("acknowledged writes").isGreaterThan(CLIENTS);

      awaitIdle(server);
      awaitValue(
          "pooled buffers in use after every client left (baseline " + baselineBuffers + ")",
          () -> server.bufferPoolSum("UsedBuffers"),
          baselineBuffers,
          RELEASE_PATIENCE);
      beforeStop = readAndCheck(server, rows, models, "before the graceful stop");
      ServerChecks.stopAndAssertNoLeaks(server);
    }

    try (ServerProcess again =
        ServerProcess.options(temp).data(data).heap("512m").name("concurrent-2").start()) {
      KvRows rows;
      try (RawClient admin = RawClient.open(again.port(), "admin")) {
        rows = new KvRows(tableOf(admin));
      }
      Map<Long, Object[]> afterRestart =
          readAndCheck(again, rows, models, "after a graceful stop and a restart");
      assertThat(afterRestart.keySet())
          .as("keys after the restart equal those before the stop")
          .containsExactlyElementsOf(beforeStop.keySet());
      for (Map.Entry<Long, Object[]> e : beforeStop.entrySet()) {
        assertThat(afterRestart.get(e.getKey()))
            .as("row %s after the restart", e.getKey())
            .containsExactly(e.getValue());
      }
      ServerChecks.stopAndAssertNoLeaks(again);
    }
  }

  /**
   * Acknowledged writes are in the write-ahead log before they are answered: a server killed with
   * SIGKILL (no flush, no goodbye) under 20 writing clients loses none of them (the default
   * durability, SYNC, survives a crash of the process).
   */
  @Test
  void acknowledgedWritesSurviveKillNine() throws Exception {
    Path data = temp.resolve("killed");
    KvRows rows;
    AckedWriters writers;
    try (ServerProcess server = ServerProcess.options(temp).data(data).name("killed-1").start()) {
      try (RawClient admin = RawClient.open(server.port(), "admin")) {
        rows = new KvRows(KvRows.created(admin.call(KvRows.createTable("KILLED"))));
      }
      writers = AckedWriters.start(server, rows, 20);
      // some of the rows in block files, the rest only in the log
      awaitValue(
          "at least 1,500 acknowledged writes",
          () -> writers.acknowledgedCount() >= 1500 || !writers.failures().isEmpty(),
          true,
          Duration.ofSeconds(60));
      try (RawClient admin = RawClient.open(server.port(), "flusher")) {
        RawClient.ok(admin.call(rows.flush()));
      }
      awaitValue(
          "at least 3,000 acknowledged writes",
          () -> writers.acknowledgedCount() >= 3000 || !writers.failures().isEmpty(),
          true,
          Duration.ofSeconds(60));
      server.kill();
      writers.await(Duration.ofSeconds(60));
      assertThat(writers.failures()).as("writes answered with errors").isEmpty();
    }
    try (ServerProcess again = ServerProcess.options(temp).data(data).name("killed-2").start()) {
      writers.assertTable(again, rows, "after SIGKILL under load and a restart");
      ServerChecks.stopAndAssertNoLeaks(again);
    }
  }

  /** One client's loop until {@code deadline}; every answer is checked against its model. */
  private static void runClient(
      ServerProcess server,
      KvRows rows,
      int client,
      Model model,
      SplittableRandom random,
      long deadline)
      throws IOException {
    long first = client * KEYS_PER_CLIENT;
    model.nextKey = first;
    boolean flusher = client == 0;
    long nextFlush = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    // a tenth of the clients drop their connection in the middle of one scan
    boolean willAbort = client % 10 == 5;
    RawClient connection = RawClient.open(server.port(), "client-" + client);
    try {
      while (System.nanoTime() < deadline) {
        int dice = random.nextInt(100);
        if (flusher && System.nanoTime() > nextFlush) {
          expectOk(model, connection.call(rows.flush()), "flush");
          nextFlush = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        } else if (dice < 45 || model.versions.isEmpty()) {
          int count = 1 + random.nextInt(4);
          long[] keys = new long[count];
          for (int i = 0; i < count; i++) {
            keys[i] = model.nextKey++;
            model.versions.put(keys[i], new long[] {0, 1});
          }
          write(connection, rows, model, 1, keys);
        } else if (dice < 65) {
          List<Long> own = new ArrayList<>(model.versions.keySet());
          long k = own.get(random.nextInt(own.size()));
          long n = model.versions.get(k)[1] + 1;
          model.versions.get(k)[1] = n;
          write(connection, rows, model, n, k);
        } else if (dice < 90) {
          Response answer = connection.call(KvRows.get(rows.scan(first, first + KEYS_PER_CLIENT)));
          if (expectOk(model, answer, "get")) {
            checkOwnRows(model, KvRows.rows(answer));
          }
          model.gets++;
        } else {
          if (scan(connection, rows, model, willAbort)) {
            willAbort = false;
            model.aborts++;
            connection = RawClient.open(server.port(), "client-" + client + "-again");
          }
          model.scans++;
        }
      }
    } finally {
      connection.close();
    }
  }

  private static void write(RawClient connection, KvRows rows, Model model, long n, long... keys)
      throws IOException {
    Response answer = connection.call(rows.upsert(n, keys));
    if (expectOk(model, answer, "upsert of " + Arrays.toString(keys) + " version " + n)) {
      for (long k : keys) {
        model.versions.get(k)[0] = n;
      }
      model.acknowledged++;
    }
  }

  /**
   * Reads up to three pages of a scan of the whole table, then closes it, or drops the connection
   * when {@code abort}; returns whether it dropped it.
   */
  private static boolean scan(RawClient connection, KvRows rows, Model model, boolean abort)
      throws IOException {
    Response page = connection.call(KvRows.openScan(rows.fullScan(), 200, 0));
    long last = Long.MIN_VALUE;
    for (int pages = 0; ; pages++) {
      if (!expectOk(model, page, "scan page")) {
        return false;
      }
      for (Object[] row : KvRows.rows(page)) {
        long k = (Long) row[0];
        if (k <= last) {
          model.failures.add("scan: key [" + k + "] after [" + last + "]");
        }
        last = k;
        if (!KvRows.value(k, (Long) row[2]).equals(row[1])) {
          model.failures.add("scan: row " + Arrays.toString(row) + " has a foreign value");
        }
      }
      if (page.getScanPage().getDone()) {
        return false;
      }
      long scanner = page.getScanPage().getScannerId();
      if (pages == 2) {
        if (abort) {
          connection.send(KvRows.scanNext(scanner, 200, 0));
          connection.abort();
          return true;
        }
        expectOk(model, connection.call(KvRows.closeScan(scanner)), "close scan");
        return false;
      }
      page = connection.call(KvRows.scanNext(scanner, 200, 0));
    }
  }

  /** True for a success; records anything else as a failure (no error is expected here). */
  private static boolean expectOk(Model model, Response answer, String what) {
    if (answer.hasError()) {
      model.failures.add(
          what
              + ": "
              + RawClient.describe(answer)
              + " "
              + ErrorCode.fromCode(answer.getError().getCode()));
      return false;
    }
    return true;
  }

  /** The client's own rows, read back: every acknowledged version, nothing unwritten. */
  private static void checkOwnRows(Model model, Object[][] rows) {
    Map<Long, Object[]> seen = new TreeMap<>();
    for (Object[] row : rows) {
      seen.put((Long) row[0], row);
    }
    checkAgainst(model, seen, model.failures, "read-your-writes");
  }

  private static void checkAgainst(
      Model model, Map<Long, Object[]> seen, List<String> failures, String when) {
    for (Map.Entry<Long, long[]> e : model.versions.entrySet()) {
      long k = e.getKey();
      long acked = e.getValue()[0];
      long sent = e.getValue()[1];
      Object[] row = seen.get(k);
      if (row == null) {
        if (acked > 0) {
          failures.add(
              when + ": key [" + k + "] acknowledged at version [" + acked + "] is missing");
        }
        continue;
      }
      long n = (Long) row[2];
      if (n < acked || n > sent) {
        failures.add(
            when
                + ": key ["
                + k
                + "] has version ["
                + n
                + "], expected between the acknowledged ["
                + acked
                + "] and the last sent ["
                + sent
                + "]");
      }
      if (!KvRows.value(k, n).equals(row[1])) {
        failures.add(when + ": key [" + k + "] has value [" + row[1] + "] for version " + n);
      }
    }
    for (long k : seen.keySet()) {
      if (!model.versions.containsKey(k)) {
        failures.add(when + ": key [" + k + "] was never written");
      }
    }
  }

  /** Reads the whole table with a paged scan and checks every client's keys; returns the rows. */
  private static Map<Long, Object[]> readAndCheck(
      ServerProcess server, KvRows rows, Model[] models, String when) throws Exception {
    TreeMap<Long, Object[]> all = new TreeMap<>();
    try (RawClient reader = RawClient.open(server.port(), "checker")) {
      for (Object[] row : rows.scanAll(reader, 5000)) {
        all.put((Long) row[0], row);
      }
    }
    List<String> failures = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      long first = c * KEYS_PER_CLIENT;
      checkAgainst(models[c], all.subMap(first, first + KEYS_PER_CLIENT), failures, when);
    }
    long outside =
        all.keySet().stream().filter(k -> k < 0 || k >= CLIENTS * KEYS_PER_CLIENT).count();
    assertThat(outside).as("keys that no client owns").isZero();
    assertThat(failures.subList(0, Math.min(failures.size(), 50)))
        .as("%s: %s failures, the first 50", when, failures.size())
        .isEmpty();
    awaitIdle(server);
    return all;
  }

  private static TableDescriptor tableOf(RawClient client) throws IOException {
    Response catalog = client.call(KvRows.getCatalog());
    for (ByteString bytes : RawClient.ok(catalog).getCatalogData().getTablesList()) {
      TableDescriptor t = DescriptorSerializer.deserialize(bytes.toByteArray());
      if (t.qualifiedName().equals("PUBLIC." + TABLE)) {
        return t;
      }
    }
    throw new AssertionError("no table PUBLIC." + TABLE + " after the restart");
  }
}
