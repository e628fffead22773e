package io.cairn.tpch.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cairn shell} on its start-up archive (class-data sharing): made when missing, used
 * when present, and a stale one (made for another class path) refused by the JVM without a word on
 * the terminal. Runs the launcher of this checkout on the built jars (CAIRN_NO_BUILD=1) with this
 * test's JVM as JAVA_HOME.
 */
class TestLauncherArchive {
  private static final Path HOME = Path.of("..").toAbsolutePath().normalize();
  private static final Path LAUNCHER = HOME.resolve("bin/cairn");
  private static final Path DRIVER_TARGET = HOME.resolve("driver/target");

  @TempDir Path dir;

  private Path archives;
  private Path classpathFile;
  private List<String> classpath;

  @BeforeEach
  void classpathOfJars() throws IOException {
    Path jar = driverJar();
    assumeTrue(
        jar != null && Files.isRegularFile(DRIVER_TARGET.resolve("shell-classpath.txt")),
        "the driver's jar and classpath files are built");
    classpath = new ArrayList<>();
    classpath.add(jar.toString());
    for (String file : List.of("classpath.txt", "shell-classpath.txt")) {
      classpath.addAll(
          Arrays.asList(Files.readString(DRIVER_TARGET.resolve(file), UTF_8).trim().split(":")));
    }
    // private copies of this checkout's jars: others rebuilding them must not change the archive
    Path jars = Files.createDirectories(dir.resolve("jars"));
    for (int i = 0; i < classpath.size(); i++) {
      Path entry = Path.of(classpath.get(i));
      if (entry.startsWith(HOME)) {
        Path copy = jars.resolve(entry.getFileName());
        Files.copy(entry, copy, StandardCopyOption.COPY_ATTRIBUTES);
        classpath.set(i, copy.toString());
      }
    }
    classpathFile = write("classpath.txt", classpath);
    archives = dir.resolve("cds");
  }

  @Test
  void missingArchiveIsMadeFirstThenUsed() throws Exception {
    Run made = shell(Map.of("CAIRN_CDS", "wait"), classpathFile);
    assertAnswered(made);
    assertThat(made.stderr()).contains("making the start-up archive");
    Path archive = onlyArchive();

    Run used = shell(Map.of("CAIRN_CDS", "wait"), classpathFile);
    assertAnswered(used);
    assertThat(used.stderr()).doesNotContain("making the start-up archive");
    assertThat(onlyArchive()).isEqualTo(archive);
  }

  @Test
  void missingArchiveIsMadeInTheBackgroundWhileTheShellAnswers() throws Exception {
    Run run = shell(Map.of("CAIRN_CDS", "auto"), classpathFile);
    assertAnswered(run);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (archivesIn().isEmpty() && failedIn().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(failedIn()).as("a failed training run").isEmpty();
    assertThat(archivesIn()).hasSize(1);
    assertAnswered(shell(Map.of("CAIRN_CDS", "auto"), classpathFile));
  }

  @Test
  void staleArchiveIsRefusedQuietly() throws Exception {
    assertAnswered(shell(Map.of("CAIRN_CDS", "wait"), classpathFile));
    Path archive = onlyArchive();
    // another class path (one jar of annotations fewer, which nothing loads at run time) whose
    // archive name holds the first class path's archive
    List<String> fewer = new ArrayList<>(classpath);
    assertThat(fewer.removeIf(entry -> entry.contains("j2objc-annotations"))).isTrue();
    Path otherFile = write("other-classpath.txt", fewer);
    Path otherArchive = archivePath(otherFile);
    assertThat(otherArchive).isNotEqualTo(archive);
    Files.copy(archive, otherArchive);

    Run run = shell(Map.of("CAIRN_CDS", "auto"), otherFile);
    assertAnswered(run);
  }

  @Test
  void offStartsWithoutAnArchive() throws Exception {
    assertAnswered(shell(Map.of("CAIRN_CDS", "off"), classpathFile));
    assertThat(Files.exists(archives)).isFalse();
  }

  private static void assertAnswered(Run run) {
    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.stdout()).as(run.describe()).contains("42");
    assertThat(run.stderr().toLowerCase(java.util.Locale.ROOT))
        .as(run.describe())
        .doesNotContain("warning")
        .doesNotContain("error")
        .doesNotContain("[cds")
        .doesNotContain("[aot");
  }

  private Path onlyArchive() throws IOException {
    List<Path> found = archivesIn();
    assertThat(found).hasSize(1);
    return found.get(0);
  }

  private List<Path> archivesIn() throws IOException {
    return list(".jsa", ".aot");
  }

  private List<Path> failedIn() throws IOException {
    return list(".failed");
  }

  private List<Path> list(String... suffixes) throws IOException {
    if (!Files.isDirectory(archives)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(archives)) {
      return files
          .filter(p -> Arrays.stream(suffixes).anyMatch(s -> p.toString().endsWith(s)))
          .sorted()
          .toList();
    }
  }

  private Path write(String name, List<String> entries) throws IOException {
    return Files.writeString(dir.resolve(name), String.join(":", entries) + "\n", UTF_8);
  }

  /** The archive path bin/cairn computes for the class path in {@code file}. */
  private Path archivePath(Path file) throws Exception {
    ProcessBuilder p =
        new ProcessBuilder(
                "bash",
                "-c",
                "source \"$1\"; find_java; CLASSPATH_VALUE=\"$(tr -d '\\r\\n' <\"$2\")\";"
                    + " cds_classpath; cds_archive_path; printf '%s' \"$CDS_ARCHIVE\"",
                "archive-path",
                LAUNCHER.toString(),
                file.toString())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    environment(p.environment(), Map.of(), file);
    Process process = p.start();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8).trim();
    assertThat(process.waitFor()).as(out).isZero();
    return Path.of(out);
  }

  private Run shell(Map<String, String> env, Path classpath) throws Exception {
    ProcessBuilder p =
        new ProcessBuilder(
                LAUNCHER.toString(), "shell", "jdbc:cairn:mem:archive_test", "-e", "SELECT 41 + 1;")
            .redirectOutput(dir.resolve("out.txt").toFile())
            .redirectError(dir.resolve("err.txt").toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    environment(p.environment(), env, classpath);
    Process process = p.start();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
    }
    return new Run(
        process.isAlive() ? -1 : process.exitValue(),
        Files.readString(dir.resolve("out.txt"), UTF_8),
        Files.readString(dir.resolve("err.txt"), UTF_8));
  }

  private void environment(Map<String, String> target, Map<String, String> env, Path classpath) {
    target.remove("JAVA_OPTS");
    target.remove("CAIRN_CDS");
    target.put("JAVA_HOME", System.getProperty("java.home"));
    target.put("CAIRN_NO_BUILD", "1");
    target.put("CAIRN_CLASSPATH_FILE", classpath.toString());
    target.put("CAIRN_CDS_DIR", archives.toString());
    target.putAll(env);
  }

  private static Path driverJar() throws IOException {
    if (!Files.isDirectory(DRIVER_TARGET)) {
      return null;
    }
    try (Stream<Path> files = Files.list(DRIVER_TARGET)) {
      return files
          .filter(p -> p.getFileName().toString().matches("cairn-driver-.*\\.jar"))
          .filter(p -> !p.getFileName().toString().matches(".*-(tests|sources|javadoc)\\.jar"))
          .findFirst()
          .orElse(null);
    }
  }

  private record Run(int exit, String stdout, String stderr) {
    String describe() {
      return "exit " + exit + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }
}
