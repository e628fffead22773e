package io.cairn.jdbc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.CairnConnection;
import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.jdbc.internal.DriverInfo;
import io.cairn.jdbc.internal.JdbcErrors;
import io.cairn.jdbc.internal.engine.Session;
import io.cairn.jdbc.internal.engine.SessionFactory;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Cairn JDBC driver. URLs: {@code jdbc:cairn:mem:NAME} opens (or creates) an in-memory store in
 * this JVM; {@code jdbc:cairn:file:DIR} opens (or creates) a durable store in directory DIR, shared
 * by the connections of this JVM and closed when the last one closes; {@code
 * jdbc:cairn://HOST:PORT[/DATABASE]} connects to a Cairn server (connections of this JVM with the
 * same server, database, user and settings share one network connection). Any of them may end in
 * {@code ;name=value} connection properties: {@code durability} (SKIP, ASYNC, SYNC, FSYNC: how far
 * this connection's writes go before they are acknowledged); {@code parallelism} (how many chunks
 * of one table scan run at once; default: the processors); {@code cairn.*} store settings for
 * embedded stores; {@code user}, {@code password}, {@code tls}, {@code tlsTrustCertificate}, {@code
 * connectTimeout} and {@code requestTimeout} for servers (see {@link ConnectionUrl}).
 *
 * <p>The driver registers itself with {@link DriverManager} when the class loads and through {@code
 * META-INF/services/java.sql.Driver}.
 */
public final class CairnDriver implements Driver {
  private static final CairnDriver INSTANCE = new CairnDriver();

  static {
    try {
      DriverManager.registerDriver(INSTANCE);
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final SessionFactory sessionFactory;

  /**
   * The driver over the embedded and remote engines; what DriverManager and ServiceLoader create.
   */
  public CairnDriver() {
    this(Engines.all());
  }

  /** A driver over another engine: tests pass a hand-written fake. */
  CairnDriver(SessionFactory sessionFactory) {
    this.sessionFactory = requireNonNull(sessionFactory, "sessionFactory is null");
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    String storeName = ConnectionUrl.storeName(url);
    Properties properties = ConnectionUrl.mergedProperties(url, info);
    Session session;
    try {
      session = sessionFactory.open(storeName, properties);
    } catch (RuntimeException e) {
      throw JdbcErrors.toSqlException(e);
    }
    if (session == null) {
      throw JdbcErrors.error(
          ErrorCode.INTERNAL_ERROR, "The engine returned no session for [" + url + "]");
    }
    return new CairnConnection(session, ConnectionUrl.redact(url), properties);
  }

  @Override
  public boolean acceptsURL(String url) throws SQLException {
    if (url == null) {
      throw JdbcErrors.error(ErrorCode.INVALID_URL, "The URL is null");
    }
    return ConnectionUrl.accepts(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    Properties given = info == null ? new Properties() : info;
    boolean server = url != null && ConnectionUrl.isServerUrl(url);
    List<DriverPropertyInfo> properties = new ArrayList<>();
    properties.add(
        property(
            given,
            ConnectionUrl.USER,
            server
                ? "User name on the server; absent: anonymous (when the server allows it)"
                : "User name; embedded stores do not authenticate"));
    properties.add(
        property(
            given,
            ConnectionUrl.PASSWORD,
            server ? "The user's password" : "Password; embedded stores do not authenticate"));
    DriverPropertyInfo durability =
        property(
            given,
            ConnectionUrl.DURABILITY,
            "How far this connection's writes go before they are acknowledged; unset: each table's"
                + " DURABILITY option (default SYNC)");
    durability.choices = new String[] {"SKIP", "ASYNC", "SYNC", "FSYNC"};
    properties.add(durability);
    properties.add(
        property(
            given,
            ConnectionUrl.AGGREGATE_MAX_BYTES,
            "The memory one grouped aggregation in the driver may use (estimated) before it fails"
                + " with SQLState 53200; bytes, optionally with k, m or g (default 256m)"));
    properties.add(
        property(
            given,
            ConnectionUrl.QUERY_MEMORY_MAX_BYTES,
            "The memory one query's sorts, joins, aggregations, set operations and windows in the"
                + " driver may use together (estimated) before it fails with SQLState 53200;"
                + " bytes, optionally with k, m or g (default: only the JVM-wide limit, system"
                + " property cairn.driver.memoryMaxBytes, default half the heap)"));
    properties.add(
        property(
            given,
            ConnectionUrl.PARALLELISM,
            "How many chunks of one table scan run at once; a positive integer (default: the"
                + " processors available to the JVM)"));
    if (server) {
      DriverPropertyInfo tls =
          property(given, ConnectionUrl.TLS, "true: connect over TLS (default false)");
      tls.choices = new String[] {"false", "true"};
      properties.add(tls);
      properties.add(
          property(
              given,
              ConnectionUrl.TLS_TRUST_CERTIFICATE,
              "PEM file of the certificates to trust with tls=true; absent: the JVM's trust store"));
      properties.add(
          property(
              given,
              ConnectionUrl.CONNECT_TIMEOUT,
              "How long to wait for the server to accept the connection and its handshake;"
                  + " milliseconds, or a number with unit ms, s or m (default 10s)"));
      properties.add(
          property(
              given,
              ConnectionUrl.REQUEST_TIMEOUT,
              "How long to wait for the answer to one request (scans are paged, so a long scan"
                  + " never reaches it); milliseconds, or a number with unit ms, s or m (default"
                  + " 60s)"));
    }
    return properties.toArray(new DriverPropertyInfo[0]);
  }

  private static DriverPropertyInfo property(Properties given, String name, String description) {
    DriverPropertyInfo p = new DriverPropertyInfo(name, given.getProperty(name));
    p.description = description;
    p.required = false;
    return p;
  }

  @Override
  public int getMajorVersion() {
    return DriverInfo.MAJOR_VERSION;
  }

  @Override
  public int getMinorVersion() {
    return DriverInfo.MINOR_VERSION;
  }

  /** False: Cairn does not pass the JDBC compliance tests (it is not full SQL-92 entry level). */
  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw JdbcErrors.notSupported("java.util.logging (the driver logs through SLF4J)");
  }
}
