package io.cairn.jdbc;

import java.util.regex.Pattern;

/**
 * The one place the SQL tests get their database URLs from, so the same tests run embedded, against
 * a server and on HBase (the contract suite). Normally {@code jdbc:cairn:mem:NAME}; with the system
 * property {@value #REMOTE_PROPERTY}{@code =true} (the {@code remote-contract} surefire execution),
 * {@code jdbc:cairn://127.0.0.1:PORT/NAME} on one server process started for this test JVM and
 * stopped when it exits; with {@value #HBASE_PROPERTY}{@code =true} (the hbase module's {@code
 * hbase-contract} execution, which runs this module's tests from its test jar), {@code
 * jdbc:cairn:hbase:127.0.0.1:PORT;cairn.hbase.namespace=NAME} on one HBase process started for this
 * test JVM.
 */
public final class TestUrls {
  /** The system property that runs the SQL tests against a server. */
  public static final String REMOTE_PROPERTY = "cairn.test.remote";

  /** The system property that runs the SQL tests on HBase. */
  public static final String HBASE_PROPERTY = "cairn.test.hbase";

  private static final Pattern NOT_IN_DATABASE_NAMES = Pattern.compile("[^A-Za-z0-9_-]");
  private static final Pattern NOT_IN_NAMESPACES = Pattern.compile("[^A-Za-z0-9_]");

  private TestUrls() {}

  /** Whether this test JVM runs the SQL tests against a server. */
  public static boolean remote() {
    return Boolean.parseBoolean(System.getProperty(REMOTE_PROPERTY, "false"));
  }

  /** Whether this test JVM runs the SQL tests on HBase. */
  public static boolean hbase() {
    return Boolean.parseBoolean(System.getProperty(HBASE_PROPERTY, "false"));
  }

  /**
   * The URL of database {@code name} (created on first use): in memory in this JVM, on the test
   * server, or an HBase namespace. A server's database names are 1 to 64 of A-Z, a-z, 0-9, '_' and
   * '-': others characters become '_', and a longer name keeps its end (where tests put a unique
   * suffix); an HBase namespace's are letters, digits and '_'.
   */
  public static String database(String name) {
    if (hbase()) {
      return SharedHBase.PROCESS.url(NOT_IN_NAMESPACES.matcher(name).replaceAll("_"));
    }
    if (!remote()) {
      return "jdbc:cairn:mem:" + name;
    }
    String database = NOT_IN_DATABASE_NAMES.matcher(name).replaceAll("_");
    if (database.length() > 64) {
      database = database.substring(database.length() - 64);
    }
    return SharedServer.PROCESS.url(database);
  }

  /** What the tests' server printed so far (for failure messages); empty when embedded. */
  public static String serverOutput() {
    if (hbase()) {
      return SharedHBase.PROCESS.output();
    }
    return remote() ? SharedServer.PROCESS.output() : "";
  }

  /** The HBase cluster of this test JVM, started on first use and killed at exit. */
  private static final class SharedHBase {
    static final TestingHBaseProcess PROCESS = startShared();

    private static TestingHBaseProcess startShared() {
      TestingHBaseProcess process = TestingHBaseProcess.start();
      Runtime.getRuntime().addShutdownHook(new Thread(process::kill, "cairn-test-hbase-stop"));
      return process;
    }
  }

  /** The server of this test JVM, started on first use and stopped at exit. */
  private static final class SharedServer {
    static final TestingServerProcess PROCESS = startShared();

    private static TestingServerProcess startShared() {
      TestingServerProcess process =
          // every test class makes in-memory databases of its own, which never close
          TestingServerProcess.start(
              "contract-" + ProcessHandle.current().pid(),
              0,
              null,
              "--set",
              "max-databases=100000");
      Runtime.getRuntime().addShutdownHook(new Thread(process::kill, "cairn-test-server-stop"));
      return process;
    }
  }
}
