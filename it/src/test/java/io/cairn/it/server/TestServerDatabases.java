package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Error;
import io.cairn.protocol.Hello;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.server.security.PasswordHasher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The databases of a real server process (docs/server.md, "Databases"): creating one is a privilege
 * (create-databases, admins), at most max-databases are open, an idle one closes and opens again
 * with its data, and a creation that fails leaves no directory behind.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerDatabases {
  private static final String PASSWORD = "s3cret";

  /** How long the tests wait for something the server does by itself (closing an idle database). */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  /** A durable server with users root (an admin) and bob, and {@code settings} (key, value...). */
  private ServerProcess start(String name, Path data, String... settings) throws Exception {
    String hash = PasswordHasher.hash(PASSWORD.toCharArray(), PasswordHasher.MIN_ITERATIONS);
    ServerProcess.Options options =
        ServerProcess.options(temp)
            .data(data)
            .name(name)
            .set("user.root", hash)
            .set("user.bob", hash)
            .set("admins", "root");
    for (int i = 0; i < settings.length; i += 2) {
      options.set(settings[i], settings[i + 1]);
    }
    return options.start();
  }

  /** Says Hello as {@code user} to {@code database}; the answer (HelloOk or an error). */
  private static Response hello(RawClient client, String user, String database) throws IOException {
    return client.call(
        Request.newBuilder()
            .setHello(
                Hello.newBuilder()
                    .setProtocolVersion(1)
                    .setClientName("databases-test")
                    .setUser(user)
                    .setPassword(PASSWORD)
                    .setDatabase(database)));
  }

  /** A client in session with {@code database} as {@code user}. */
  private static RawClient session(ServerProcess server, String user, String database)
      throws IOException {
    RawClient client = RawClient.connect(server.port());
    try {
      Response answer = hello(client, user, database);
      assertThat(answer.hasHelloOk())
          .as("Hello as %s to [%s]: %s", user, database, RawClient.describe(answer))
          .isTrue();
      return client;
    } catch (IOException | RuntimeException | AssertionError e) {
      client.close();
      throw e;
    }
  }

  private static Error refusedHello(
      ServerProcess server, String user, String database, ErrorCode code) throws IOException {
    try (RawClient client = RawClient.connect(server.port())) {
      return assertError(hello(client, user, database), code);
    }
  }

  private static String jdbc(ServerProcess server, String database, String user) {
    return "jdbc:cairn://127.0.0.1:"
        + server.port()
        + "/"
        + database
        + ";user="
        + user
        + ";password="
        + PASSWORD
        + ";connectTimeout=5s;requestTimeout=20s";
  }

  private static void stop(ServerProcess server) throws Exception {
    int exit = server.stop();
    assertThat(exit).as("exit status after SIGTERM\n%s", server.describe()).isIn(0, 143);
    assertThat(server.leakReports()).as("leaks in the server's log").isEmpty();
  }

  @Test
  void onlyAnAdminCreatesADatabaseAndEveryoneUsesOneThatExists() throws Exception {
    Path data = temp.resolve("privilege");
    try (ServerProcess server = start("privilege", data)) {
      Path bobs = data.resolve("databases").resolve("bobs");
      Error refused = refusedHello(server, "bob", "bobs", ErrorCode.PERMISSION_DENIED);
      assertThat(refused.getSqlState()).isEqualTo("42501");
      assertThat(refused.getMessage())
          .contains("[bobs] does not exist", "user [bob]", "create-databases", "[admin]", "admins");
      assertThat(bobs).doesNotExist();

      try (RawClient root = session(server, "root", "shared")) {
        assertThat(data.resolve("databases").resolve("shared")).isDirectory();
      }
      // it exists now: bob may use it, and the default database
      try (RawClient bob = session(server, "bob", "shared");
          RawClient bobDefault = session(server, "bob", "")) {
        assertThat(bob).isNotNull();
        assertThat(bobDefault).isNotNull();
      }
      stop(server);
    }
  }

  @Test
  void createDatabasesNoneRefusesEvenAnAdmin() throws Exception {
    Path data = temp.resolve("none");
    try (ServerProcess server = start("none", data, "create-databases", "none")) {
      Error refused = refusedHello(server, "root", "other", ErrorCode.PERMISSION_DENIED);
      assertThat(refused.getMessage()).contains("create-databases is [none]");
      assertThat(data.resolve("databases").resolve("other")).doesNotExist();
      stop(server);
    }
  }

  @Test
  void atMostMaxDatabasesAreOpen() throws Exception {
    Path data = temp.resolve("max");
    // the default database and two named ones
    try (ServerProcess server = start("max", data, "max-databases", "3")) {
      try (RawClient a = session(server, "root", "a");
          RawClient b = session(server, "root", "b")) {
        Error busy = refusedHello(server, "root", "c", ErrorCode.SERVER_BUSY);
        assertThat(busy.getSqlState()).isEqualTo("53300");
        assertThat(busy.getMessage())
            .contains("Too many open databases", "[3] are open", "max-databases [3]", "[c]");
        assertThat(data.resolve("databases").resolve("c")).doesNotExist();
        // the open ones still serve new sessions
        try (RawClient again = session(server, "bob", "a")) {
          assertThat(again).isNotNull();
        }
      }
      stop(server);
    }
  }

  @Test
  void anIdleDatabaseClosesAndOpensAgainWithItsData() throws Exception {
    Path data = temp.resolve("idle");
    try (ServerProcess server = start("idle", data, "database-idle-timeout", "1s")) {
      int walWriterThreadsBefore = walWriterThreads(server);
      try (Connection c = DriverManager.getConnection(jdbc(server, "sleepy", "root"));
          Statement s = c.createStatement()) {
        s.executeUpdate("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(20))");
        s.executeUpdate("UPSERT INTO t VALUES (1, 'one'), (2, 'two')");
        assertThat(walWriterThreads(server)).isEqualTo(walWriterThreadsBefore + 1);
        // held by a session, it stays open past its idle timeout (this wait is the time held,
        // not a synchronisation: the server's sweep runs every half second)
        Thread.sleep(2500);
        assertThat(server.logLines()).noneMatch(l -> l.contains("Closed database sleepy"));
        s.executeUpdate("UPSERT INTO t VALUES (2, 'two')");
      }
      awaitLogLine(server, "Closed database sleepy");
      assertThat(walWriterThreads(server))
          .as("the closed database's threads are gone")
          .isEqualTo(walWriterThreadsBefore);
      assertThat(data.resolve("databases").resolve("sleepy")).isDirectory();

      // bob may open it again: it exists (only creating is a privilege)
      try (Connection c = DriverManager.getConnection(jdbc(server, "sleepy", "bob"));
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, v FROM t ORDER BY id")) {
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(rs.getLong(1) + "=" + rs.getString(2));
        }
        assertThat(rows).containsExactly("1=one", "2=two");
      }
      assertThat(server.logLines())
          .filteredOn(l -> l.contains("Opened database sleepy"))
          .as("created, then opened again")
          .hasSize(2)
          .first()
          .asString()
          .endsWith(", created)");
      stop(server);
    }
  }

  @Test
  void aCreationThatFailsLeavesNoDirectory() throws Exception {
    // a data directory whose named databases can be made (their path fits in PATH_MAX, 4096 bytes
    // with the NUL) but whose files cannot (their paths do not): the default database's files fit
    Path data = longPath(temp.resolve("long"), 4018);
    String name = "x".repeat(64);
    Path dir = data.resolve("databases").resolve(name);
    assertThat(dir.toString()).hasSize(4018 + "/databases/".length() + 64);
    try (ServerProcess server = start("failed", data, "create-databases", "any")) {
      Error failed = refusedHello(server, "bob", name, ErrorCode.IO_ERROR);
      assertThat(failed.getMessage()).contains(name);
      assertThat(dir).doesNotExist();
      assertThat(server.logLines()).noneMatch(l -> l.contains("Opened database " + name));
      // it can be tried again (and fails the same way), and the server serves the default database
      refusedHello(server, "bob", name, ErrorCode.IO_ERROR);
      assertThat(dir).doesNotExist();
      try (RawClient ok = session(server, "bob", "")) {
        assertThat(ok).isNotNull();
      }
      stop(server);
    }
  }

  /** {@code base} with directories below it, so that the whole path has {@code length} chars. */
  private static Path longPath(Path base, int length) throws IOException {
    StringBuilder path = new StringBuilder(base.toAbsolutePath().toString());
    while (path.length() < length) {
      int room = length - path.length() - 1; // the separator
      int segment = Math.min(200, room);
      if (room - segment > 0 && room - segment < 2) {
        segment -= 2; // leave room for a last segment of at least one char
      }
      path.append('/').append("d".repeat(segment));
    }
    Path p = Path.of(path.toString());
    Files.createDirectories(p);
    assertThat(p.toString()).hasSize(length);
    return p;
  }

  /** The threads that write durable stores' logs: one per open store. */
  private static int walWriterThreads(ServerProcess server) {
    Matcher m =
        Pattern.compile("^\"cairn-wal-writer\"", Pattern.MULTILINE).matcher(server.threadDump());
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static void awaitLogLine(ServerProcess server, String text) throws Exception {
    ServerChecks.awaitValue(
        "a log line with [" + text + "]",
        () -> server.logLines().stream().anyMatch(l -> l.contains(text)),
        true,
        PATIENCE);
  }
}
