package io.cairn.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code bin/cairn} of this checkout as a real process, the way a user does, but on the
 * classpath that the it module's build wrote (no Maven inside Maven).
 */
final class CairnLauncher {
  static final Duration TIMEOUT = Duration.ofSeconds(120);

  private CairnLauncher() {}

  /** The output of one finished launcher process. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    Result {
      command = List.copyOf(requireNonNull(command, "command is null"));
      requireNonNull(stdout, "stdout is null");
      requireNonNull(stderr, "stderr is null");
    }

    /** Everything about the run, for assertion messages. */
    String describe() {
      return String.format(
          "%s exited with [%s]%n--- stdout ---%n%s%n--- stderr ---%n%s",
          String.join(" ", command), exitCode, stdout, stderr);
    }
  }

  static Path root() {
    return Path.of(requiredProperty("cairn.it.root")).toAbsolutePath().normalize();
  }

  static String requiredProperty(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(
          "system property [" + name + "] is not set: run the it module through Maven");
    }
    return value;
  }

  /**
   * Starts {@code bash bin/cairn ARGS} in {@code workDir} on the class path files the modules'
   * builds wrote (driver/target, hbase/target: as a user's checkout after its build), its output to
   * {@code stdout} and {@code stderr}; the caller stops it.
   */
  static Process start(Path workDir, Path stdout, Path stderr, String... args) throws IOException {
    return start(workDir, stdout, stderr, Map.of(), args);
  }

  /** {@link #start(Path, Path, Path, String...)} with {@code env} added to the environment. */
  static Process start(
      Path workDir, Path stdout, Path stderr, Map<String, String> env, String... args)
      throws IOException {
    List<String> command = new ArrayList<>(List.of("bash", root().resolve("bin/cairn").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("CAIRN_NO_BUILD", "1");
    builder.environment().remove("CAIRN_CLASSPATH_FILE");
    builder.environment().remove("JAVA_OPTS");
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    return process;
  }

  /**
   * Runs {@code bash bin/cairn ARGS} in {@code workDir} on the class path files the modules' builds
   * wrote (see {@link #start}); kills it after {@link #TIMEOUT}.
   */
  static Result runBuilt(Path workDir, String... args) throws IOException, InterruptedException {
    return finish(workDir, Map.of(), args);
  }

  /**
   * Runs {@code bash bin/cairn ARGS} in {@code workDir} on the it module's class path (no Maven
   * inside Maven); kills it after {@link #TIMEOUT}.
   */
  static Result run(Path workDir, String... args) throws IOException, InterruptedException {
    Path launcher = root().resolve("bin/cairn");
    Path classpathFile = Path.of(requiredProperty("cairn.it.classpathFile"));
    if (!Files.isRegularFile(launcher)) {
      throw new IllegalStateException("no launcher at [" + launcher + "]");
    }
    if (!Files.isRegularFile(classpathFile)) {
      throw new IllegalStateException(
          "no classpath file at ["
              + classpathFile
              + "]: the it module's build writes it (dependency:build-classpath)");
    }
    return finish(workDir, Map.of("CAIRN_CLASSPATH_FILE", classpathFile.toString()), args);
  }

  /** Starts {@code bin/cairn ARGS} with {@code env} and waits for it, up to {@link #TIMEOUT}. */
  private static Result finish(Path workDir, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    Path stdout = Files.createTempFile(workDir, "cairn-", ".out");
    Path stderr = Files.createTempFile(workDir, "cairn-", ".err");
    Process process = start(workDir, stdout, stderr, env, args);
    List<String> command = new ArrayList<>(List.of("bin/cairn"));
    command.addAll(List.of(args));
    if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          new Result(
                  command,
                  -1,
                  Files.readString(stdout, UTF_8),
                  Files.readString(stderr, UTF_8) + "\n[killed after " + TIMEOUT + "]")
              .describe());
    }
    return new Result(
        command,
        process.exitValue(),
        Files.readString(stdout, UTF_8),
        Files.readString(stderr, UTF_8));
  }
}
