package io.cairn.tpch.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Cairn server ({@code io.cairn.server.rpc.ServerMain}) in a child process of this JVM, on
 * 127.0.0.1 and a free port, without its status page; its output goes to a log file. {@link
 * #close()} stops it gracefully (SIGTERM: running requests finish, databases are flushed) and only
 * kills it when it has not exited after {@link #STOP_TIMEOUT}; a shutdown hook does the same if
 * this JVM exits first (Ctrl-C).
 */
final class ServerProcess implements AutoCloseable {
  static final String MAIN_CLASS = "io.cairn.server.rpc.ServerMain";
  static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final int port;
  private final Path log;
  private final long startMillis;
  private final Thread hook;
  private Duration stopTime;
  private boolean killed;

  private ServerProcess(Process process, int port, Path log, long startMillis) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.startMillis = startMillis;
    this.hook = new Thread(this::stopQuietly, "cairn-bench-server-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Starts a server and waits until it accepts connections.
   *
   * @param classPath the class path of the server's JVM
   * @param jvmOptions heap and other JVM options, before the main class
   * @param storeArguments {@code --mem}, or {@code --data DIR}
   * @param directory where the port file and the log go
   */
  static ServerProcess start(
      String classPath, List<String> jvmOptions, List<String> storeArguments, Path directory)
      throws IOException {
    requireNonNull(classPath, "classPath is null");
    Files.createDirectories(directory);
    Path portFile = directory.resolve("server.port");
    Files.deleteIfExists(portFile);
    Path log = directory.resolve("server.log");
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath);
    command.add(MAIN_CLASS);
    command.addAll(storeArguments);
    command.addAll(
        List.of(
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--port-file",
            portFile.toString(),
            "--http-port",
            "-1"));
    long start = System.nanoTime();
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    int port;
    try {
      port = awaitPort(process, portFile, log);
    } catch (IOException | RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
    return new ServerProcess(
        process, port, log, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  private static int awaitPort(Process process, Path portFile, Path log) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(portFile)) {
        String text = Files.readString(portFile, UTF_8).strip();
        if (!text.isEmpty()) {
          return Integer.parseInt(text); // written atomically by the server
        }
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "The Cairn server exited with ["
                + process.exitValue()
                + "] before writing its port; its output ("
                + log
                + "):\n"
                + tail(log));
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while starting the Cairn server", e);
      }
    }
    throw new IllegalStateException(
        "The Cairn server wrote no port within ["
            + START_TIMEOUT.toSeconds()
            + "] s; its output ("
            + log
            + "):\n"
            + tail(log));
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  /** From starting the JVM to the port file: when the server accepts connections. */
  long startMillis() {
    return startMillis;
  }

  /** {@code jdbc:cairn://127.0.0.1:PORT}. */
  String url() {
    return "jdbc:cairn://127.0.0.1:" + port;
  }

  Path log() {
    return log;
  }

  /** CPU time (user + system) and context switches of the server process so far. */
  ProcessMeter.Sample use() {
    return ProcessMeter.read(process.toHandle());
  }

  /** Fails, with the end of the server's output, when the server is no longer running. */
  void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          "The Cairn server exited with ["
              + process.exitValue()
              + "] during the benchmark; its output ("
              + log
              + "):\n"
              + tail(log));
    }
  }

  /** The time the graceful stop took; null before {@link #close()}. */
  Duration stopTime() {
    return stopTime;
  }

  /** Whether the server had to be killed because it did not stop within {@link #STOP_TIMEOUT}. */
  boolean killed() {
    return killed;
  }

  int exitValue() {
    return process.exitValue();
  }

  /** The last 4,000 characters of the server's output. */
  String output() {
    return tail(log);
  }

  @Override
  public void close() {
    stopQuietly();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // this JVM is shutting down: the hook is running or ran
    }
  }

  private synchronized void stopQuietly() {
    if (stopTime != null) {
      return;
    }
    long start = System.nanoTime();
    try {
      if (process.isAlive()) {
        process.destroy(); // SIGTERM: the server's shutdown hook stops it gracefully
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          killed = true;
          process.destroyForcibly();
          process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      killed = true;
      process.destroyForcibly();
    }
    stopTime = Duration.ofNanos(System.nanoTime() - start);
  }

  private static String tail(Path log) {
    try {
      String text = Files.readString(log, UTF_8);
      return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
