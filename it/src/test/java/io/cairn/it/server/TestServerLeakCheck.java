package io.cairn.it.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the checker: the other server tests pass only if the server's log holds no leak report,
 * which proves nothing unless a leak does show up there. A process started with the server's JVM
 * options and classpath ({@link LeakingProcess}) leaks a Netty buffer and a Cairn pooled buffer;
 * the same check must report both.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerLeakCheck {
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  @Test
  void theLeakCheckFindsNettyAndCairnLeaks() throws Exception {
    Path log = temp.resolve("leaking.log");
    List<String> command = new ArrayList<>(ServerProcess.javaCommand("64m", List.of()));
    command.add(LeakingProcess.class.getName());
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the leaking process ends").isTrue();
    String text = Files.readString(log, UTF_8);
    assertThat(process.exitValue()).as("exit status; log:%n%s", text).isZero();

    List<String> reports = ServerProcess.leakReports(log);
    assertThat(reports)
        .as("leak reports found in%n%s", text)
        .anySatisfy(line -> assertThat(line).contains("LEAK: ByteBuf.release() was not called"))
        .anySatisfy(line -> assertThat(line).contains("leak-check"));
  }
}
