package io.cairn.server.rpc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Cairn server ({@link ServerMain}) in a child process of this JVM: the one launcher that {@code
 * bin/cairn bench server} and the tests (the driver's {@code TestingServerProcess}, the it module's
 * {@code ServerProcess}) start servers with. It builds the {@code java} command line, sends the
 * server's output to files, and waits until the server writes its port file ({@code --port-file}),
 * which it does atomically once it listens. {@link #close()} stops it gracefully (SIGTERM: running
 * requests finish, databases are flushed) and kills it only when it has not exited after the stop
 * timeout.
 */
public final class ServerProcess implements AutoCloseable {
  /** The main class the child JVM runs. */
  public static final String MAIN_CLASS = ServerMain.class.getName();

  private static final int TAIL_CHARS = 4000;

  private final List<String> command;
  private final Process process;
  private final int port;
  private final Path log;
  private final long startMillis;
  private final Duration stopTimeout;
  private final Thread hook;
  private Duration stopTime;
  private boolean killed;

  private ServerProcess(
      List<String> command,
      Process process,
      int port,
      Path log,
      long startMillis,
      Duration stopTimeout,
      String hookName) {
    this.command = List.copyOf(command);
    this.process = process;
    this.port = port;
    this.log = log;
    this.startMillis = startMillis;
    this.stopTimeout = stopTimeout;
    if (hookName == null) {
      this.hook = null;
    } else {
      this.hook = new Thread(this::stopQuietly, hookName);
      Runtime.getRuntime().addShutdownHook(hook);
    }
  }

  /** A launcher of a server JVM with {@code classPath}. */
  public static Builder builder(String classPath) {
    return new Builder(classPath);
  }

  /** What to start and where its output goes. */
  public static final class Builder {
    private final String classPath;
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> arguments = new ArrayList<>();
    private final List<String> wrapper = new ArrayList<>();
    private final List<String> removedEnvironment = new ArrayList<>();
    private Path portFile;
    private Path log;
    private Path stdout;
    private boolean appendOutput;
    private Path directory;
    private boolean noInput;
    private Duration startTimeout = Duration.ofSeconds(60);
    private Duration stopTimeout = Duration.ofSeconds(60);
    private String shutdownHookName;

    private Builder(String classPath) {
      this.classPath = requireNonNull(classPath, "classPath is null");
    }

    /** JVM options (heap, GC, system properties), before the main class. */
    public Builder jvmOptions(List<String> options) {
      jvmOptions.addAll(options);
      return this;
    }

    /**
     * ServerMain's arguments ({@code --mem} or {@code --data DIR}, {@code --port}, ...); the
     * launcher adds {@code --port-file} itself.
     */
    public Builder arguments(List<String> serverArguments) {
      arguments.addAll(serverArguments);
      return this;
    }

    /**
     * A command that runs before the JVM and then execs it (e.g. {@code /bin/sh -c 'ulimit -n 64 &&
     * exec "$@"' sh}), so that the process is still the server's.
     */
    public Builder wrapper(List<String> command) {
      wrapper.clear();
      wrapper.addAll(command);
      return this;
    }

    /** Where the server writes its port once it listens; required. */
    public Builder portFile(Path file) {
      this.portFile = requireNonNull(file, "file is null");
      return this;
    }

    /** Both output streams to {@code file}, truncated first unless {@code append}. */
    public Builder output(Path file, boolean append) {
      this.log = requireNonNull(file, "file is null");
      this.stdout = null;
      this.appendOutput = append;
      return this;
    }

    /**
     * Standard error (the server's log) to {@code errorFile}, standard output to {@code
     * outputFile}, both appended.
     */
    public Builder output(Path errorFile, Path outputFile) {
      this.log = requireNonNull(errorFile, "errorFile is null");
      this.stdout = requireNonNull(outputFile, "outputFile is null");
      this.appendOutput = true;
      return this;
    }

    /** The child's working directory; this JVM's when not set. */
    public Builder directory(Path dir) {
      this.directory = requireNonNull(dir, "dir is null");
      return this;
    }

    /** Standard input from {@code /dev/null} instead of a pipe nobody writes. */
    public Builder noInput() {
      this.noInput = true;
      return this;
    }

    /** Removes a variable (e.g. {@code JAVA_TOOL_OPTIONS}) from the child's environment. */
    public Builder removeEnvironment(String name) {
      removedEnvironment.add(requireNonNull(name, "name is null"));
      return this;
    }

    /** How long the server may take to write its port file; 60 s by default. */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = requireNonNull(timeout, "timeout is null");
      return this;
    }

    /**
     * How long {@link ServerProcess#close()} waits after SIGTERM before it kills; 60 s by default.
     */
    public Builder stopTimeout(Duration timeout) {
      this.stopTimeout = requireNonNull(timeout, "timeout is null");
      return this;
    }

    /**
     * Stops the server (as {@link ServerProcess#close()} does) if this JVM exits first (Ctrl-C).
     */
    public Builder stopOnExit(String threadName) {
      this.shutdownHookName = requireNonNull(threadName, "threadName is null");
      return this;
    }

    /**
     * Starts the server and waits until it has written its port file; kills it when it does not.
     *
     * @throws IllegalStateException when the server exits or writes no port within the start
     *     timeout; the message has the end of its output
     */
    public ServerProcess start() throws IOException {
      requireNonNull(portFile, "portFile is not set");
      requireNonNull(log, "output is not set");
      Files.deleteIfExists(portFile);
      List<String> command = new ArrayList<>(wrapper);
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(jvmOptions);
      command.add("-cp");
      command.add(classPath);
      command.add(MAIN_CLASS);
      command.addAll(arguments);
      command.add("--port-file");
      command.add(portFile.toString());

      ProcessBuilder builder = new ProcessBuilder(command);
      if (directory != null) {
        builder.directory(directory.toFile());
      }
      ProcessBuilder.Redirect logRedirect =
          appendOutput
              ? ProcessBuilder.Redirect.appendTo(log.toFile())
              : ProcessBuilder.Redirect.to(log.toFile());
      if (stdout == null) {
        builder.redirectErrorStream(true).redirectOutput(logRedirect);
      } else {
        builder
            .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()))
            .redirectError(logRedirect);
      }
      if (noInput) {
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      }
      removedEnvironment.forEach(builder.environment()::remove);
      long start = System.nanoTime();
      Process process = builder.start();
      int port;
      try {
        port = awaitPort(process, command);
      } catch (IOException | RuntimeException | Error e) {
        process.destroyForcibly();
        throw e;
      }
      return new ServerProcess(
          command,
          process,
          port,
          log,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
          stopTimeout,
          shutdownHookName);
    }

    private int awaitPort(Process process, List<String> command) throws IOException {
      long deadline = System.nanoTime() + startTimeout.toNanos();
      while (System.nanoTime() < deadline) {
        if (Files.isRegularFile(portFile)) {
          String text = Files.readString(portFile, UTF_8).strip();
          // the server writes it atomically; a digit check still guards a partial read
          if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
            return Integer.parseInt(text);
          }
        }
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "The Cairn server exited with ["
                  + process.exitValue()
                  + "] before writing its port: "
                  + String.join(" ", command)
                  + "\nits output ("
                  + log
                  + "):\n"
                  + tail(log));
        }
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while starting the Cairn server", e);
        }
      }
      throw new IllegalStateException(
          "The Cairn server wrote no port within ["
              + startTimeout.toSeconds()
              + "] s: "
              + String.join(" ", command)
              + "\nits output ("
              + log
              + "):\n"
              + tail(log));
    }
  }

  /** The whole command line, from the wrapper or {@code java} to the last server argument. */
  public List<String> command() {
    return command;
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  /** The process, e.g. to read its CPU time. */
  public ProcessHandle toHandle() {
    return process.toHandle();
  }

  /** From starting the JVM to the port file: when the server accepts connections. */
  public long startMillis() {
    return startMillis;
  }

  /** {@code jdbc:cairn://127.0.0.1:PORT}. */
  public String url() {
    return "jdbc:cairn://127.0.0.1:" + port;
  }

  /** {@code jdbc:cairn://127.0.0.1:PORT/database} ({@code database} may be empty). */
  public String url(String database) {
    return url() + (database.isEmpty() ? "" : "/" + database);
  }

  /** The file that receives the server's log (standard error, and standard output if shared). */
  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code; fails while the server runs. */
  public int exitValue() {
    return process.exitValue();
  }

  /** The last 4,000 characters of the server's log. */
  public String output() {
    return tail(log);
  }

  /** Sends SIGTERM: the server's shutdown hook stops it gracefully. */
  public void terminate() {
    process.destroy();
  }

  /** Waits up to {@code timeout} for the server to exit; whether it has. */
  public boolean waitFor(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Kills the server at once (SIGKILL: no shutdown, connections reset) and waits for the process.
   */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          "The Cairn server [" + process.pid() + "] did not die after SIGKILL");
    }
  }

  /** The time the graceful stop of {@link #close()} took; null before it. */
  public synchronized Duration stopTime() {
    return stopTime;
  }

  /** Whether {@link #close()} had to kill the server because it did not stop in time. */
  public synchronized boolean killed() {
    return killed;
  }

  /**
   * Stops the server gracefully (SIGTERM), and kills it when it has not exited after the stop
   * timeout; does nothing the second time.
   */
  @Override
  public void close() {
    stopQuietly();
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // this JVM is shutting down: the hook is running or ran
      }
    }
  }

  private synchronized void stopQuietly() {
    if (stopTime != null) {
      return;
    }
    long start = System.nanoTime();
    try {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
          killed = true;
          process.destroyForcibly();
          process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      killed = true;
      process.destroyForcibly();
    }
    stopTime = Duration.ofNanos(System.nanoTime() - start);
  }

  /** The last 4,000 characters of {@code file}, or why it cannot be read. */
  public static String tail(Path file) {
    try {
      String text = Files.readString(file, UTF_8);
      return text.length() <= TAIL_CHARS ? text : text.substring(text.length() - TAIL_CHARS);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
