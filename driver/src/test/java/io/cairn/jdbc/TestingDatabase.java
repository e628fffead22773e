package io.cairn.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh database and a connection to it for each test, with the helpers the SQL tests share:
 * {@code @RegisterExtension final TestingDatabase db = new TestingDatabase("name");}. The database
 * comes from {@link TestUrls#database} (in memory, or on the contract suite's server), named {@code
 * PREFIX-<random UUID>}; the connection is open before the class's {@code @BeforeEach} methods run
 * and closed after its {@code @AfterEach} methods. The static helpers serve tests that open their
 * own connections.
 */
public final class TestingDatabase implements BeforeEachCallback, AfterEachCallback {
  private final String prefix;
  private String url;
  private Connection connection;

  public TestingDatabase(String prefix) {
    this.prefix = requireNonNull(prefix, "prefix is null");
  }

  @Override
  public void beforeEach(ExtensionContext context) throws SQLException {
    url = TestUrls.database(prefix + "-" + UUID.randomUUID());
    connection = DriverManager.getConnection(url);
  }

  @Override
  public void afterEach(ExtensionContext context) throws SQLException {
    if (connection != null) {
      connection.close();
      connection = null;
    }
  }

  /** This test's database URL (without properties). */
  public String url() {
    return url;
  }

  /** The test's connection; the fixture closes it. */
  public Connection connection() {
    return connection;
  }

  /** {@link Statement#executeUpdate} on the test's connection. */
  public int update(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  /** Runs each statement on the test's connection. */
  public void execute(String... statements) throws SQLException {
    execute(connection, statements);
  }

  /** The rows of {@code sql} on the test's connection: see {@link #rows(Connection, String)}. */
  public List<String> rows(String sql) throws SQLException {
    return rows(connection, sql);
  }

  /** The lines of {@code EXPLAIN sql}. */
  public List<String> explain(String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    return lines;
  }

  /** The SQLException that {@code sql} fails with; an AssertionError when it succeeds. */
  public SQLException failure(String sql) {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError("expected an SQLException from: " + sql);
  }

  /** Runs each statement on {@code connection}. */
  public static void execute(Connection connection, String... statements) throws SQLException {
    try (Statement s = connection.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /**
   * The rows of {@code sql}, each as its values ({@link String#valueOf}, so NULL is {@code null})
   * joined by commas.
   */
  public static List<String> rows(Connection connection, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          values.add(String.valueOf(rs.getObject(i)));
        }
        rows.add(String.join(",", values));
      }
    }
    return rows;
  }
}
