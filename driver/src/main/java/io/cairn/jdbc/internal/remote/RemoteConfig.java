package io.cairn.jdbc.internal.remote;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.jdbc.internal.ConnectionUrl.ServerAddress;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How to reach one Cairn server, read from a {@code jdbc:cairn://HOST:PORT[/DATABASE]} URL and its
 * connection properties. JDBC connections with equal configs share one network connection, so the
 * password takes part in equality (a wrong one never rides on a connection another user
 * authenticated) but never in {@link #toString()}.
 *
 * <table>
 *   <caption>Connection properties</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code user}</td><td>none (anonymous)</td><td>user name on the server</td></tr>
 *   <tr><td>{@code password}</td><td>none</td><td>the user's password</td></tr>
 *   <tr><td>{@code tls}</td><td>{@code false}</td><td>{@code true}: TLS</td></tr>
 *   <tr><td>{@code tlsTrustCertificate}</td><td>the JVM's trust store</td>
 *       <td>PEM file of the certificates to trust</td></tr>
 *   <tr><td>{@code connectTimeout}</td><td>10 s</td>
 *       <td>connection and handshake; milliseconds or a number with unit ms, s, m</td></tr>
 *   <tr><td>{@code requestTimeout}</td><td>60 s</td>
 *       <td>answer to one request (one scan page, not a whole scan)</td></tr>
 * </table>
 */
public record RemoteConfig(
    ServerAddress address,
    String user,
    String password,
    boolean tls,
    Optional<Path> tlsTrustCertificate,
    Duration connectTimeout,
    Duration requestTimeout) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private static final Pattern DURATION =
      Pattern.compile("([0-9]{1,12})\\s*(ms|s|m)?", Pattern.CASE_INSENSITIVE);

  public RemoteConfig {
    requireNonNull(address, "address is null");
    requireNonNull(user, "user is null");
    requireNonNull(password, "password is null");
    requireNonNull(tlsTrustCertificate, "tlsTrustCertificate is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(requestTimeout, "requestTimeout is null");
    if (connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException("connectTimeout must be positive: " + connectTimeout);
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
    }
  }

  /** The defaults for a server: anonymous, no TLS, 10 s to connect, 60 s per request. */
  public static RemoteConfig of(ServerAddress address) {
    return new RemoteConfig(
        address, "", "", false, Optional.empty(), DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT);
  }

  /**
   * The config of a store name {@code //host:port[/database]} and connection properties (their
   * canonical names, see {@link ConnectionUrl#mergedProperties}).
   *
   * @throws CairnException INVALID_URL naming the property and the value expected
   */
  public static RemoteConfig from(String storeName, Properties info) {
    ServerAddress address;
    try {
      address = ConnectionUrl.serverAddress(storeName);
    } catch (SQLException e) {
      throw new CairnException(ErrorCode.INVALID_URL, e.getMessage(), e);
    }
    Properties p = info == null ? new Properties() : info;
    boolean tls = bool(p, ConnectionUrl.TLS);
    Optional<Path> trust =
        Optional.ofNullable(p.getProperty(ConnectionUrl.TLS_TRUST_CERTIFICATE))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .map(RemoteConfig::path);
    if (trust.isPresent() && !tls) {
      throw invalid(
          ConnectionUrl.TLS_TRUST_CERTIFICATE,
          trust.get().toString(),
          "it only applies with " + ConnectionUrl.TLS + "=true");
    }
    return new RemoteConfig(
        address,
        p.getProperty(ConnectionUrl.USER, ""),
        p.getProperty(ConnectionUrl.PASSWORD, ""),
        tls,
        trust,
        duration(p, ConnectionUrl.CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT),
        duration(p, ConnectionUrl.REQUEST_TIMEOUT, DEFAULT_REQUEST_TIMEOUT));
  }

  /** {@code host:port}, as messages name the server. */
  public String server() {
    return address.hostAndPort();
  }

  private static boolean bool(Properties p, String name) {
    String value = p.getProperty(name);
    if (value == null || value.isBlank()) {
      return false;
    }
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(name, value, "expected true or false");
    };
  }

  private static Path path(String value) {
    try {
      return Path.of(value).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw invalid(ConnectionUrl.TLS_TRUST_CERTIFICATE, value, "expected a file path");
    }
  }

  /** Milliseconds, or a number with unit ms, s or m; positive. */
  static Duration duration(Properties p, String name, Duration defaultValue) {
    String value = p.getProperty(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    Matcher m = DURATION.matcher(value.strip());
    if (!m.matches()) {
      throw invalid(name, value, "expected milliseconds or a number with unit ms, s or m");
    }
    long amount = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
    Duration d =
        switch (unit) {
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          default -> Duration.ofMillis(amount);
        };
    if (d.isZero()) {
      throw invalid(name, value, "expected a positive duration");
    }
    return d;
  }

  private static CairnException invalid(String name, String value, String expected) {
    return new CairnException(
        ErrorCode.INVALID_URL,
        "Invalid value for connection property ["
            + name
            + "]: "
            + expected
            + ", found ["
            + value
            + "]");
  }

  @Override
  public String toString() {
    return "RemoteConfig["
        + address.storeName()
        + (user.isEmpty() ? "" : ", user=" + user)
        + (password.isEmpty() ? "" : ", password=***")
        + (tls ? ", tls" : "")
        + tlsTrustCertificate.map(t -> ", trust=" + t).orElse("")
        + ", connectTimeout="
        + connectTimeout.toMillis()
        + "ms, requestTimeout="
        + requestTimeout.toMillis()
        + "ms]";
  }
}
