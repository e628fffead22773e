package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The network server's admission settings: how many connections it takes, how long a client may
 * take to log in, to send a frame or to stay idle, and how password checks are throttled (see
 * docs/server.md, "Connections and logins", and docs/server-security.md). Part of {@link
 * ServerConfig}; immutable.
 *
 * @param handshakeTimeout a connection that has not authenticated this long after it was accepted
 *     (TLS handshake and Hello included) is closed
 * @param idleTimeout an authenticated connection with no request running and no scanner open this
 *     long is closed; zero: never
 * @param frameReadTimeout after login, a frame begun but not complete this long (while the server
 *     reads) closes the connection
 * @param maxConnections connections open at once; beyond, a new one is refused
 * @param maxConnectionsPerAddress connections open at once from one client address
 * @param maxUnauthenticatedConnections connections open at once that have not authenticated yet
 * @param preLoginMaxFrameBytes the largest frame read before a connection has authenticated
 * @param loginThreads threads that check passwords (PBKDF2), apart from the request workers
 * @param loginQueueSize password checks that may wait for a login thread; beyond, SERVER_BUSY
 * @param loginFailuresBeforeBackoff failed logins from one address within a minute before each
 *     further attempt from it is refused for a growing time
 * @param loginMaxBackoff the longest an address is refused after failures; zero: no backoff
 */
public record ConnectionConfig(
    Duration handshakeTimeout,
    Duration idleTimeout,
    Duration frameReadTimeout,
    int maxConnections,
    int maxConnectionsPerAddress,
    int maxUnauthenticatedConnections,
    int preLoginMaxFrameBytes,
    int loginThreads,
    int loginQueueSize,
    int loginFailuresBeforeBackoff,
    Duration loginMaxBackoff) {

  public static final String HANDSHAKE_TIMEOUT = "handshake-timeout";
  public static final String IDLE_TIMEOUT = "idle-timeout";
  public static final String FRAME_READ_TIMEOUT = "frame-read-timeout";
  public static final String MAX_CONNECTIONS = "max-connections";
  public static final String MAX_CONNECTIONS_PER_ADDRESS = "max-connections-per-address";
  public static final String MAX_UNAUTHENTICATED_CONNECTIONS = "max-unauthenticated-connections";
  public static final String PRE_LOGIN_MAX_FRAME_BYTES = "pre-login.max-frame-bytes";
  public static final String LOGIN_THREADS = "login.threads";
  public static final String LOGIN_QUEUE_SIZE = "login.queue-size";
  public static final String LOGIN_FAILURES_BEFORE_BACKOFF = "login.failures-before-backoff";
  public static final String LOGIN_MAX_BACKOFF = "login.max-backoff";

  static final Set<String> KEYS =
      Set.of(
          HANDSHAKE_TIMEOUT,
          IDLE_TIMEOUT,
          FRAME_READ_TIMEOUT,
          MAX_CONNECTIONS,
          MAX_CONNECTIONS_PER_ADDRESS,
          MAX_UNAUTHENTICATED_CONNECTIONS,
          PRE_LOGIN_MAX_FRAME_BYTES,
          LOGIN_THREADS,
          LOGIN_QUEUE_SIZE,
          LOGIN_FAILURES_BEFORE_BACKOFF,
          LOGIN_MAX_BACKOFF);

  /** The most connections by default, whatever the file descriptor limit. */
  static final int DEFAULT_MAX_CONNECTIONS_CAP = 10_000;

  public ConnectionConfig {
    requireNonNull(handshakeTimeout, "handshakeTimeout is null");
    requireNonNull(idleTimeout, "idleTimeout is null");
    requireNonNull(frameReadTimeout, "frameReadTimeout is null");
    requireNonNull(loginMaxBackoff, "loginMaxBackoff is null");
  }

  /** The settings of {@code properties} (server keys), defaults for those not given. */
  static ConnectionConfig from(Map<String, String> properties) {
    int maxFrame =
        (int) ServerConfig.size(properties, PRE_LOGIN_MAX_FRAME_BYTES, 64 << 10, 1024, 16L << 20);
    return new ConnectionConfig(
        ServerConfig.duration(
            properties, HANDSHAKE_TIMEOUT, Duration.ofSeconds(10), Duration.ofMillis(100)),
        ServerConfig.duration(properties, IDLE_TIMEOUT, Duration.ofMinutes(30), Duration.ZERO),
        ServerConfig.duration(
            properties, FRAME_READ_TIMEOUT, Duration.ofSeconds(60), Duration.ofMillis(100)),
        (int)
            ServerConfig.number(
                properties,
                MAX_CONNECTIONS,
                defaultMaxConnections(fileDescriptorLimit()),
                1,
                1 << 24),
        (int) ServerConfig.number(properties, MAX_CONNECTIONS_PER_ADDRESS, 1000, 1, 1 << 24),
        (int) ServerConfig.number(properties, MAX_UNAUTHENTICATED_CONNECTIONS, 256, 1, 1 << 24),
        maxFrame,
        (int)
            ServerConfig.number(
                properties,
                LOGIN_THREADS,
                Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 4)),
                1,
                256),
        (int) ServerConfig.number(properties, LOGIN_QUEUE_SIZE, 64, 1, 1 << 20),
        (int) ServerConfig.number(properties, LOGIN_FAILURES_BEFORE_BACKOFF, 5, 1, 1 << 20),
        ServerConfig.duration(
            properties, LOGIN_MAX_BACKOFF, Duration.ofSeconds(30), Duration.ZERO));
  }

  /**
   * Half the process's file descriptor limit, at least 64 and at most {@value
   * #DEFAULT_MAX_CONNECTIONS_CAP}: each connection holds one descriptor, and the other half stays
   * for the stores' files, the status page and the accepts refused past the limit, so that the
   * connections alone never exhaust the descriptors (an accept that fails with "too many open
   * files" refuses everyone, logged-in clients' new connections and {@code /health} included).
   */
  static int defaultMaxConnections(long fileDescriptorLimit) {
    if (fileDescriptorLimit <= 0) {
      return DEFAULT_MAX_CONNECTIONS_CAP;
    }
    return (int) Math.max(64, Math.min(DEFAULT_MAX_CONNECTIONS_CAP, fileDescriptorLimit / 2));
  }

  /** The process's limit on open file descriptors, or -1 when the platform does not tell. */
  static long fileDescriptorLimit() {
    try {
      Object value =
          ManagementFactory.getPlatformMBeanServer()
              .getAttribute(
                  new ObjectName(ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME),
                  "MaxFileDescriptorCount");
      return value instanceof Number n ? n.longValue() : -1;
    } catch (JMException | RuntimeException e) {
      return -1; // not a Unix JVM
    }
  }
}
