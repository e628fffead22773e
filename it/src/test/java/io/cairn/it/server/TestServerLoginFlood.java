package io.cairn.it.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Hello;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.server.security.PasswordHasher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flood of wrong passwords against a real server process with users (docs/server-security.md,
 * "Login throttling"): 24 threads, from one address and from 12 others, loop Hellos with a wrong
 * password while a logged-in client pings. The password checks run on the login pool, not the
 * request workers, and an address that keeps failing is refused without a check, so the ping stays
 * fast; the flooders get only authentication errors (or SERVER_BUSY when the checks queue is full);
 * the log has a summary line per address and period, not lines per failure. The figures are
 * printed.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerLoginFlood {
  private static final int FLOODERS = 24;
  private static final Duration FLOOD_TIME = Duration.ofSeconds(8);
  private static final String PASSWORD = "correct horse";

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  @Test
  void aFloodOfWrongPasswordsDoesNotSlowALoggedInClient() throws Exception {
    floodAndPing("login.max-backoff", "30s", true);
  }

  /** Without the backoff every attempt costs a password check: the login pool alone shields. */
  @Test
  void withoutTheBackoffTheLoginPoolStillShieldsLoggedInClients() throws Exception {
    floodAndPing("login.max-backoff", "0s", false);
  }

  private void floodAndPing(String key, String value, boolean backoff) throws Exception {
    String hash = PasswordHasher.hash(PASSWORD.toCharArray());
    try (ServerProcess server =
        ServerProcess.options(temp)
            .set("user.ann", hash)
            .set(key, value)
            .name("login-flood-" + backoff)
            .start()) {
      try (RawClient pinger = RawClient.connect(server.port())) {
        Response ok = pinger.call(hello("ann", PASSWORD, "pinger"));
        assertThat(ok.hasHelloOk()).as(RawClient.describe(ok)).isTrue();
        List<Long> before = ping(pinger, Duration.ofSeconds(1));

        AtomicBoolean stop = new AtomicBoolean();
        Map<String, LongAdder> answers = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(FLOODERS);
        List<Long> during;
        try {
          List<Future<?>> flooders = new ArrayList<>();
          for (int i = 0; i < FLOODERS; i++) {
            // half from 127.0.0.1, the others each from an address of its own
            String from = i % 2 == 0 ? "127.0.0.1" : "127.0.0." + (10 + i / 2);
            int n = i;
            flooders.add(
                pool.submit(
                    () -> {
                      flood(server.port(), from, "flooder-" + n, stop, answers);
                      return null;
                    }));
          }
          during = ping(pinger, FLOOD_TIME);
          stop.set(true);
          for (Future<?> f : flooders) {
            f.get(60, TimeUnit.SECONDS);
          }
        } finally {
          stop.set(true);
          pool.shutdownNow();
        }
        List<Long> after = ping(pinger, Duration.ofMillis(500));

        long attempts = answers.values().stream().mapToLong(LongAdder::sum).sum();
        System.out.printf(
            "login flood (%s=%s): %d threads for %s: %d attempts, answers %s%n",
            key, value, FLOODERS, FLOOD_TIME, attempts, new java.util.TreeMap<>(answers));
        System.out.printf(
            "ping (ms): before median %.2f p99 %.2f; during median %.2f p99 %.2f max %.2f (%d"
                + " pings); after median %.2f%n",
            percentile(before, 50),
            percentile(before, 99),
            percentile(during, 50),
            percentile(during, 99),
            percentile(during, 100),
            during.size(),
            percentile(after, 50));
        assertThat(answers.keySet())
            .as("flooders get authentication errors, or SERVER_BUSY when checks queue up")
            .isSubsetOf("AUTHENTICATION_FAILED", "AUTHENTICATION_REFUSED", "SERVER_BUSY");
        assertThat(answers.get("AUTHENTICATION_FAILED")).isNotNull();
        assertThat(percentile(during, 50)).as("median ping during the flood, ms").isLessThan(50.0);

        // the failures are summarized: one line per address and period
        awaitLogLine(server, "failed login(s) from [127.0.0.1]");
        long failed = server.serverMetric("LoginFailures");
        long throttled = server.serverMetric("LoginsThrottled");
        long lines =
            server.logLines().stream()
                .filter(l -> l.contains("failed login") || l.contains("Authentication"))
                .count();
        System.out.printf(
            "server: %d password checks failed, %d attempts refused by the backoff, %d busy; %d"
                + " log lines about them%n",
            failed, throttled, server.serverMetric("LoginsBusy"), lines);
        if (backoff) {
          assertThat(throttled).as("attempts refused without a password check").isPositive();
        } else {
          assertThat(throttled).isZero();
        }
        assertThat(lines).as("log lines about failed logins").isLessThanOrEqualTo(50);
        assertThat(lines).isLessThan(failed + throttled);
      }
    }
  }

  private static Request.Builder hello(String user, String password, String client) {
    return Request.newBuilder()
        .setHello(
            Hello.newBuilder()
                .setProtocolVersion(1)
                .setUser(user)
                .setPassword(password)
                .setClientName(client));
  }

  private static void flood(
      int port, String from, String name, AtomicBoolean stop, Map<String, LongAdder> answers)
      throws IOException {
    long attempt = 0;
    while (!stop.get()) {
      try (RawClient client = RawClient.connectFrom(from, port)) {
        Response r = client.call(hello("ann", "wrong-" + attempt++, name));
        String kind;
        if (r.hasHelloOk()) {
          kind = "LOGGED_IN";
        } else if (r.hasError()
            && r.getError().getCode() == ErrorCode.AUTHENTICATION_FAILED.code()) {
          kind =
              r.getError().getMessage().startsWith("Authentication refused")
                  ? "AUTHENTICATION_REFUSED"
                  : "AUTHENTICATION_FAILED";
        } else if (r.hasError() && r.getError().getCode() == ErrorCode.SERVER_BUSY.code()) {
          kind = "SERVER_BUSY";
        } else {
          kind = RawClient.describe(r);
        }
        answers.computeIfAbsent(kind, k -> new LongAdder()).increment();
      }
    }
  }

  /** Pings every 10 ms for {@code time}; the round trips in milliseconds (as nanos / 1e6). */
  private static List<Long> ping(RawClient client, Duration time) throws Exception {
    List<Long> nanos = new ArrayList<>();
    long end = System.nanoTime() + time.toNanos();
    while (System.nanoTime() < end) {
      long start = System.nanoTime();
      Response r = client.call(KvRows.ping());
      nanos.add(System.nanoTime() - start);
      assertThat(r.hasPong()).as(RawClient.describe(r)).isTrue();
      Thread.sleep(10);
    }
    return nanos;
  }

  private static double percentile(List<Long> nanos, int percent) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    int index = Math.min(sorted.size() - 1, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1);
    return sorted.get(Math.max(0, index)) / 1e6;
  }

  private static void awaitLogLine(ServerProcess server, String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (server.logLines().stream().noneMatch(l -> l.contains(text))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no log line with [" + text + "]: " + server.describe());
      }
      Thread.sleep(50);
    }
  }
}
