package io.cairn.jdbc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.CairnConnection;
import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.jdbc.internal.DriverInfo;
import io.cairn.jdbc.internal.JdbcErrors;
import io.cairn.jdbc.internal.engine.Engines;
import io.cairn.jdbc.internal.engine.Session;
import io.cairn.jdbc.internal.engine.SessionFactory;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Cairn JDBC driver. URLs: {@code jdbc:cairn:mem:NAME} opens (or creates) an in-memory store in
 * this JVM; {@code jdbc:cairn:file:DIR} opens (or creates) a durable store in directory DIR, shared
 * by the connections of this JVM and closed when the last one closes. Either may end in {@code
 * ;name=value} connection properties: {@code durability} (SKIP, ASYNC, SYNC, FSYNC: how far this
 * connection's writes go before they are acknowledged) and {@code cairn.*} store settings. {@code
 * jdbc:cairn://host:port} is reserved for remote servers and is not available yet.
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

  /** The driver over the embedded engine; what DriverManager and ServiceLoader create. */
  public CairnDriver() {
    this(Engines.embedded());
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
    return new CairnConnection(session, url, properties);
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
    DriverPropertyInfo user = new DriverPropertyInfo("user", given.getProperty("user"));
    user.description = "User name; embedded stores do not authenticate";
    user.required = false;
    DriverPropertyInfo password = new DriverPropertyInfo("password", given.getProperty("password"));
    password.description = "Password; embedded stores do not authenticate";
    password.required = false;
    DriverPropertyInfo durability =
        new DriverPropertyInfo(
            ConnectionUrl.DURABILITY, given.getProperty(ConnectionUrl.DURABILITY));
    durability.description =
        "How far this connection's writes go before they are acknowledged; unset: each table's"
            + " DURABILITY option (default SYNC)";
    durability.required = false;
    durability.choices = new String[] {"SKIP", "ASYNC", "SYNC", "FSYNC"};
    return new DriverPropertyInfo[] {user, password, durability};
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
