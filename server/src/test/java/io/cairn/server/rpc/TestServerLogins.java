package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Response;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Password checks on the login pool: the thread they run on, a full queue of checks, a check that
 * outlasts the handshake deadline, and the per-address backoff that refuses without a check.
 */
@ExtendWith(NettyLeakCheck.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TestServerLogins {
  private CairnServer server;
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() {
    release.countDown();
    if (server != null) {
      server.close();
    }
  }

  /** Accepts ann/secret; records the threads it runs on; waits for {@link #release} if gated. */
  private static final class TestingAuthenticator implements Authenticator {
    final List<String> threads = new CopyOnWriteArrayList<>();
    final AtomicInteger checks = new AtomicInteger();
    final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch gate;

    TestingAuthenticator(CountDownLatch gate) {
      this.gate = gate;
    }

    @Override
    public boolean required() {
      return true;
    }

    @Override
    public boolean authenticate(String user, char[] password) {
      threads.add(Thread.currentThread().getName());
      checks.incrementAndGet();
      entered.countDown();
      if (gate != null) {
        try {
          gate.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return user.equals("ann") && Arrays.equals(password, "secret".toCharArray());
    }
  }

  @Test
  void checksRunOnTheLoginPoolAndAFullQueueIsServerBusy() throws Exception {
    TestingAuthenticator authenticator = new TestingAuthenticator(release);
    server =
        CairnServer.start(
            TestingServers.config(
                Map.of(
                    ConnectionConfig.LOGIN_THREADS, "1", ConnectionConfig.LOGIN_QUEUE_SIZE, "1")),
            authenticator,
            null);
    try (TestingRpcClient running = TestingRpcClient.connect(server.port());
        TestingRpcClient queued = TestingRpcClient.connect(server.port());
        TestingRpcClient refused = TestingRpcClient.connect(server.port())) {
      long first = running.send(hello("secret"));
      assertThat(authenticator.entered.await(10, TimeUnit.SECONDS)).isTrue();
      long second = queued.send(hello("secret"));
      // the queue holds one check: wait until the second is in it, then the third is refused
      awaitQueued(server, 1);
      Response busy = refused.call(hello("secret"));
      assertError(busy, ErrorCode.SERVER_BUSY);
      assertThat(busy.getError().getMessage()).contains("login.queue-size");
      assertThat(refused.closedByServer()).isTrue();

      release.countDown();
      assertThat(running.await(first).hasHelloOk()).isTrue();
      assertThat(queued.await(second).hasHelloOk()).isTrue();
      assertThat(authenticator.threads).allMatch(t -> t.startsWith("cairn-login-"));
      assertThat(server.context().metrics().getLoginsBusy()).isEqualTo(1);
    }
  }

  @Test
  void aCheckThatOutlastsTheHandshakeDeadlineClosesTheConnection() throws Exception {
    TestingAuthenticator authenticator = new TestingAuthenticator(release);
    server =
        CairnServer.start(
            TestingServers.config(Map.of(ConnectionConfig.HANDSHAKE_TIMEOUT, "200ms")),
            authenticator,
            null);
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      client.send(hello("secret"));
      Response r = client.read();
      assertThat(r.getId()).isZero();
      assertError(r, ErrorCode.SERVER_BUSY);
      assertThat(r.getError().getMessage()).contains("handshake-timeout");
      assertThat(client.closedByServer()).isTrue();
    }
    assertThat(server.context().metrics().getHandshakeTimeouts()).isEqualTo(1);
  }

  @Test
  void anAddressThatKeepsFailingIsRefusedWithoutACheckUntilItsBackoffEnds() {
    TestingAuthenticator authenticator = new TestingAuthenticator(null);
    server =
        CairnServer.start(
            TestingServers.config(Map.of(ConnectionConfig.LOGIN_FAILURES_BEFORE_BACKOFF, "2")),
            authenticator,
            null);
    for (int i = 0; i < 2; i++) {
      try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
        Response r = client.call(hello("wrong"));
        assertError(r, ErrorCode.AUTHENTICATION_FAILED);
        assertThat(r.getError().getMessage())
            .isEqualTo("Authentication failed: wrong user or password");
      }
    }
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      // even the right password: the address backs off
      Response r = client.call(hello("secret"));
      assertError(r, ErrorCode.AUTHENTICATION_FAILED);
      assertThat(r.getError().getMessage())
          .startsWith(
              "Authentication refused: too many failed logins from [127.0.0.1]; retry in [");
      assertThat(client.closedByServer()).isTrue();
    }
    assertThat(authenticator.checks.get()).as("password checks").isEqualTo(2);
    assertThat(server.context().metrics().getLoginsThrottled()).isEqualTo(1);
    assertThat(server.context().metrics().getLoginFailures()).isEqualTo(2);
  }

  private static io.cairn.protocol.Request.Builder hello(String password) {
    return io.cairn.protocol.Request.newBuilder()
        .setHello(
            io.cairn.protocol.Hello.newBuilder()
                .setProtocolVersion(1)
                .setUser("ann")
                .setPassword(password));
  }

  private static void awaitQueued(CairnServer server, int checks) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.context().metrics().getQueuedLogins() < checks) {
      assertThat(System.nanoTime()).as("a queued password check").isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
