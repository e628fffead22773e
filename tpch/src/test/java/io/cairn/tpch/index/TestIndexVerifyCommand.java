package io.cairn.tpch.index;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.server.rpc.CairnServer;
import io.cairn.server.rpc.ServerConfig;
import io.cairn.server.security.PasswordHasher;
import io.cairn.tpch.CairnTool;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
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
  void everyIndexOfTheTableIsCheckedOneLineEach() throws Exception {
    try (Statement s = keeper.createStatement()) {
      s.execute("CREATE INDEX T_NAME ON T (NAME)");
      s.execute("CREATE LOCAL INDEX T_NAME_ID ON T (NAME DESC, ID)");
    }
    assertThat(run("--url", URL, "t")).isZero();
    assertThat(out().lines())
        .hasSize(2)
        .allMatch(line -> line.contains(": consistent, 3 rows and 3 entries checked"))
        .anyMatch(line -> line.startsWith("T_NAME ON "))
        .anyMatch(line -> line.startsWith("T_NAME_ID ON "));
    assertThat(err()).isEmpty();
  }

  @Test
  void oneNamedIndexIsChecked() throws Exception {
    try (Statement s = keeper.createStatement()) {
      s.execute("CREATE INDEX T_NAME ON T (NAME)");
      s.execute("CREATE INDEX T_OTHER ON T (NAME, ID)");
    }
    assertThat(run("--url", URL, "T", "t_name")).isZero();
    assertThat(out().lines()).hasSize(1).first().asString().startsWith("T_NAME ON ");
  }

  @Test
  void aMissingIndexIsAUsageError() throws Exception {
    try (Statement s = keeper.createStatement()) {
      s.execute("CREATE INDEX T_NAME ON T (NAME)");
    }
    assertThat(run("--url", URL, "T", "NOPE")).isEqualTo(2);
    assertThat(err()).startsWith("cairn index verify: 42704 ").contains("NOPE");
    assertThat(out()).isEmpty();
  }

  @Test
  void verifiesOverTheServerAsAUser() throws Exception {
    String hash = PasswordHasher.hash("s3cret".toCharArray());
    try (CairnServer server =
        CairnServer.start(
            ServerConfig.from(Map.of("port", "0", "http.port", "-1", "user.ann", hash)))) {
      String url = "jdbc:cairn://127.0.0.1:" + server.port();
      Properties login = new Properties();
      login.setProperty("user", "ann");
      login.setProperty("password", "s3cret");
      try (Connection c = DriverManager.getConnection(url, login);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE R (ID INTEGER NOT NULL PRIMARY KEY, NAME VARCHAR(20))");
        s.execute("UPSERT INTO R VALUES (1, 'a'), (2, 'b')");
        s.execute("CREATE INDEX R_NAME ON R (NAME)");
      }
      assertThat(run("--url", url, "--user", "ann", "--password=s3cret", "R")).isZero();
      assertThat(out().lines())
          .singleElement()
          .asString()
          .startsWith("R_NAME ON ")
          .contains(": consistent, 2 rows and 2 entries checked, 0 missing, 0 extra");
      assertThat(run("--url", url, "--user", "ann", "--password=wrong", "R")).isEqualTo(1);
      assertThat(err()).startsWith("cairn index verify: 28");
    }
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
