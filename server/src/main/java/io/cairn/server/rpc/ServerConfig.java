package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.server.security.Users;
import io.cairn.store.StoreConfig;
import io.cairn.store.io.Settings;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The network server's settings, from a properties file overridden by command-line flags (see
 * {@link ServerMain}); documented in docs/server.md. Unknown keys and bad values are errors naming
 * the key, what was expected and what was found. Immutable.
 *
 * @param host the address the server binds to (loopback unless told otherwise)
 * @param port the port; 0: any free port
 * @param httpHost the status page's address
 * @param httpPort the status page's port; 0: any free port, -1: no status page
 * @param data the root directory of the durable databases; empty: every database in memory
 * @param maxFrameBytes the largest frame (request or response) the server reads or writes
 * @param workerThreads threads of the pool that runs every request's work
 * @param queueSize requests that may wait for a worker; beyond it, SERVER_BUSY
 * @param maxInFlight requests one connection may have running or queued before the server stops
 *     reading its frames
 * @param connections connection limits, handshake, frame and idle timeouts, login throttling
 * @param pageMaxRows default rows per scan page
 * @param pageMaxBytes default encoded bytes per scan page
 * @param pageMaxMillis default time a page may take before it is answered with what it has
 * @param scannerIdleTimeout an open scanner untouched this long is closed
 * @param maxSnapshotsPerConnection snapshots (OpenSnapshot) one connection may hold open at once;
 *     beyond, SERVER_BUSY
 * @param slowRequestMillis requests that take at least this long are logged as slow
 * @param shutdownTimeout how long a graceful shutdown lets running requests finish
 * @param queryMemory the budgets of query state: the server's, a database's, a connection's
 * @param hashCacheMaxBytes all connections' broadcast hash caches together
 * @param databasePolicy who may create databases, the administrators, how many databases may be
 *     open and when an idle one closes
 * @param tlsCertificate PEM certificate chain; TLS is on when present
 * @param tlsKey PEM private key (PKCS#8), present exactly when the certificate is
 * @param tlsKeyPassword the key's password, when it is encrypted
 * @param users {@code user.NAME} keys and their password hashes; authentication is on when any
 * @param storeSettings {@code cairn.*} settings of every durable database (see {@link StoreConfig})
 */
public record ServerConfig(
    String host,
    int port,
    String httpHost,
    int httpPort,
    Optional<Path> data,
    int maxFrameBytes,
    int workerThreads,
    int queueSize,
    int maxInFlight,
    ConnectionConfig connections,
    int pageMaxRows,
    int pageMaxBytes,
    int pageMaxMillis,
    Duration scannerIdleTimeout,
    int maxSnapshotsPerConnection,
    long slowRequestMillis,
    Duration shutdownTimeout,
    QueryMemoryConfig queryMemory,
    long hashCacheMaxBytes,
    DatabasePolicy databasePolicy,
    Optional<Path> tlsCertificate,
    Optional<Path> tlsKey,
    Optional<String> tlsKeyPassword,
    Map<String, String> users,
    Map<String, String> storeSettings) {

  public static final String HOST = "host";
  public static final String PORT = "port";
  public static final String HTTP_HOST = "http.host";
  public static final String HTTP_PORT = "http.port";
  public static final String DATA = "data";
  public static final String MEM = "mem";
  public static final String MAX_FRAME_BYTES = "max-frame-bytes";
  public static final String WORKER_THREADS = "worker-threads";
  public static final String QUEUE_SIZE = "queue-size";
  public static final String MAX_IN_FLIGHT = "max-in-flight";
  public static final String PAGE_MAX_ROWS = "page.max-rows";
  public static final String PAGE_MAX_BYTES = "page.max-bytes";
  public static final String PAGE_MAX_MILLIS = "page.max-millis";
  public static final String SCANNER_IDLE_TIMEOUT = "scanner-idle-timeout";
  public static final String MAX_SNAPSHOTS_PER_CONNECTION = "max-snapshots-per-connection";
  public static final String SLOW_REQUEST_MILLIS = "slow-request-millis";
  public static final String SHUTDOWN_TIMEOUT = "shutdown-timeout";
  // query memory budgets (QueryMemoryConfig)
  public static final String QUERY_MEMORY_MAX_BYTES = "query-memory.max-bytes";
  public static final String QUERY_MEMORY_DATABASE_MAX_BYTES = "query-memory.database-max-bytes";
  public static final String QUERY_MEMORY_CONNECTION_MAX_BYTES =
      "query-memory.connection-max-bytes";
  public static final String QUERY_MEMORY_WAIT = "query-memory.wait";
  public static final String HASH_CACHE_MAX_BYTES = "hash-cache.max-bytes";

  // databases and privileges (see DatabasePolicy)
  public static final String ADMINS = "admins";
  public static final String CREATE_DATABASES = "create-databases";
  public static final String MAX_DATABASES = "max-databases";
  public static final String DATABASE_IDLE_TIMEOUT = "database-idle-timeout";

  public static final String TLS_CERTIFICATE = "tls.certificate";
  public static final String TLS_KEY = "tls.key";
  public static final String TLS_KEY_PASSWORD = "tls.key-password";

  /** Prefix of the users' keys: {@code user.NAME=HASH} (see {@link Users}). */
  public static final String USER_PREFIX = Users.PREFIX;

  /** Prefix of the stores' settings, handed to every durable database. */
  public static final String STORE_PREFIX = "cairn.";

  public static final int DEFAULT_PORT = io.cairn.protocol.wire.ServerPort.DEFAULT;
  public static final int DEFAULT_HTTP_PORT = 7576;

  private static final Set<String> KEYS =
      Set.of(
          HOST,
          PORT,
          HTTP_HOST,
          HTTP_PORT,
          DATA,
          MEM,
          MAX_FRAME_BYTES,
          WORKER_THREADS,
          QUEUE_SIZE,
          MAX_IN_FLIGHT,
          PAGE_MAX_ROWS,
          PAGE_MAX_BYTES,
          PAGE_MAX_MILLIS,
          SCANNER_IDLE_TIMEOUT,
          MAX_SNAPSHOTS_PER_CONNECTION,
          SLOW_REQUEST_MILLIS,
          SHUTDOWN_TIMEOUT,
          QUERY_MEMORY_MAX_BYTES,
          QUERY_MEMORY_DATABASE_MAX_BYTES,
          QUERY_MEMORY_CONNECTION_MAX_BYTES,
          QUERY_MEMORY_WAIT,
          HASH_CACHE_MAX_BYTES,
          ADMINS,
          CREATE_DATABASES,
          MAX_DATABASES,
          DATABASE_IDLE_TIMEOUT,
          TLS_CERTIFICATE,
          TLS_KEY,
          TLS_KEY_PASSWORD);

  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

  public ServerConfig {
    requireNonNull(host, "host is null");
    requireNonNull(httpHost, "httpHost is null");
    requireNonNull(data, "data is null");
    requireNonNull(scannerIdleTimeout, "scannerIdleTimeout is null");
    requireNonNull(queryMemory, "queryMemory is null");
    requireNonNull(shutdownTimeout, "shutdownTimeout is null");
    requireNonNull(databasePolicy, "databasePolicy is null");
    requireNonNull(tlsCertificate, "tlsCertificate is null");
    requireNonNull(tlsKey, "tlsKey is null");
    requireNonNull(tlsKeyPassword, "tlsKeyPassword is null");
    users = Collections.unmodifiableMap(new TreeMap<>(users));
    storeSettings = Collections.unmodifiableMap(new TreeMap<>(storeSettings));
  }

  /** Every default: in memory, on 127.0.0.1:7575. */
  public static ServerConfig defaults() {
    return from(Map.of());
  }

  /**
   * The defaults overridden by {@code properties}.
   *
   * @throws CairnException INVALID_ARGUMENT naming an unknown key or a bad value
   */
  public static ServerConfig from(Map<String, String> properties) {
    Map<String, String> users = new TreeMap<>();
    Map<String, String> store = new TreeMap<>();
    for (Map.Entry<String, String> e : properties.entrySet()) {
      String key = e.getKey();
      if (key.startsWith(USER_PREFIX)) {
        if (key.length() == USER_PREFIX.length()) {
          throw invalid(key, "user.NAME with a user name", key);
        }
        users.put(key, e.getValue().trim());
      } else if (key.startsWith(STORE_PREFIX)) {
        store.put(key, e.getValue());
      } else if (!KEYS.contains(key) && !ConnectionConfig.KEYS.contains(key)) {
        throw new CairnException(
            ErrorCode.INVALID_ARGUMENT,
            "Unknown server setting ["
                + key
                + "]: expected one of "
                + new TreeSet<>(allKeys())
                + ", user.NAME or cairn.*");
      }
    }
    // the store settings and the users fail here, at start, not when first used
    StoreConfig.from(store);
    try {
      Users.fromProperties(users);
    } catch (IllegalArgumentException e) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT, "Invalid server setting: " + e.getMessage(), e);
    }

    Optional<Path> data = path(properties, DATA);
    boolean mem = bool(properties, MEM, data.isEmpty());
    if (mem && data.isPresent()) {
      throw invalid(MEM, "false when " + DATA + " is set (one or the other)", "true");
    }
    if (!mem && data.isEmpty()) {
      throw invalid(DATA, "a directory when " + MEM + " is false", "");
    }
    int maxFrame = (int) size(properties, MAX_FRAME_BYTES, 16L << 20, 4096, 1L << 30);
    int pageBytes =
        (int) size(properties, PAGE_MAX_BYTES, Math.min(1L << 20, maxFrame / 2), 1, maxFrame / 2);
    Optional<Path> certificate = path(properties, TLS_CERTIFICATE);
    Optional<Path> key = path(properties, TLS_KEY);
    if (certificate.isPresent() != key.isPresent()) {
      String missing = certificate.isPresent() ? TLS_KEY : TLS_CERTIFICATE;
      throw invalid(
          missing, "a file, since " + TLS_CERTIFICATE + " and " + TLS_KEY + " go together", "");
    }
    Optional<String> password = Optional.ofNullable(properties.get(TLS_KEY_PASSWORD));
    if (password.isPresent() && key.isEmpty()) {
      throw invalid(TLS_KEY, "a file when " + TLS_KEY_PASSWORD + " is set", "");
    }
    int cores = Runtime.getRuntime().availableProcessors();
    return new ServerConfig(
        host(properties, HOST),
        (int) number(properties, PORT, DEFAULT_PORT, 0, 65535),
        host(properties, HTTP_HOST),
        (int) number(properties, HTTP_PORT, DEFAULT_HTTP_PORT, -1, 65535),
        data,
        maxFrame,
        (int) number(properties, WORKER_THREADS, Math.max(4, 2 * cores), 1, 4096),
        (int) number(properties, QUEUE_SIZE, 1024, 1, 1 << 20),
        (int) number(properties, MAX_IN_FLIGHT, 128, 1, 1 << 16),
        ConnectionConfig.from(properties),
        (int) number(properties, PAGE_MAX_ROWS, 4096, 1, Integer.MAX_VALUE),
        pageBytes,
        (int) number(properties, PAGE_MAX_MILLIS, 1000, 1, 3_600_000),
        duration(properties, SCANNER_IDLE_TIMEOUT, Duration.ofMinutes(10), Duration.ofMillis(1)),
        (int) number(properties, MAX_SNAPSHOTS_PER_CONNECTION, 1024, 1, 1 << 20),
        number(properties, SLOW_REQUEST_MILLIS, 1000, 0, Long.MAX_VALUE),
        duration(properties, SHUTDOWN_TIMEOUT, Duration.ofSeconds(30), Duration.ZERO),
        queryMemory(properties),
        size(properties, HASH_CACHE_MAX_BYTES, 256L << 20, 0, Long.MAX_VALUE),
        databasePolicy(properties, users),
        certificate,
        key,
        password,
        users,
        store);
  }

  /**
   * The query-memory.* budgets: the server's (default {@value QueryMemoryConfig#HEAP_PERCENT}% of
   * the heap), a database's (default the server's), a connection's (default the database's) and the
   * wait at them (default 1 s).
   */
  private static QueryMemoryConfig queryMemory(Map<String, String> properties) {
    long server =
        size(
            properties,
            QUERY_MEMORY_MAX_BYTES,
            QueryMemoryConfig.defaultMaxBytes(),
            1024,
            1L << 50);
    long database = size(properties, QUERY_MEMORY_DATABASE_MAX_BYTES, server, 1024, 1L << 50);
    long connection = size(properties, QUERY_MEMORY_CONNECTION_MAX_BYTES, database, 1024, 1L << 50);
    Duration wait =
        duration(properties, QUERY_MEMORY_WAIT, QueryMemoryConfig.DEFAULT_WAIT, Duration.ZERO);
    return new QueryMemoryConfig(server, database, connection, wait);
  }

  /** True when every database lives in memory (nothing is kept when the server stops). */
  public boolean inMemory() {
    return data.isEmpty();
  }

  /** True when the configuration names users: every connection must then authenticate. */
  public boolean authenticationRequired() {
    return !users.isEmpty();
  }

  public boolean tls() {
    return tlsCertificate.isPresent();
  }

  /** This configuration with {@code port} (tests and {@code --port 0} use it). */
  public ServerConfig withPort(int port) {
    return new ServerConfig(
        host,
        port,
        httpHost,
        httpPort,
        data,
        maxFrameBytes,
        workerThreads,
        queueSize,
        maxInFlight,
        connections,
        pageMaxRows,
        pageMaxBytes,
        pageMaxMillis,
        scannerIdleTimeout,
        maxSnapshotsPerConnection,
        slowRequestMillis,
        shutdownTimeout,
        queryMemory,
        hashCacheMaxBytes,
        databasePolicy,
        tlsCertificate,
        tlsKey,
        tlsKeyPassword,
        users,
        storeSettings);
  }

  /** Never prints the key's password. */
  @Override
  public String toString() {
    return "ServerConfig[host="
        + host
        + ", port="
        + port
        + ", http="
        + httpHost
        + ":"
        + httpPort
        + ", data="
        + data.map(Path::toString).orElse("(in memory)")
        + ", maxFrameBytes="
        + maxFrameBytes
        + ", workerThreads="
        + workerThreads
        + ", queueSize="
        + queueSize
        + ", maxInFlight="
        + maxInFlight
        + ", connections="
        + connections
        + ", page="
        + pageMaxRows
        + " rows/"
        + pageMaxBytes
        + " bytes/"
        + pageMaxMillis
        + " ms, scannerIdleTimeout="
        + scannerIdleTimeout
        + ", maxSnapshotsPerConnection="
        + maxSnapshotsPerConnection
        + ", slowRequestMillis="
        + slowRequestMillis
        + ", shutdownTimeout="
        + shutdownTimeout
        + ", queryMemory="
        + queryMemory
        + ", hashCacheMaxBytes="
        + hashCacheMaxBytes
        + ", "
        + databasePolicy
        + ", tls="
        + tls()
        + ", users="
        + users.keySet()
        + ", storeSettings="
        + storeSettings
        + "]";
  }

  // --- parsing ---------------------------------------------------------------------------------

  private static CairnException invalid(String key, String expected, String found) {
    return new CairnException(
        ErrorCode.INVALID_ARGUMENT,
        "Invalid server setting " + key + ": expected " + expected + ", found [" + found + "]");
  }

  /**
   * The databases' settings: {@code create-databases} is {@code any} without users (the anonymous
   * quick start) and {@code admin} with users; {@code admins} must name configured users.
   */
  private static DatabasePolicy databasePolicy(
      Map<String, String> properties, Map<String, String> users) {
    Set<String> admins = new TreeSet<>();
    String adminText = properties.getOrDefault(ADMINS, "");
    for (String name : adminText.split(",", -1)) {
      String admin = name.strip();
      if (admin.isEmpty()) {
        if (!adminText.isBlank()) {
          throw invalid(ADMINS, "a comma-separated list of user names", adminText);
        }
        continue;
      }
      if (!users.containsKey(USER_PREFIX + admin)) {
        throw new CairnException(
            ErrorCode.INVALID_ARGUMENT,
            "Invalid server setting "
                + ADMINS
                + ": expected names of configured users (a "
                + USER_PREFIX
                + "NAME entry each), found ["
                + admin
                + "] without a "
                + USER_PREFIX
                + admin
                + " entry");
      }
      admins.add(admin);
    }
    DatabasePolicy.CreateRule fallback =
        users.isEmpty() ? DatabasePolicy.CreateRule.ANY : DatabasePolicy.CreateRule.ADMIN;
    DatabasePolicy.CreateRule create = fallback;
    String createText = properties.get(CREATE_DATABASES);
    if (createText != null) {
      create =
          switch (createText.strip().toLowerCase(Locale.ROOT)) {
            case "admin" -> DatabasePolicy.CreateRule.ADMIN;
            case "any" -> DatabasePolicy.CreateRule.ANY;
            case "none" -> DatabasePolicy.CreateRule.NONE;
            default -> throw invalid(CREATE_DATABASES, "admin, any or none", createText);
          };
    }
    String idleText = properties.get(DATABASE_IDLE_TIMEOUT);
    Duration idle =
        idleText != null && idleText.strip().equals("0")
            ? Duration.ZERO
            : duration(properties, DATABASE_IDLE_TIMEOUT, Duration.ofMinutes(10), Duration.ZERO);
    return new DatabasePolicy(
        create, admins, (int) number(properties, MAX_DATABASES, 64, 1, 1 << 20), idle);
  }

  private static String host(Map<String, String> properties, String key) {
    String text = properties.get(key);
    if (text == null) {
      return "127.0.0.1";
    }
    String host = text.trim();
    if (host.isEmpty() || host.chars().anyMatch(Character::isWhitespace)) {
      throw invalid(key, "a host name or IP address (0.0.0.0: every interface)", text);
    }
    return host;
  }

  private static Set<String> allKeys() {
    Set<String> all = new TreeSet<>(KEYS);
    all.addAll(ConnectionConfig.KEYS);
    return all;
  }

  static long number(
      Map<String, String> properties, String key, long fallback, long min, long max) {
    String text = properties.get(key);
    if (text == null) {
      return fallback;
    }
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(key, "a whole number in [" + min + ", " + max + "]", text);
    }
    if (value < min || value > max) {
      throw invalid(key, "a whole number in [" + min + ", " + max + "]", text);
    }
    return value;
  }

  static long size(Map<String, String> properties, String key, long fallback, long min, long max) {
    long value;
    try {
      value = Settings.size(properties, key, fallback, min);
    } catch (CairnException e) {
      throw invalid(
          key,
          "a whole number of bytes, optionally with k, m or g, in [" + min + ", " + max + "]",
          properties.get(key));
    }
    if (value > max) {
      throw invalid(
          key,
          "at most ["
              + max
              + "] bytes"
              + (key.equals(PAGE_MAX_BYTES) ? " (half of " + MAX_FRAME_BYTES + ")" : ""),
          properties.get(key));
    }
    return value;
  }

  private static boolean bool(Map<String, String> properties, String key, boolean fallback) {
    String text = properties.get(key);
    if (text == null) {
      return fallback;
    }
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(key, "true or false", text);
    };
  }

  static Duration duration(
      Map<String, String> properties, String key, Duration fallback, Duration min) {
    String text = properties.get(key);
    if (text == null) {
      return fallback;
    }
    if (min.isZero() && text.trim().equals("0")) {
      return Duration.ZERO;
    }
    String expected = "a duration such as 500ms, 30s, 10m or 1h, at least " + min.toMillis() + "ms";
    Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw invalid(key, expected, text);
    }
    Duration d;
    try {
      long amount = Long.parseLong(m.group(1));
      d =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
          };
      if (d.toMillis() < 0) {
        throw invalid(key, expected, text);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      throw invalid(key, expected, text);
    }
    if (d.compareTo(min) < 0) {
      throw invalid(key, expected, text);
    }
    return d;
  }

  private static Optional<Path> path(Map<String, String> properties, String key) {
    String text = properties.get(key);
    if (text == null) {
      return Optional.empty();
    }
    if (text.isBlank()) {
      throw invalid(key, "a path", text);
    }
    try {
      return Optional.of(Path.of(text.trim()).toAbsolutePath().normalize());
    } catch (InvalidPathException e) {
      throw invalid(key, "a path", text);
    }
  }
}
