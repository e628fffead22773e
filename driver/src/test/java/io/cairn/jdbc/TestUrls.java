package io.cairn.jdbc;

import java.util.regex.Pattern;

/**
 * The one place the SQL tests get their database URLs from, so the same tests run embedded and
 * against a server (the contract suite). Normally {@code jdbc:cairn:mem:NAME}; with the system
 * property {@value #REMOTE_PROPERTY}{@code =true} (the {@code remote-contract} surefire execution),
 * {@code jdbc:cairn://127.0.0.1:PORT/NAME} on one server process started for this test JVM and
 * stopped when it exits.
 */
public final class TestUrls {
  /** The system property that runs the SQL tests against a server. */
  public static final String REMOTE_PROPERTY = "cairn.test.remote";

  private static final Pattern NOT_IN_DATABASE_NAMES = Pattern.compile("[^A-Za-z0-9_-]");

  private TestUrls() {}

  /** Whether this test JVM runs the SQL tests against a server. */
  public static boolean remote() {
    return Boolean.parseBoolean(System.getProperty(REMOTE_PROPERTY, "false"));
  }

  /**
   * The URL of database {@code name} (created on first use): in memory in this JVM, or on the test
   * server. A server's database names are 1 to 64 of A-Z, a-z, 0-9, '_' and '-': others characters
   * become '_', and a longer name keeps its end (where tests put a unique suffix).
   */
  public static String database(String name) {
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
    return remote() ? SharedServer.PROCESS.output() : "";
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
