package io.cairn.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.jdbc.internal.engine.BuildProgress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TestTerminalProgress {
  @Test
  void printsOneLinePerReport() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    TerminalProgress terminal = new TerminalProgress(new PrintStream(bytes, true, UTF_8));
    terminal.progress(
        new BuildProgress("I", "PUBLIC.T", 65_536, 131_072, Duration.ofSeconds(1), false));
    terminal.progress(
        new BuildProgress("I", "PUBLIC.T", 131_072, 131_072, Duration.ofMillis(1500), true));
    assertThat(bytes.toString(UTF_8).lines())
        .containsExactly(
            "Building index I on PUBLIC.T: 65,536 rows (50%), 1.0 s",
            "Built index I on PUBLIC.T: 131,072 rows in 1.5 s");
  }
}
