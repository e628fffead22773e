package io.cairn.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An HBase cluster in its own process for the contract suite's HBase run: {@code
 * io.cairn.hbase.LocalHBase} (what {@code bin/cairn hbase start} runs: its own ZooKeeper, one
 * master and one region server with Cairn's region observer) on this JVM's class path, which is the
 * hbase module's test class path when the suite runs there. Its data and output go under {@code
 * target/hbase-contract/}; it is killed when the test JVM exits.
 */
final class TestingHBaseProcess {
  private static final Path DIRECTORY = Paths.get("target", "hbase-contract").toAbsolutePath();
  private static final String MAIN_CLASS = "io.cairn.hbase.LocalHBase";
  private static final String UP = "HBase is up";
  private static final long START_MILLIS = 180_000;

  private final Process process;
  private final Path log;
  private final int port;

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
   * {@code jdbc:cairn:hbase:127.0.0.1:PORT;cairn.hbase.namespace=NAMESPACE}, with HBase's client
   * polling for the end of a master procedure every 20 ms instead of 100: each test makes a
   * namespace and tables, and waits less for them.
   */
  String url(String namespace) {
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
