package io.cairn.tpch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.tpch.bench.LineitemCommand;
import io.cairn.tpch.queries.TpchQueriesCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TestSuiteOptions {
  @TempDir Path tmp;

  @Test
  void eachCommandKeepsItsOwnDefaults() {
    CommandLine lineitem = new CommandLine(new LineitemCommand());
    lineitem.parseArgs();
    assertThat((Integer) lineitem.getCommandSpec().findOption("--runs").getValue()).isEqualTo(5);
    assertThat((Integer) lineitem.getCommandSpec().findOption("--warmups").getValue()).isEqualTo(1);

    CommandLine tpch = new CommandLine(new TpchQueriesCommand());
    tpch.parseArgs();
    assertThat((Integer) tpch.getCommandSpec().findOption("--runs").getValue()).isEqualTo(5);
    assertThat((Integer) tpch.getCommandSpec().findOption("--warmups").getValue()).isEqualTo(1);
    assertThat((Integer) tpch.getCommandSpec().findOption("--threads").getValue())
        .isEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void optionsAreParsedIntoTheMixin() {
    CommandLine lineitem = new CommandLine(new LineitemCommand());
    lineitem.parseArgs("--runs", "7", "--warmups", "2", "--threads", "3");
    assertThat((Integer) lineitem.getCommandSpec().findOption("--runs").getValue()).isEqualTo(7);
    assertThat((Integer) lineitem.getCommandSpec().findOption("--warmups").getValue()).isEqualTo(2);
    assertThat((Integer) lineitem.getCommandSpec().findOption("--threads").getValue()).isEqualTo(3);
  }

  @Test
  void scratchDirectoryIsCreatedOrTemporaryAndNeverAnExistingOne() throws Exception {
    Path wanted = tmp.resolve("a/b");
    assertThat(
            WorkDirectoryOptions.scratchDirectory(wanted, "unused", IllegalArgumentException::new))
        .isEqualTo(wanted)
        .isDirectory();
    assertThatThrownBy(
            () ->
                WorkDirectoryOptions.scratchDirectory(
                    wanted, "unused", IllegalArgumentException::new))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--dir: expected a path that does not exist, found [" + wanted + "]");
    Path temporary =
        WorkDirectoryOptions.scratchDirectory(null, "cairn-test", IllegalArgumentException::new);
    try {
      assertThat(temporary).isDirectory();
      assertThat(temporary.getFileName().toString()).startsWith("cairn-test");
    } finally {
      Files.delete(temporary);
    }
  }
}
