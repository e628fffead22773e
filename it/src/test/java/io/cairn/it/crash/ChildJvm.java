package io.cairn.it.crash;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM running a main class of this module on the it module's test classpath: this build's
 * test classes plus the classpath file that the build writes for bin/cairn (so the Cairn modules
 * are those of this reactor, never a jar from ~/.m2). Its stdout is read as complete lines; its
 * stderr goes to a file whose tail failure messages show.
 */
final class ChildJvm implements AutoCloseable {
  private final List<String> command;
  private final Process process;
  private final Path stderr;
  private final List<String> lines = new ArrayList<>();
  private final Thread reader;
  private boolean stdoutClosed;

  private final Path stdout;

  private ChildJvm(List<String> command, Process process, Path stdout, Path stderr) {
    this.command = List.copyOf(command);
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
    this.reader = new Thread(this::readLines, "child-stdout-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code java MAIN ARGS}; stderr goes to {@code stderrFile}, stdout to a file next to it.
   * Stdout is a file, not a pipe: everything the child wrote before it was killed is in the file,
   * while reading a pipe races with the JDK closing it when the process ends.
   */
  static ChildJvm start(Class<?> main, Path stderrFile, String... args) throws IOException {
    requireNonNull(main, "main is null");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xmx512m");
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(classpath());
    command.add(main.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(stdoutFile(stderrFile).toFile())
            .redirectError(stderrFile.toFile())
            .redirectInput(devNull());
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JAVA_OPTS");
    return new ChildJvm(command, builder.start(), stdoutFile(stderrFile), stderrFile);
  }

  private static Path stdoutFile(Path stderrFile) {
    return stderrFile.resolveSibling(stderrFile.getFileName() + ".stdout");
  }

  private static ProcessBuilder.Redirect devNull() {
    return ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile());
  }

  /** This module's test classes and the classpath file written by the build (see it/pom.xml). */
  static String classpath() throws IOException {
    Path classpathFile = Path.of(requiredProperty("cairn.it.classpathFile"));
    if (!Files.isRegularFile(classpathFile)) {
      throw new IllegalStateException(
          "no classpath file at ["
              + classpathFile
              + "]: the it module's build writes it (dependency:build-classpath)");
    }
    Path testClasses = codeSource(ChildJvm.class);
    return testClasses
        + java.io.File.pathSeparator
        + Files.readString(classpathFile, UTF_8).strip();
  }

  static String requiredProperty(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(
          "system property [" + name + "] is not set: run the it module through Maven");
    }
    return value;
  }

  private static Path codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  long pid() {
    return process.pid();
  }

  /** Follows the stdout file until the child has ended and the file is read to its end. */
  private void readLines() {
    byte[] buffer = new byte[8192];
    java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();
    try (InputStream in = Files.newInputStream(stdout)) {
      while (true) {
        boolean ended = !process.isAlive();
        int n = in.read(buffer);
        if (n < 0) {
          if (ended) {
            return;
          }
          Thread.sleep(20);
          continue;
        }
        for (int i = 0; i < n; i++) {
          if (buffer[i] == '\n') {
            String complete = pending.toString(UTF_8);
            pending.reset();
            synchronized (lines) {
              lines.add(complete);
              lines.notifyAll();
            }
          } else {
            pending.write(buffer[i]);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading the child's stdout " + stdout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      synchronized (lines) {
        stdoutClosed = true;
        lines.notifyAll();
      }
    }
  }

  /** The complete stdout lines read so far (a line cut by a kill is not among them). */
  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /**
   * Waits until {@code condition} holds for the lines read so far, the child's stdout ends, or
   * {@code timeout} passes; returns whether the condition held.
   */
  boolean awaitLines(Predicate<List<String>> condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lines) {
      while (true) {
        if (condition.test(lines)) {
          return true;
        }
        long left = deadline - System.nanoTime();
        if (stdoutClosed || left <= 0) {
          return false;
        }
        lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL (on Linux), then waits for the process and for the end of its stdout. */
  int kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("child " + process.pid() + " did not die after SIGKILL");
    }
    reader.join(TimeUnit.SECONDS.toMillis(60));
    if (reader.isAlive()) {
      throw new IllegalStateException("the child's stdout was not read to its end: " + stdout);
    }
    return process.exitValue();
  }

  /** The last {@code maxLines} lines of the child's stderr. */
  String stderrTail(int maxLines) {
    try {
      if (!Files.exists(stderr)) {
        return "(no stderr file)";
      }
      List<String> all = Files.readAllLines(stderr, UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - maxLines), all.size()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Command, exit state, last stdout lines and stderr tail, for failure messages. */
  String describe() throws InterruptedException {
    List<String> out = lines();
    return String.format(
        "child [%s] pid [%s] %s%n--- last stdout lines (%s) ---%n%s%n--- stderr tail (%s) ---%n%s",
        String.join(" ", command.subList(command.indexOf("-cp") + 2, command.size())),
        process.pid(),
        exitState(),
        stdout,
        String.join("\n", out.subList(Math.max(0, out.size() - 10), out.size())),
        stderr,
        stderrTail(60));
  }

  private String exitState() throws InterruptedException {
    // A child that failed on its own may still be on its way out.
    process.waitFor(5, TimeUnit.SECONDS);
    return process.isAlive() ? "alive" : "exit code [" + process.exitValue() + "]";
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
