package io.cairn.tpch.index;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.tpch.CairnTool;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TestIndexVerifyCommand {
  private static final String URL = "jdbc:cairn:mem:index_verify_test";

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** Holds the in-memory database open for the test. */
  private Connection keeper;

  @BeforeEach
  void createTable() throws Exception {
    keeper = DriverManager.getConnection(URL);
    try (Statement s = keeper.createStatement()) {
      s.execute("DROP TABLE IF EXISTS T");
      s.execute("CREATE TABLE T (ID INTEGER NOT NULL PRIMARY KEY, NAME VARCHAR(20))");
      s.execute("UPSERT INTO T VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    }
  }

  @AfterEach
  void close() throws Exception {
    keeper.close();
  }

  private int run(String... args) {
    return new CommandLine(
            new IndexVerifyCommand(
                new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8)))
        .setErr(new PrintWriter(new OutputStreamWriter(err, UTF_8), true))
        .execute(args);
  }

  private String out() {
    return out.toString(UTF_8);
  }

  private String err() {
    return err.toString(UTF_8);
  }

  @Test
  void withoutATableIsAUsageError() {
    assertThat(CairnTool.run("index", "verify")).isEqualTo(2);
    assertThat(CairnTool.run("index")).isEqualTo(2);
    assertThat(run()).isEqualTo(2);
    assertThat(err()).contains("Missing required parameter: 'TABLE'");
  }

  @Test
  void helpSaysTheExitStatus() {
    assertThat(CairnTool.run("index", "verify", "--help")).isZero();
    String usage = new CommandLine(new IndexVerifyCommand()).getUsageMessage();
    assertThat(usage)
        .contains("--url", "--user", "--password", "TABLE", "INDEX", "CHECK INDEX")
        .contains("Exit status: 0")
        .contains(IndexVerifyCommand.DEFAULT_URL);
  }

  @Test
  void tooManyNamesAreAUsageError() {
    assertThat(run("--url", URL, "T", "I", "J")).isEqualTo(2);
    assertThat(run("--url", URL, "a.b.c")).isEqualTo(2);
    assertThat(err()).contains("Expected TABLE as [schema.]table; found [a.b.c]");
    assertThat(run("--url", URL, "T", "s.i")).isEqualTo(2);
    assertThat(err()).contains("Expected INDEX as a name");
    assertThat(run("--url", URL, "\"T")).isEqualTo(2);
  }

  @Test
  void namesFollowSqlIdentifierRules() {
    assertThat(IndexVerifyCommand.nameParts("lineitem")).containsExactly("LINEITEM");
    assertThat(IndexVerifyCommand.nameParts("app.orders")).containsExactly("APP", "ORDERS");
    assertThat(IndexVerifyCommand.nameParts("\"Mixed\".t")).containsExactly("Mixed", "T");
    assertThat(IndexVerifyCommand.nameParts("\"a.b\"")).containsExactly("a.b");
    assertThat(IndexVerifyCommand.nameParts("\"a\"\"b\"")).containsExactly("a\"b");
    assertThat(IndexVerifyCommand.nameParts("a..b")).isEmpty();
    assertThat(IndexVerifyCommand.nameParts("a\"b")).isEmpty();
    assertThat(IndexVerifyCommand.nameParts("")).isEmpty();
    assertThat(new IndexVerifyCommand.TableName("S", "my table").sql()).isEqualTo("S.\"my table\"");
    assertThat(new IndexVerifyCommand.TableName(null, "T").sql()).isEqualTo("T");
  }

  @Test
  void aMissingTableIsAUsageError() {
    assertThat(run("--url", URL, "nope")).isEqualTo(2);
    assertThat(err()).contains("table [NOPE] not found at [" + URL + "]");
    assertThat(run("--url", URL, "nope.t")).isEqualTo(2);
    assertThat(err()).contains("table [NOPE.T] not found");
  }

  @Test
  void aTableWithoutIndexesHasNothingToVerify() {
    assertThat(run("--url", URL, "--user", "ann", "--password=secret", "t")).isZero();
    assertThat(out()).isEqualTo("T has no indexes: nothing to verify" + System.lineSeparator());
  }

  @Test
  void anUnreachableServerFailsWithItsMessage() {
    assertThat(run("--url", "jdbc:cairn://127.0.0.1:1", "T")).isEqualTo(1);
    assertThat(err()).startsWith("cairn index verify: 08");
  }

  @Test
  void eachIndexIsOneLine() {
    assertThat(new IndexVerifyCommand.Check("I", "T", 1_000, 1_000, 0, 0, true, "").line())
        .isEqualTo("I ON T: consistent, 1,000 rows and 1,000 entries checked, 0 missing, 0 extra");
    assertThat(new IndexVerifyCommand.Check("I", "T", 3, 2, 1, 0, false, " missing: [k1] ").line())
        .isEqualTo(
            "I ON T: INCONSISTENT, 3 rows and 2 entries checked, 1 missing, 0 extra;"
                + " samples: missing: [k1]");
  }
}
