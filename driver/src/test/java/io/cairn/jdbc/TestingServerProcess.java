package io.cairn.jdbc;

import static java.util.Objects.requireNonNull;

import io.cairn.server.rpc.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Cairn server in its own process ({@code io.cairn.server.rpc.ServerMain} on this JVM's class
 * path), for tests that need a real server: in memory, on a free port (or a given one, to restart
 * in place), without the status page. Its output goes to a file under {@code target/servers/}. The
 * driver tests' settings of the one launcher, {@link ServerProcess}.
 */
public final class TestingServerProcess implements AutoCloseable {
  private static final Path DIRECTORY = Paths.get("target", "servers").toAbsolutePath();

  private final ServerProcess server;

  private TestingServerProcess(ServerProcess server) {
    this.server = server;
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
      List<String> arguments = new ArrayList<>();
      if (data == null) {
        arguments.add("--mem");
      } else {
        arguments.add("--data");
        arguments.add(data.toString());
      }
      arguments.add("--port");
      arguments.add(Integer.toString(port));
      if (!List.of(extraArguments).contains("--http-port")) {
        arguments.add("--http-port");
        arguments.add("-1");
      }
      arguments.addAll(List.of(extraArguments));
      return new TestingServerProcess(
          ServerProcess.builder(classPath())
              .jvmOptions(List.of("-Xmx1g", "-XX:+UseParallelGC"))
              .arguments(arguments)
              .portFile(portFile)
              .output(DIRECTORY.resolve(name + "-" + System.nanoTime() + ".log"), true)
              .stopTimeout(Duration.ofSeconds(30))
              .start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The test class path: surefire's (its booter jar only points to it) or this JVM's. */
  static String classPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank()
        ? surefire
        : System.getProperty("java.class.path");
  }

  public int port() {
    return server.port();
  }

  /** {@code jdbc:cairn://127.0.0.1:PORT/database} ({@code database} may be empty). */
  public String url(String database) {
    return server.url(database);
  }

  public boolean isAlive() {
    return server.isAlive();
  }

  /** What the server printed so far. */
  public String output() {
    return server.output();
  }

  /** Kills the server at once (SIGKILL): no shutdown, connections reset. */
  public void kill() {
    try {
      server.kill();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the server gracefully (SIGTERM: its shutdown hook runs). */
  @Override
  public void close() {
    server.close();
  }
}
