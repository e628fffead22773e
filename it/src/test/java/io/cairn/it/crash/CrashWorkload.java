package io.cairn.it.crash;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.SuppressForbidden;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * The child JVM of {@link TestCrashRecovery}: writes {@link CrashSchema}'s transactions into {@code
 * jdbc:cairn:file:DIR} from several writer threads while a maintenance thread flushes and compacts
 * at random, until it is killed. Arguments: {@code DIR SEED WRITERS}.
 *
 * <p>Protocol on stdout, one line per {@code write(2)}: {@code START w m} once per writer (the
 * highest committed number it found), {@code COMMIT w c} right before each commit, {@code ACK w c}
 * after each commit returned, {@code MAINT op} after each maintenance statement. Any error is
 * printed to stderr as {@code FAIL ...} and ends the process with a non-zero exit code: the parent
 * never expects the child to exit on its own.
 */
public final class CrashWorkload {
  private static final OutputStream STDOUT = new FileOutputStream(FileDescriptor.out);

  private CrashWorkload() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    int writers = Integer.parseInt(args[2]);
    String url = CrashSchema.url(dir);
    Properties properties = CrashSchema.storeProperties(args.length > 3 ? args[3] : "SYNC");
    boolean maintenance = args.length <= 4 || Boolean.parseBoolean(args[4]);

    Map<Integer, Long> start = new HashMap<>();
    try (Connection connection = DriverManager.getConnection(url, properties);
        Statement statement = connection.createStatement()) {
      statement.execute(CrashSchema.CREATE_KV);
      statement.execute(CrashSchema.CREATE_TXLOG);
      statement.execute(CrashSchema.CREATE_KV_INDEX);
      // Keep this connection open for the life of the process: the database stays open.
      for (int w = 0; w < writers; w++) {
        start.put(w, 0L);
      }
      try (ResultSet rs = statement.executeQuery("SELECT W, MAX(C) FROM TXLOG GROUP BY W")) {
        while (rs.next()) {
          start.put(rs.getInt(1), rs.getLong(2));
        }
      }
      for (int w = 0; w < writers; w++) {
        emit("START " + w + " " + start.get(w));
      }

      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        long first = start.get(w) + 1;
        threads.add(
            new Thread(
                () -> guard(failures, () -> write(url, properties, writer, first)), "writer-" + w));
      }
      if (maintenance) {
        threads.add(
            new Thread(
                () -> guard(failures, () -> maintain(url, properties, new SplittableRandom(seed))),
                "maintenance"));
      }
      for (Thread thread : threads) {
        thread.setDaemon(true);
        thread.start();
      }
      // Runs until killed; a failing thread ends the process.
      while (true) {
        synchronized (failures) {
          if (!failures.isEmpty()) {
            throw new IllegalStateException("a workload thread failed", failures.get(0));
          }
          failures.wait(1000);
        }
      }
    }
  }

  interface Work {
    void run() throws Exception;
  }

  private static void guard(List<Throwable> failures, Work work) {
    try {
      work.run();
    } catch (Throwable t) {
      StringWriter trace = new StringWriter();
      t.printStackTrace(new PrintWriter(trace));
      printErr("FAIL in " + Thread.currentThread().getName() + ": " + trace);
      synchronized (failures) {
        failures.add(t);
        failures.notifyAll();
      }
    }
  }

  private static void write(String url, Properties properties, int w, long first)
      throws SQLException, IOException {
    try (Connection connection = DriverManager.getConnection(url, properties);
        PreparedStatement upsertKv =
            connection.prepareStatement("UPSERT INTO KV (K, W, C, PAD) VALUES (?, ?, ?, ?)");
        PreparedStatement deleteKv =
            connection.prepareStatement("DELETE FROM KV WHERE K = ? AND W = ?");
        PreparedStatement upsertLog =
            connection.prepareStatement("UPSERT INTO TXLOG (W, C, PAD) VALUES (?, ?, ?)")) {
      connection.setAutoCommit(false);
      for (long c = first; ; c++) {
        // Alternate the order of the statements so that regions and tables see them both ways.
        if (c % 2 == 0) {
          upsertLog(upsertLog, w, c);
        }
        for (int k = 0; k < CrashSchema.TOGGLE_KEY; k++) {
          upsertKv(upsertKv, k, w, c);
        }
        if (c % 2 == 0) {
          upsertKv(upsertKv, CrashSchema.TOGGLE_KEY, w, c);
        } else {
          deleteKv.setInt(1, CrashSchema.TOGGLE_KEY);
          deleteKv.setInt(2, w);
          deleteKv.executeUpdate();
          upsertLog(upsertLog, w, c);
        }
        emit("COMMIT " + w + " " + c);
        connection.commit();
        emit("ACK " + w + " " + c);
      }
    }
  }

  private static void upsertKv(PreparedStatement upsert, int k, int w, long c) throws SQLException {
    upsert.setInt(1, k);
    upsert.setInt(2, w);
    upsert.setLong(3, c);
    upsert.setString(4, CrashSchema.kvPad(k, w, c));
    upsert.executeUpdate();
  }

  private static void upsertLog(PreparedStatement upsert, int w, long c) throws SQLException {
    upsert.setInt(1, w);
    upsert.setLong(2, c);
    upsert.setString(3, CrashSchema.logPad(w, c));
    upsert.executeUpdate();
  }

  private static void maintain(String url, Properties properties, SplittableRandom random)
      throws SQLException, IOException, InterruptedException {
    String[] operations = {"FLUSH TABLE", "COMPACT TABLE", "MAJOR_COMPACT TABLE"};
    String[] tables = {"KV", "TXLOG"};
    try (Connection connection = DriverManager.getConnection(url, properties);
        Statement statement = connection.createStatement()) {
      while (true) {
        Thread.sleep(20 + random.nextInt(300));
        // Flushes more often than compactions, major compactions least.
        int pick = random.nextInt(10);
        String operation = operations[pick < 5 ? 0 : pick < 8 ? 1 : 2];
        String sql = operation + " " + tables[random.nextInt(tables.length)];
        statement.execute(sql);
        emit("MAINT " + sql);
      }
    }
  }

  /** One line in one write(2), so a kill never leaves half a line. */
  private static void emit(String line) throws IOException {
    byte[] bytes = (line + "\n").getBytes(UTF_8);
    synchronized (STDOUT) {
      STDOUT.write(bytes);
      STDOUT.flush();
    }
  }

  @SuppressForbidden(reason = "the child process reports failures to its parent on stderr")
  private static void printErr(String message) {
    System.err.println(message);
    System.err.flush();
  }
}
