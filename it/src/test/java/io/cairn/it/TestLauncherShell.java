package io.cairn.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.it.SqllineTables.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/cairn shell URL --run=script.sql} end to end, on the embedded store. */
final class TestLauncherShell {
  private static final String SCRIPT =
      """
      CREATE TABLE launcher_it (id INTEGER PRIMARY KEY, name VARCHAR(20), qty INTEGER);
      UPSERT INTO launcher_it VALUES (1, 'a', 10);
      UPSERT INTO launcher_it VALUES (2, 'b', 20);
      UPSERT INTO launcher_it VALUES (3, 'a', 5);
      SELECT id, name, qty FROM launcher_it WHERE id > 1 ORDER BY id;
      SELECT name, SUM(qty) AS total FROM launcher_it GROUP BY name ORDER BY name;
      EXPLAIN SELECT * FROM launcher_it WHERE id = 2;
      """;

  @Test
  void runsScriptThroughSqllineOnEmbeddedStore(@TempDir Path dir) throws Exception {
    Path script = dir.resolve("launcher.sql");
    Files.writeString(script, SCRIPT, UTF_8);

    CairnLauncher.Result result =
        CairnLauncher.run(dir, "shell", "jdbc:cairn:mem:it", "--run=" + script);

    // sqlline exits non-zero when a statement fails (it stops at the first one).
    assertThat(result.exitCode()).as(result.describe()).isZero();
    assertThat(result.stderr()).as(result.describe()).doesNotContain("Error:");

    // Results go to stdout, the echoed statements to stderr: only the tables are parsed.
    List<Table> tables = SqllineTables.parse(result.stdout());
    assertThat(tables).as(result.describe()).hasSize(3);

    Table filtered = tables.get(0);
    assertThat(upper(filtered.header())).containsExactly("ID", "NAME", "QTY");
    assertThat(filtered.rows()).containsExactly(List.of("2", "b", "20"), List.of("3", "a", "5"));

    Table grouped = tables.get(1);
    assertThat(upper(grouped.header())).containsExactly("NAME", "TOTAL");
    assertThat(grouped.rows()).containsExactly(List.of("a", "15"), List.of("b", "20"));

    Table plan = tables.get(2);
    assertThat(plan.body()).as("the plan names the table").containsIgnoringCase("LAUNCHER_IT");
  }

  private static List<String> upper(List<String> cells) {
    return cells.stream().map(cell -> cell.toUpperCase(Locale.ROOT)).toList();
  }
}
