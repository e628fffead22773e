package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.server.security.LoginThrottle;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the user and password of Hellos on a small pool of its own ({@code login.threads}, with a
 * queue of {@code login.queue-size}; beyond, SERVER_BUSY at once), never on the request workers or
 * an event loop, so that a flood of logins (PBKDF2 is slow on purpose) does not slow the clients
 * that are logged in. An address that keeps failing is refused for a while without a check ({@link
 * LoginThrottle}); the failures are logged as one line per address every {@link #LOG_PERIOD}.
 */
final class Logins implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Logins.class);

  /** How often the failed logins are summarized in the log. */
  static final Duration LOG_PERIOD = Duration.ofSeconds(10);

  static final String AUTHENTICATION_FAILED = "Authentication failed: wrong user or password";

  private final Authenticator authenticator;
  private final ConnectionConfig config;
  private final ServerMetrics metrics;
  private final LoginThrottle throttle;
  private final ThreadPoolExecutor pool;

  Logins(Authenticator authenticator, ConnectionConfig config, ServerMetrics metrics) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.config = requireNonNull(config, "config is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.throttle =
        new LoginThrottle(config.loginFailuresBeforeBackoff(), config.loginMaxBackoff());
    AtomicInteger counter = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            config.loginThreads(),
            config.loginThreads(),
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(config.loginQueueSize()),
            r -> {
              Thread t = new Thread(r, "cairn-login-" + counter.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
  }

  /** Password checks waiting for a login thread. */
  int queued() {
    return pool.getQueue().size();
  }

  /** Whether Hellos must give a user and password that the authenticator accepts. */
  boolean required() {
    return authenticator.required();
  }

  /**
   * Checks {@code user} and {@code password} from {@code address}, then calls {@code done} with
   * null when they are accepted, else with the error to answer: AUTHENTICATION_FAILED (wrong, or
   * the address backs off after failures: refused without a check) or SERVER_BUSY (the queue of
   * checks is full). {@code done} runs on a login thread, or on the caller's when no check runs.
   */
  void check(InetAddress address, String user, String password, Consumer<CairnException> done) {
    String from = address == null ? "?" : address.getHostAddress();
    long refusedForNanos = throttle.refusal(from, System.nanoTime());
    if (refusedForNanos > 0) {
      metrics.loginThrottled();
      done.accept(
          new CairnException(
              ErrorCode.AUTHENTICATION_FAILED,
              "Authentication refused: too many failed logins from ["
                  + from
                  + "]; retry in ["
                  + Math.max(1, TimeUnit.NANOSECONDS.toMillis(refusedForNanos))
                  + "] ms"));
      return;
    }
    try {
      pool.execute(() -> done.accept(verify(from, user, password)));
    } catch (RejectedExecutionException e) {
      metrics.loginBusy();
      done.accept(
          new CairnException(
              ErrorCode.SERVER_BUSY,
              "The server is busy: ["
                  + config.loginQueueSize()
                  + "] logins wait for a password check already, the most "
                  + ConnectionConfig.LOGIN_QUEUE_SIZE
                  + " allows; retry later"));
    }
  }

  private CairnException verify(String from, String user, String password) {
    char[] secret = password.toCharArray();
    boolean accepted;
    try {
      accepted = !user.isEmpty() && authenticator.authenticate(user, secret);
    } catch (RuntimeException e) {
      LOG.error("Checking the password of user [{}] from [{}] failed", user, from, e);
      accepted = false;
    } finally {
      Arrays.fill(secret, '\0');
    }
    if (accepted) {
      throttle.succeeded(from);
      return null;
    }
    metrics.loginFailed();
    throttle.failed(from, user, System.nanoTime());
    return new CairnException(ErrorCode.AUTHENTICATION_FAILED, AUTHENTICATION_FAILED);
  }

  /** Logs the failures since the previous call (the server's timer, every {@link #LOG_PERIOD}). */
  void logFailures() {
    for (String line : throttle.summarize(System.nanoTime(), LOG_PERIOD)) {
      LOG.warn("{}", line);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
