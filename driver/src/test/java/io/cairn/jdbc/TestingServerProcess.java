package io.cairn.jdbc;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Cairn server in its own process ({@code io.cairn.server.rpc.ServerMain} on this JVM's class
 * path), for tests that need a real server: in memory, on a free port (or a given one, to restart
 * in place), without the status page. Its output goes to a file under {@code target/servers/}.
 */
public final class TestingServerProcess implements AutoCloseable {
  private static final Path DIRECTORY = Paths.get("target", "servers").toAbsolutePath();
  private static final long START_TIMEOUT_MILLIS = 60_000;

  private final Process process;
  private final int port;
  private final Path log;

  private TestingServerProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts a server with an in-memory store on any free port. */
  public static TestingServerProcess start(String name) {
    return start(name, 0, null);
  }

  /**
   * Starts a server on {@code port} (0: any free port) serving in-memory databases, or the durable
   * databases under {@code data} when it is not null, with extra command-line arguments.
   */
  public static TestingServerProcess start(
      String name, int port, Path data, String... extraArguments) {
    requireNonNull(name, "name is null");
    try {
      Files.createDirectories(DIRECTORY);
      Path portFile = Files.createTempFile(DIRECTORY, name + "-", ".port");
      Files.delete(portFile);
      Path log = DIRECTORY.resolve(name + "-" + System.nanoTime() + ".log");
      List<String> command = new ArrayList<>();
      command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx1g");
      command.add("-XX:+UseParallelGC");
      command.add("-cp");
      command.add(classPath());
      command.add("io.cairn.server.rpc.ServerMain");
      if (data == null) {
        command.add("--mem");
      } else {
        command.add("--data");
        command.add(data.toString());
      }
      command.add("--port");
      command.add(Integer.toString(port));
      command.add("--port-file");
      command.add(portFile.toString());
      if (!List.of(extraArguments).contains("--http-port")) {
        command.add("--http-port");
        command.add("-1");
      }
      command.addAll(List.of(extraArguments));
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      int bound = awaitPort(process, portFile, log);
      return new TestingServerProcess(process, bound, log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The test class path: surefire's (its booter jar only points to it) or this JVM's. */
  private static String classPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank()
        ? surefire
        : System.getProperty("java.class.path");
  }

  private static int awaitPort(Process process, Path portFile, Path log) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
    while (System.nanoTime() < deadline) {
      if (Files.exists(portFile)) {
        String text = Files.readString(portFile, StandardCharsets.UTF_8).strip();
        if (!text.isEmpty()) {
          try {
            return Integer.parseInt(text);
          } catch (NumberFormatException e) {
            // written only partly: read again
          }
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
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
        throw new IllegalStateException("Interrupted while starting the Cairn server", e);
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException(
        "The Cairn server wrote no port within ["
            + START_TIMEOUT_MILLIS
            + "] ms; its output ("
            + log
            + "):\n"
            + tail(log));
  }

  private static String tail(Path log) {
    try {
      String text = Files.readString(log, StandardCharsets.UTF_8);
      return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  public int port() {
    return port;
  }

  /** {@code jdbc:cairn://127.0.0.1:PORT/database} ({@code database} may be empty). */
  public String url(String database) {
    return "jdbc:cairn://127.0.0.1:" + port + (database.isEmpty() ? "" : "/" + database);
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** What the server printed so far. */
  public String output() {
    return tail(log);
  }

  /** Kills the server at once (SIGKILL): no shutdown, connections reset. */
  public void kill() {
    process.destroyForcibly();
    awaitExit();
  }

  /** Stops the server gracefully (SIGTERM: its shutdown hook runs). */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      awaitExit();
    }
  }

  private void awaitExit() {
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
