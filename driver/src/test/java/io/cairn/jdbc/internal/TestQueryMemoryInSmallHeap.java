package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.jdbc.internal.exec.spill.SpillSpace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A GROUP BY of 1M groups and an ORDER BY of a 9M-row join in a JVM of 256 MB complete, spilling to
 * disk past the driver's JVM-wide limit (half the heap), not with an OutOfMemoryError, leave no
 * spill file, and the same JVM then runs a small query: the driver's default budget holds.
 */
class TestQueryMemoryInSmallHeap {
  @Test
  void bigQueriesSpillAndTheJvmGoesOn() throws Exception {
    Path dir = Paths.get("target", "small-heap").toAbsolutePath();
    Files.createDirectories(dir);
    Path out = dir.resolve("out-" + System.nanoTime() + ".txt");
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    Path spill = dir.resolve("spill-" + System.nanoTime());
    command.add("-D" + SpillSpace.DIRECTORY_PROPERTY + "=" + spill);
    command.add("-cp");
    String surefire = System.getProperty("surefire.test.class.path");
    command.add(
        surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path"));
    command.add(SmallHeapQueries.class.getName());
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("The child JVM did not finish in 120 s: " + read(out));
    }
    String output = read(out);
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output)
        .doesNotContain("OutOfMemoryError")
        .doesNotContain("THROWABLE")
        .contains("GROUPBY OK 1000000")
        .contains("ORDERBY OK 9000000")
        .contains("SMALL OK 3000")
        .contains("POOL 0");
    try (Stream<Path> left = Files.walk(spill)) {
      assertThat(left.filter(Files::isRegularFile)).isEmpty();
    }
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
  }
}
