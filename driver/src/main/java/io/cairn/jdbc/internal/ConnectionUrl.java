package io.cairn.jdbc.internal;

import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.exec.DriverMemory;
import io.cairn.jdbc.internal.exec.ExecContext;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Cairn JDBC URLs:
 *
 * <ul>
 *   <li>{@code jdbc:cairn:mem:NAME}: embedded, in memory;
 *   <li>{@code jdbc:cairn:file:DIR}: embedded, durable (DIR absolute or relative to the working
 *       directory, no {@code ~} expansion);
 *   <li>{@code jdbc:cairn://HOST[:PORT][/DATABASE]}: a Cairn server (HOST a name, an IPv4 address
 *       or an IPv6 address in brackets; without PORT, the server's default port {@value
 *       #DEFAULT_PORT}; without DATABASE, the server's default database).
 * </ul>
 *
 * <p>Each form may end in connection properties, {@code ;name=value} each (as in H2 and Phoenix),
 * which take precedence over the same properties passed to {@code connect}; names are matched
 * ignoring case. Every URL takes {@value #DURABILITY}, {@value #PARALLELISM}, {@value
 * #AGGREGATE_MAX_BYTES} and {@value #QUERY_MEMORY_MAX_BYTES}; embedded URLs take store settings
 * starting with {@value #STORE_SETTING_PREFIX}; server URLs take {@value #USER}, {@value
 * #PASSWORD}, {@value #TLS}, {@value #TLS_TRUST_CERTIFICATE}, {@value #CONNECT_TIMEOUT} and {@value
 * #REQUEST_TIMEOUT}. A DIR therefore cannot contain {@code ;}.
 */
public final class ConnectionUrl {
  /** Connection property: durability of this connection's writes (SKIP, ASYNC, SYNC, FSYNC). */
  public static final String DURABILITY = "durability";

  /**
   * Connection property: the memory (bytes, optionally with k, m or g) that one grouped aggregation
   * in the driver may use (see docs/configuration.md).
   */
  public static final String AGGREGATE_MAX_BYTES = ExecContext.AGGREGATE_MAX_BYTES_PROPERTY;

  /** The build side of a join probed in the store past which it is probed in the driver. */
  public static final String HASH_JOIN_MAX_BYTES = ExecContext.HASH_JOIN_MAX_BYTES_PROPERTY;

  /**
   * Connection property: whether a prepared statement run again reuses its joins' build sides
   * (true, the default; false: every execution builds and ships its own; see docs/sql.md).
   */
  public static final String JOIN_BUILD_REUSE = "joinBuildReuse";

  /**
   * Connection property: the memory (bytes, optionally with k, m or g) that the state of one query
   * in the driver may use, its sorts, joins, aggregations, set operations and windows together
   * (default: no limit of its own, only the JVM-wide one; see docs/sql.md).
   */
  public static final String QUERY_MEMORY_MAX_BYTES = DriverMemory.QUERY_PROPERTY;

  /**
   * Connection property: how many chunks of one table scan run at once (a positive integer;
   * default: the processors available to the JVM).
   */
  public static final String PARALLELISM = "parallelism";

  /** Prefix of store settings, passed to the store when it opens. */
  public static final String STORE_SETTING_PREFIX = "cairn.";

  /** Server connection property: the user name (absent: anonymous). */
  public static final String USER = "user";

  /** Server connection property: the user's password. */
  public static final String PASSWORD = "password";

  /** Server connection property: {@code true} to connect over TLS. */
  public static final String TLS = "tls";

  /** Server connection property: a PEM file of the certificates to trust (TLS). */
  public static final String TLS_TRUST_CERTIFICATE = "tlsTrustCertificate";

  /** Server connection property: how long to wait for the connection and handshake. */
  public static final String CONNECT_TIMEOUT = "connectTimeout";

  /** Server connection property: how long to wait for the answer to one request. */
  public static final String REQUEST_TIMEOUT = "requestTimeout";

  /** The properties of server URLs besides {@value #DURABILITY}, as spelled canonically. */
  public static final List<String> SERVER_PROPERTIES =
      List.of(USER, PASSWORD, TLS, TLS_TRUST_CERTIFICATE, CONNECT_TIMEOUT, REQUEST_TIMEOUT);

  /** The port of a server URL that names none: the server's default (ServerConfig). */
  public static final int DEFAULT_PORT = io.cairn.protocol.wire.ServerPort.DEFAULT;

  /** What follows {@code jdbc:cairn:} in a server URL. */
  public static final String SERVER_PREFIX = "//";

  /** What follows {@code jdbc:cairn:} in an HBase URL. */
  public static final String HBASE_PREFIX = "hbase:";

  /**
   * Prefixes of the settings an HBase URL passes to HBase's client ({@code
   * hbase.client.retries.number}, {@code zookeeper.session.timeout}, ...).
   */
  public static final List<String> HBASE_SETTING_PREFIXES = List.of("hbase.", "zookeeper.");

  static final String FORMS =
      "expected jdbc:cairn:mem:NAME (NAME of letters, digits, '_', '-', '.'),"
          + " jdbc:cairn:file:DIR, jdbc:cairn://HOST[:PORT][/DATABASE] or"
          + " jdbc:cairn:hbase:QUORUM[:PORT][/ZNODE], optionally followed by"
          + " ;name=value properties ("
          + DURABILITY
          + ", "
          + AGGREGATE_MAX_BYTES
          + ", "
          + QUERY_MEMORY_MAX_BYTES
          + ", "
          + STORE_SETTING_PREFIX
          + "* for embedded stores; "
          + String.join(", ", SERVER_PROPERTIES)
          + " for servers)";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");

  /** QUORUM[:PORT][/ZNODE] of an HBase URL: hosts (names or IPv4) separated by commas. */
  private static final Pattern HBASE =
      Pattern.compile(
          "[A-Za-z0-9_.\\-]+(?:,[A-Za-z0-9_.\\-]+)*(?::[0-9]{1,5})?(?:/[A-Za-z0-9_.\\-/]*)?");

  /** //HOST:PORT[/DATABASE]: HOST a name, IPv4 address or bracketed IPv6 address. */
  private static final Pattern SERVER =
      Pattern.compile(
          "//(?<host>\\[[0-9A-Fa-f:.%\\w]+\\]|[A-Za-z0-9_.\\-]+)(?::(?<port>[0-9]{1,5}))?"
              + "(?:/(?<database>[^/]*))?");

  /** Where a server URL points. {@code database} is empty for the server's default database. */
  public record ServerAddress(String host, int port, String database) {
    public ServerAddress {
      java.util.Objects.requireNonNull(host, "host is null");
      java.util.Objects.requireNonNull(database, "database is null");
    }

    /** {@code host:port}, as error messages name the server. */
    public String hostAndPort() {
      return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The store name of this address: {@code //host:port[/database]}. */
    public String storeName() {
      return SERVER_PREFIX + hostAndPort() + (database.isEmpty() ? "" : "/" + database);
    }
  }

  private ConnectionUrl() {}

  public static boolean accepts(String url) {
    return url.startsWith(DriverInfo.URL_PREFIX);
  }

  /** Whether an accepted URL names a server ({@code jdbc:cairn://...}). */
  public static boolean isServerUrl(String url) {
    return url.startsWith(DriverInfo.URL_PREFIX + SERVER_PREFIX);
  }

  /**
   * The store to open for an accepted URL, without its properties: {@code mem:NAME}, {@code
   * file:DIR} (DIR as written) or {@code //host:port[/database]}.
   */
  public static String storeName(String url) throws SQLException {
    String rest = withoutProperties(url).substring(DriverInfo.URL_PREFIX.length());
    if (rest.startsWith("mem:")) {
      String name = rest.substring("mem:".length());
      if (NAME.matcher(name).matches()) {
        return rest;
      }
      throw JdbcErrors.error(
          ErrorCode.INVALID_URL,
          "Invalid Cairn URL ["
              + url
              + "]: the store NAME must be non-empty letters, digits, '_', '-', '.'; "
              + FORMS);
    }
    if (rest.startsWith("file:")) {
      String dir = rest.substring("file:".length());
      if (dir.isBlank()) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_URL,
            "Invalid Cairn URL [" + url + "]: the store directory DIR is empty; " + FORMS);
      }
      return rest;
    }
    if (rest.startsWith(SERVER_PREFIX)) {
      return serverAddress(rest, redact(url)).storeName();
    }
    if (rest.startsWith(HBASE_PREFIX)) {
      if (!HBASE.matcher(rest.substring(HBASE_PREFIX.length())).matches()) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_URL,
            "Invalid Cairn URL ["
                + redact(url)
                + "]: expected jdbc:cairn:hbase:QUORUM[:PORT][/ZNODE] (QUORUM one or more"
                + " ZooKeeper hosts separated by ',', PORT their client port, ZNODE HBase's parent"
                + " znode); "
                + FORMS);
      }
      return rest;
    }
    throw JdbcErrors.error(
        ErrorCode.INVALID_URL, "Invalid Cairn URL [" + redact(url) + "]: " + FORMS);
  }

  /**
   * The server a store name of the form {@code //host:port[/database]} points to.
   *
   * @throws SQLException INVALID_URL when it is not of that form
   */
  public static ServerAddress serverAddress(String storeName) throws SQLException {
    return serverAddress(storeName, DriverInfo.URL_PREFIX + storeName);
  }

  private static ServerAddress serverAddress(String rest, String url) throws SQLException {
    Matcher m = SERVER.matcher(rest);
    if (!m.matches()) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_URL,
          "Invalid Cairn URL ["
              + url
              + "]: expected jdbc:cairn://HOST[:PORT][/DATABASE] (HOST a name, an IPv4 address or"
              + " an IPv6 address in brackets, PORT a number, default "
              + DEFAULT_PORT
              + "); "
              + FORMS);
    }
    String host = m.group("host");
    if (host.startsWith("[")) {
      host = host.substring(1, host.length() - 1);
    }
    int port = m.group("port") == null ? DEFAULT_PORT : Integer.parseInt(m.group("port"));
    if (port < 1 || port > 65535) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_URL,
          "Invalid Cairn URL [" + url + "]: expected a PORT in [1, 65535], found [" + port + "]");
    }
    String database = m.group("database") == null ? "" : m.group("database");
    if (!database.isEmpty() && !NAME.matcher(database).matches()) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_URL,
          "Invalid Cairn URL ["
              + url
              + "]: the DATABASE must be letters, digits, '_', '-', '.', found ["
              + database
              + "]; "
              + FORMS);
    }
    return new ServerAddress(host, port, database);
  }

  /**
   * The connection properties written in the URL ({@code ;name=value} after the store), in order,
   * under their canonical names. Names are checked: {@value #DURABILITY} and {@value #PARALLELISM}
   * for every URL, {@value #STORE_SETTING_PREFIX}* for embedded ones, {@link #SERVER_PROPERTIES}
   * for server ones (any case).
   */
  public static Map<String, String> properties(String url) throws SQLException {
    Map<String, String> properties = new LinkedHashMap<>();
    int start = url.indexOf(';');
    if (start < 0) {
      return properties;
    }
    boolean server = isServerUrl(url);
    boolean hbase = url.startsWith(DriverInfo.URL_PREFIX + HBASE_PREFIX);
    for (String part : url.substring(start + 1).split(";", -1)) {
      int eq = part.indexOf('=');
      String name = eq < 0 ? part.strip() : part.substring(0, eq).strip();
      if (eq < 0 || name.isEmpty()) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_URL,
            "Invalid Cairn URL ["
                + redact(url)
                + "]: expected ;name=value properties after the store, found ["
                + (name.equalsIgnoreCase(PASSWORD) ? PASSWORD : part)
                + "]; "
                + FORMS);
      }
      String canonical = canonicalName(name);
      boolean known =
          canonical.equals(DURABILITY)
              || canonical.equals(PARALLELISM)
              || canonical.equals(AGGREGATE_MAX_BYTES)
              || canonical.equals(HASH_JOIN_MAX_BYTES)
              || canonical.equals(QUERY_MEMORY_MAX_BYTES)
              || canonical.equals(JOIN_BUILD_REUSE)
              || (server
                  ? SERVER_PROPERTIES.contains(canonical)
                  : canonical.startsWith(STORE_SETTING_PREFIX)
                      || (hbase && isHBaseSetting(canonical)));
      if (!known) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_URL,
            "Unknown property ["
                + name
                + "] in Cairn URL ["
                + redact(url)
                + "]: expected "
                + DURABILITY
                + ", "
                + PARALLELISM
                + ", "
                + AGGREGATE_MAX_BYTES
                + ", "
                + HASH_JOIN_MAX_BYTES
                + ", "
                + QUERY_MEMORY_MAX_BYTES
                + ", "
                + JOIN_BUILD_REUSE
                + (server
                    ? ", " + String.join(", ", SERVER_PROPERTIES)
                    : hbase
                        ? ", " + STORE_SETTING_PREFIX + "*, hbase.* or zookeeper.*"
                        : " or " + STORE_SETTING_PREFIX + "*")
                + "; "
                + FORMS);
      }
      properties.put(canonical, part.substring(eq + 1).strip());
    }
    return properties;
  }

  /** Whether {@code name} is a setting an HBase URL hands to HBase's client. */
  public static boolean isHBaseSetting(String name) {
    for (String prefix : HBASE_SETTING_PREFIXES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** {@code info} (may be null) with the URL's own properties on top, under canonical names. */
  public static Properties mergedProperties(String url, Properties info) throws SQLException {
    Properties merged = new Properties();
    if (info != null) {
      // A differently cased "Durability" or "ConnectTimeout" passed as a property means the same.
      for (String name : info.stringPropertyNames()) {
        String canonical = canonicalName(name);
        if (canonical.equals(name) || !info.containsKey(canonical)) {
          merged.setProperty(canonical, info.getProperty(name));
        }
      }
    }
    for (Map.Entry<String, String> e : properties(url).entrySet()) {
      merged.setProperty(e.getKey(), e.getValue());
    }
    return merged;
  }

  /** The URL with the value of a {@value #PASSWORD} property in it replaced by {@code ***}. */
  public static String redact(String url) {
    int start = url.indexOf(';');
    if (start < 0) {
      return url;
    }
    StringBuilder b = new StringBuilder(url.substring(0, start));
    for (String part : url.substring(start + 1).split(";", -1)) {
      int eq = part.indexOf('=');
      b.append(';');
      if (eq >= 0 && part.substring(0, eq).strip().equalsIgnoreCase(PASSWORD)) {
        b.append(part, 0, eq + 1).append("***");
      } else {
        b.append(part);
      }
    }
    return b.toString();
  }

  /** The canonical spelling of a known property name; other names as given. */
  private static String canonicalName(String name) {
    if (name.equalsIgnoreCase(DURABILITY)) {
      return DURABILITY;
    }
    if (name.equalsIgnoreCase(PARALLELISM)) {
      return PARALLELISM;
    }
    if (name.equalsIgnoreCase(AGGREGATE_MAX_BYTES)) {
      return AGGREGATE_MAX_BYTES;
    }
    if (name.equalsIgnoreCase(HASH_JOIN_MAX_BYTES)) {
      return HASH_JOIN_MAX_BYTES;
    }
    if (name.equalsIgnoreCase(QUERY_MEMORY_MAX_BYTES)) {
      return QUERY_MEMORY_MAX_BYTES;
    }
    if (name.equalsIgnoreCase(JOIN_BUILD_REUSE)) {
      return JOIN_BUILD_REUSE;
    }
    for (String known : SERVER_PROPERTIES) {
      if (name.equalsIgnoreCase(known)) {
        return known;
      }
    }
    return name;
  }

  private static String withoutProperties(String url) {
    int semicolon = url.indexOf(';');
    return semicolon < 0 ? url : url.substring(0, semicolon);
  }
}
