package io.cairn.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A self-join whose build side is larger than the heap completes in a JVM of 128 MB, instead of
 * failing with 53200 or running out of memory, and leaves no spill file behind: the driver's hash
 * join (NO_SERVER_JOIN) spills to disk as a grace hash join; the join probed in the store (no hint)
 * writes its build side to disk by hash partition and probes it in passes. The table is loaded by
 * this JVM into a durable store, the join runs in a child process ({@link SelfJoinInASmallHeap}).
 */
final class TestSpillInASmallHeap {
  /** 400,000 rows of about 200 characters: about 100 MB of build side rows on the heap. */
  private static final int ROWS = 400_000;

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "NO_SERVER_JOIN, warning=hash join spilled",
    "'', warning=Join of [PUBLIC.T]: its build side of"
  })
  void selfJoinLargerThanTheHeapCompletes(String hints, String warning) throws Exception {
    Path db = dir.resolve("db");
    String url = "jdbc:cairn:file:" + db;
    long checksum = 0;
    try (Connection c = DriverManager.getConnection(url + ";durability=SKIP");
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID BIGINT PRIMARY KEY, S VARCHAR(300))");
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
        String pad = "x".repeat(190);
        for (int i = 0; i < ROWS; i++) {
          String value = i + pad;
          ps.setLong(1, i);
          ps.setString(2, value);
          ps.addBatch();
          checksum += i + 2L * value.length();
          if (i % 10_000 == 9_999) {
            ps.executeBatch();
            c.commit();
          }
        }
        ps.executeBatch();
        c.commit();
      }
    }
    Path spill = dir.resolve("spill");
    String classpath =
        String.join(
                    File.pathSeparator,
                    Files.readAllLines(
                        Path.of(CairnLauncher.requiredProperty("cairn.it.classpathFile")), UTF_8))
                .strip()
            + File.pathSeparator
            + Path.of(
                SelfJoinInASmallHeap.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
    Path out = dir.resolve("out.txt");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-Dcairn.driver.spillDirectory=" + spill,
                "-cp",
                classpath,
                SelfJoinInASmallHeap.class.getName(),
                url,
                hints)
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    boolean ended = process.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    List<String> lines = Files.readAllLines(out, UTF_8);
    assertThat(ended).as("the join ended in time: %s", lines).isTrue();
    assertThat(process.exitValue()).as("exit value; output: %s", lines).isZero();
    assertThat(lines)
        .contains("rows=" + ROWS, "checksum=" + checksum)
        .anySatisfy(line -> assertThat(line).startsWith(warning));
    try (Stream<Path> left = Files.walk(spill)) {
      assertThat(left.filter(Files::isRegularFile)).isEmpty();
    }
  }
}
