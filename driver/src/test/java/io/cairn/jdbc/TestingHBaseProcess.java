package io.cairn.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HBase cluster in its own process for the contract suite's HBase run: {@code
 * io.cairn.hbase.LocalHBase} (what {@code bin/cairn hbase start} runs: its own ZooKeeper, one
 * master and one region server with Cairn's region observer) on this JVM's class path, which is the
 * hbase module's test class path when the suite runs there. Its data and output go under {@code
 * target/hbase-contract/}; it is killed when the test JVM exits.
 *
 * <p>A database's first connection makes its namespace and Cairn's tables in it, three HBase master
 * procedures of about half a second each, mostly waiting: so {@value #AHEAD} namespaces are made
 * ahead, in the background and at once, and a database gets one of them on first use (the contract
 * suite made about 300, 1.5 s each, in line).
 */
final class TestingHBaseProcess {
  private static final Path DIRECTORY = Paths.get("target", "hbase-contract").toAbsolutePath();
  private static final String MAIN_CLASS = "io.cairn.hbase.LocalHBase";
  private static final String UP = "HBase is up";
  private static final long START_MILLIS = 180_000;

  /** How many namespaces are being made or ready ahead of the databases that take them. */
  private static final int AHEAD = 3;

  /** What a namespace made ahead that failed offers in its place. */
  private static final String FAILED = "";

  /** How long a database waits for a namespace made ahead before it makes its own. */
  private static final long TAKE_MILLIS = 30_000;

  private final Process process;
  private final Path log;
  private final int port;
  private final BlockingQueue<String> ready = new LinkedBlockingQueue<>();
  private final AtomicInteger made = new AtomicInteger();
  private final ExecutorService maker =
      Executors.newFixedThreadPool(
          AHEAD,
          task -> {
            Thread t = new Thread(task, "cairn-test-hbase-namespaces");
            t.setDaemon(true);
            return t;
          });

  /** The namespace of each database, by the name the tests gave it. */
  private final Map<String, String> namespaces = new HashMap<>();

  private TestingHBaseProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts a cluster whose ZooKeeper listens on a free loopback port, and waits until it is up. */
  static TestingHBaseProcess start() {
    try {
      Files.createDirectories(DIRECTORY);
      Path data = Files.createTempDirectory(DIRECTORY, "data-");
      Path log = DIRECTORY.resolve(data.getFileName() + ".log");
      int port = freePort();
      String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
      Process process =
          new ProcessBuilder(
                  List.of(
                      java,
                      "-Xmx4g",
                      "-XX:+UseParallelGC",
                      // the client compiler only: a test's statements are short and many, and
                      // the server compiler's work took CPU from them on two cores
                      "-XX:TieredStopAtLevel=1",
                      "-XX:+ExitOnOutOfMemoryError",
                      // warnings and errors to the log (the test class path has slf4j-nop too)
                      "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
                      "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                      "-cp",
                      TestingServerProcess.classPath(),
                      MAIN_CLASS,
                      "--data",
                      data.toString(),
                      "--port",
                      Integer.toString(port)))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Paths.get("/dev/null").toFile()))
              .start();
      TestingHBaseProcess cluster = new TestingHBaseProcess(process, log, port);
      cluster.awaitUp();
      for (int i = 0; i < AHEAD; i++) {
        cluster.makeOneAhead();
      }
      return cluster;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void awaitUp() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
    while (!Files.readString(log, UTF_8).contains(UP)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "the contract suite's HBase did not start ("
                + (process.isAlive() ? "no '" + UP + "' within " + START_MILLIS + " ms" : "exited")
                + "); its output, "
                + log
                + ":\n"
                + output());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
        throw new IllegalStateException("interrupted while HBase started", e);
      }
    }
  }

  /**
   * The URL of database {@code name}: on first use a namespace made ahead (else, when none came in
   * time, {@code name} itself, made by the first connection).
   */
  synchronized String url(String name) {
    String namespace = namespaces.get(name);
    if (namespace == null) {
      String taken = take();
      namespace = taken == null || taken.equals(FAILED) ? name : taken;
      namespaces.put(name, namespace);
    }
    return urlOf(namespace);
  }

  private String take() {
    try {
      String namespace = ready.poll(TAKE_MILLIS, TimeUnit.MILLISECONDS);
      makeOneAhead();
      return namespace;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Makes a namespace with Cairn's tables by connecting to it, then offers it. */
  private void makeOneAhead() {
    String namespace = "ahead_" + made.incrementAndGet();
    maker.execute(
        () -> {
          try (Connection c = DriverManager.getConnection(urlOf(namespace))) {
            ready.add(namespace);
          } catch (SQLException | RuntimeException e) {
            ready.add(FAILED); // the database that takes this makes its own namespace
          }
        });
  }

  /**
   * {@code jdbc:cairn:hbase:127.0.0.1:PORT;cairn.hbase.namespace=NAMESPACE}, with HBase's client
   * polling for the end of a master procedure every 20 ms instead of 100: each test makes tables,
   * and waits less for them.
   */
  private String urlOf(String namespace) {
    return "jdbc:cairn:hbase:127.0.0.1:"
        + port
        + ";cairn.hbase.namespace="
        + namespace
        + ";hbase.client.pause=20";
  }

  /** The end of what the cluster printed so far. */
  String output() {
    try {
      String text = Files.readString(log, UTF_8);
      return text.length() > 20_000 ? text.substring(text.length() - 20_000) : text;
    } catch (IOException e) {
      return "(" + log + " unreadable: " + e + ")";
    }
  }

  void kill() {
    process.destroyForcibly();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
