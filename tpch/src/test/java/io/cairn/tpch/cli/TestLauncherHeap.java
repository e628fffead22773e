package io.cairn.tpch.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The heap options bin/cairn gives the measuring commands: {@code bench} and {@code pe} commit and
 * touch their whole heap at start (when it is at most half the machine's memory and JAVA_OPTS sets
 * neither), the other commands and {@code --help} do not. Runs the launcher's own functions in
 * bash.
 */
class TestLauncherHeap {
  private static final Path LAUNCHER =
      Path.of("..").toAbsolutePath().normalize().resolve("bin/cairn");

  @Test
  void benchAndPeTouchTheirHeapAtStart() throws Exception {
    assertThat(options(List.of("bench", "tpch", "--sf", "1"), Map.of()))
        .containsSubsequence("-Xmx64m", "-Xms64m", "-XX:+AlwaysPreTouch");
    assertThat(options(List.of("pe", "randomRead"), Map.of()))
        .contains("-Xms64m", "-XX:+AlwaysPreTouch");
  }

  @Test
  void otherCommandsAndHelpDoNot() throws Exception {
    for (List<String> command :
        List.of(
            List.of("tpch", "load", "--sf", "1"),
            List.of("bench", "--help"),
            List.of("bench", "lineitem", "-h"))) {
      assertThat(options(command, Map.of()))
          .as("%s", command)
          .contains("-Xmx64m")
          .doesNotContain("-Xms64m", "-XX:+AlwaysPreTouch");
    }
  }

  @Test
  void theUsersOptionsAndTheMachinesMemoryDecide() throws Exception {
    List<String> bench = List.of("bench", "tpch");
    assertThat(options(bench, Map.of("CAIRN_PRETOUCH", "0"))).doesNotContain("-XX:+AlwaysPreTouch");
    assertThat(options(bench, Map.of("JAVA_OPTS", "-Xms32m")))
        .contains("-Xms32m")
        .doesNotContain("-Xms64m", "-XX:+AlwaysPreTouch");
    assertThat(options(bench, Map.of("JAVA_OPTS", "-XX:-AlwaysPreTouch")))
        .doesNotContain("-Xms64m", "-XX:+AlwaysPreTouch");
    // more than half of any machine's memory, and a heap size the check cannot read
    assertThat(options(bench, Map.of("CAIRN_HEAP", "999999t")))
        .contains("-Xmx999999t")
        .doesNotContain("-XX:+AlwaysPreTouch");
    assertThat(options(bench, Map.of("CAIRN_HEAP", "1.5g"))).doesNotContain("-XX:+AlwaysPreTouch");
  }

  /** The JVM options bin/cairn computes for the tool command {@code args}. */
  private static List<String> options(List<String> args, Map<String, String> env) throws Exception {
    ProcessBuilder p =
        new ProcessBuilder(
                "bash",
                "-c",
                "source \"$1\"; shift; CAIRN_HEAP=\"${CAIRN_HEAP:-64m}\";"
                    + " if measures \"$@\"; then PRETOUCH_HEAP=1; fi;"
                    + " compute_jvm_opts; printf '%s\\n' \"${JVM_OPTS[@]}\"",
                "heap-options",
                LAUNCHER.toString())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    p.command().addAll(args);
    p.environment().remove("JAVA_OPTS");
    p.environment().remove("CAIRN_HEAP");
    p.environment().remove("CAIRN_PRETOUCH");
    p.environment().putAll(env);
    Process process = p.start();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertThat(process.waitFor()).as(out).isZero();
    return out.lines().toList();
  }
}
