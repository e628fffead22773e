package io.cairn.tpch.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.SuppressForbidden;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The {@value #NAME} item of the LINEITEM suite: the time from starting a new {@code java} process
 * on this JVM's class path to the answer of its first query, what a user of the embedded driver
 * waits for in a command-line tool or a short job. Each run is a process of its own, none warmed
 * up, and every run counts.
 *
 * <p>The child ({@link #main}) opens the driver on a URL and runs one COUNT(*) with a filter. An
 * embedded store is this process's own (an in-memory one is invisible to another process, a file
 * store is locked by this process's connection), so for {@code jdbc:cairn:mem:} and {@code
 * jdbc:cairn:file:} URLs the child opens a fresh in-memory database and first writes a small table
 * ({@value #SETUP_ROWS} rows, one batch) to count; a server ({@code jdbc:cairn://}) it asks the
 * suite's own count-where on LINEITEM. The child reports its connect, set-up and query times; the
 * parent times the whole, from before {@link ProcessBuilder#start()} to the line holding the answer
 * (the JVM's exit is not waited for).
 */
final class FreshJvm {
  static final String NAME = "fresh-jvm";

  /** Rows of the table the child writes in its own in-memory database. */
  static final int SETUP_ROWS = 1_000;

  /** The child's table and query for an embedded URL: half of the rows match. */
  static final String TABLE = "FRESH_JVM";

  static final String QUERY = "SELECT COUNT(*) FROM " + TABLE + " WHERE Q < " + SETUP_ROWS / 2;

  /** The in-memory database the child opens in place of an embedded store. */
  static final String MEMORY_URL = "jdbc:cairn:mem:fresh_jvm";

  /** The prefix of the child's answer line on its standard output. */
  static final String ANSWER = "fresh-jvm-answer";

  /** A child that has not answered by then is killed and the item fails. */
  static final long TIMEOUT_SECONDS = 300;

  private FreshJvm() {}

  /** What the child of {@code url} runs: its URL, its query and the rows it writes first. */
  record Plan(String url, String sql, int setupRows, long expected, String note) {}

  /**
   * The child's URL and query for the suite's {@code url}, holding {@code rows} rows of LINEITEM.
   */
  static Plan plan(String url, long rows) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:cairn://")) {
      return new Plan(
          url, LineitemSuite.COUNT_WHERE, 0, rows, "the same server, the count-where query");
    }
    return new Plan(
        MEMORY_URL,
        QUERY,
        SETUP_ROWS,
        SETUP_ROWS / 2,
        String.format(
            Locale.ROOT,
            "a fresh %s with %,d rows written first (an embedded store belongs to this process)",
            MEMORY_URL,
            SETUP_ROWS));
  }

  /** The command line of a child: this JVM's java and class path. */
  static List<String> command(Plan plan) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // as bin/cairn: the block codecs load native code (JDK 22+ warns otherwise)
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(FreshJvm.class.getName());
    command.add(plan.url());
    command.add(plan.sql());
    command.add(Integer.toString(plan.setupRows()));
    return command;
  }

  /**
   * Starts {@code runs} children one after another and times each to its answer; an ERROR result
   * when one fails, does not answer or answers wrong.
   */
  static QueryResult measure(String url, long rows, int runs, Consumer<String> progress) {
    Plan plan = plan(url, rows);
    List<String> command = command(plan);
    List<Long> nanos = new ArrayList<>();
    List<Long> exitNanos = new ArrayList<>();
    List<Long> connectNanos = new ArrayList<>();
    List<Long> setupNanos = new ArrayList<>();
    List<Long> queryNanos = new ArrayList<>();
    long answer = -1;
    for (int i = 0; i < runs; i++) {
      Child child;
      try {
        child = Child.run(command);
      } catch (IOException | RuntimeException e) {
        return QueryResult.error(NAME, plan.sql(), LineitemSuite.message(e));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return QueryResult.error(NAME, plan.sql(), "interrupted");
      }
      if (child.error() != null) {
        return QueryResult.error(NAME, plan.sql(), child.error());
      }
      nanos.add(child.answerNanos());
      exitNanos.add(child.exitNanos());
      connectNanos.add(child.fields().get("connectNanos"));
      setupNanos.add(child.fields().get("setupNanos"));
      queryNanos.add(child.fields().get("queryNanos"));
      answer = child.fields().get("answer");
      progress.accept(
          String.format(
              Locale.ROOT, "  %s run %d: %,.0f ms", NAME, i + 1, child.answerNanos() / 1e6));
    }
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("childUrl", plan.url());
    extra.put("childSetupRows", plan.setupRows());
    extra.put("childNote", plan.note());
    List<String> shown = new ArrayList<>(command);
    shown.set(shown.indexOf("-cp") + 1, "<this JVM's class path>");
    extra.put("childCommand", String.join(" ", shown));
    extra.put("exitNanos", exitNanos);
    extra.put("childConnectNanos", connectNanos);
    extra.put("childSetupNanos", setupNanos);
    extra.put("childQueryNanos", queryNanos);
    String check =
        answer == plan.expected()
            ? "ok"
            : String.format(
                Locale.ROOT, "WRONG: expected [%d], found [%d]", plan.expected(), answer);
    return QueryResult.ok(NAME, plan.sql(), nanos, 1, check, extra);
  }

  /** A finished child: its answer line's fields and times, or why it failed. */
  private record Child(Map<String, Long> fields, long answerNanos, long exitNanos, String error) {
    static Child run(List<String> command) throws IOException, InterruptedException {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      long start = System.nanoTime();
      Process process = builder.start();
      Map<String, Long> fields = null;
      long answered = -1;
      StringBuilder output = new StringBuilder();
      try (BufferedReader lines =
          new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          if (fields == null && line.startsWith(ANSWER + " ")) {
            answered = System.nanoTime() - start;
            fields = parse(line);
          } else if (output.length() < 2_000) {
            output.append(line).append(' ');
          }
        }
      } finally {
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
      long exited = System.nanoTime() - start;
      int exit = process.isAlive() ? -1 : process.exitValue();
      if (fields == null || exit != 0) {
        return new Child(
            Map.of(),
            -1,
            exited,
            String.format(
                Locale.ROOT,
                "the child JVM exited with [%d] %s: %s",
                exit,
                fields == null ? "without an answer" : "after its answer",
                output.toString().trim()));
      }
      return new Child(fields, answered, exited, null);
    }

    private static Map<String, Long> parse(String line) {
      Map<String, Long> fields = new LinkedHashMap<>();
      for (String field : line.substring(ANSWER.length()).trim().split(" ")) {
        int eq = field.indexOf('=');
        fields.put(field.substring(0, eq), Long.parseLong(field.substring(eq + 1)));
      }
      return fields;
    }
  }

  /**
   * The child: {@code URL SQL SETUP_ROWS}. Opens the driver on URL, writes SETUP_ROWS rows into a
   * new table {@value #TABLE} (K, Q) when SETUP_ROWS > 0, runs SQL (one number) and prints {@code
   * fresh-jvm-answer answer=N connectNanos=... setupNanos=... queryNanos=...}.
   */
  @SuppressForbidden(reason = "the child's answer goes to stdout, read by the parent")
  public static void main(String[] args) throws SQLException {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "Expected arguments URL SQL SETUP_ROWS; found " + args.length);
    }
    int setupRows = Integer.parseInt(args[2]);
    long start = System.nanoTime();
    try (Connection c = DriverManager.getConnection(args[0])) {
      long connected = System.nanoTime();
      if (setupRows > 0) {
        try (Statement s = c.createStatement()) {
          s.execute("CREATE TABLE " + TABLE + " (K INTEGER PRIMARY KEY, Q INTEGER)");
        }
        try (PreparedStatement p = c.prepareStatement("UPSERT INTO " + TABLE + " VALUES (?, ?)")) {
          for (int i = 0; i < setupRows; i++) {
            p.setInt(1, i);
            p.setInt(2, i);
            p.addBatch();
          }
          p.executeBatch();
        }
        if (!c.getAutoCommit()) {
          c.commit();
        }
      }
      long set = System.nanoTime();
      long answer;
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(args[1])) {
        rs.next();
        answer = rs.getLong(1);
      }
      long answered = System.nanoTime();
      System.out.printf(
          Locale.ROOT,
          "%s answer=%d connectNanos=%d setupNanos=%d queryNanos=%d%n",
          ANSWER,
          answer,
          connected - start,
          set - connected,
          answered - set);
      System.out.flush();
    }
  }
}
