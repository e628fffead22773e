package io.cairn.sql.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

class TestParsingErrors {
  @Test
  void messageFormat() {
    ParsingException e = parseFails("CREATE TABLE t (a INT PRIMARY KEY b INT)");
    assertThat(e)
        .hasMessage("Syntax error at line 1, column 35: found [b], expected one of [',', ')']");
    assertThat(e.line()).isEqualTo(1);
    assertThat(e.column()).isEqualTo(35);
    assertThat(e.offendingToken()).isEqualTo("b");
    assertThat(e.errorMessage()).isEqualTo("found [b], expected one of [',', ')']");
  }

  @Test
  void syntaxErrors() {
    assertError("CREATE TABLE (a INT)", 1, 14, "(", "expected one of [<identifier>]");
    assertError("CREATE TABLE t a INT", 1, 16, "a", "expected one of ['(']");
    assertError("CREATE TABLE t ()", 1, 17, ")", "expected one of [<identifier>]");
    assertError("CREATE TABLE t (a)", 1, 18, ")", "");
    assertError("CREATE TABLE t (a INT,)", 1, 23, ")", "");
    assertError("CREATE TABLE t (a FOO)", 1, 19, "FOO", "");
    assertError("CREATE TABLE t (a INT", 1, 22, "<EOF>", "");
    assertError("CREATE TABLE t (a INT) PRIMARY KEY (a)", 1, 24, "PRIMARY", "");
    assertError("CREATE TABLE t (a DECIMAL(10,))", 1, 30, ")", "expected one of [<integer>]");
    assertError("CREATE TABLE t (a VARCHAR(x))", 1, 27, "x", "expected one of [<integer>]");
    assertError("CREATE TABLE t (a INT DEFAULT)", 1, 30, ")", "");
    assertError("CREATE TABLE t (a INT DEFAULT 0 PRIMARY KEY)", 1, 33, "PRIMARY", "");
    assertError("CREATE TABLE t (a INT) SALT_BUCKETS", 1, 36, "<EOF>", "expected one of ['=']");
    assertError("CREATE TABLE t (a INT) X=", 1, 26, "<EOF>", "");
    assertError("CREATE TABLE t (a INT) X=1 SPLIT ON ()", 1, 38, ")", "");
    assertError("CREATE TABLE t (a INT) SPLIT ON (1", 1, 35, "<EOF>", "");
    assertError("DROP TABLE", 1, 11, "<EOF>", "");
    assertError("DROP TABLE t t2", 1, 14, "t2", "");
    assertError("DROP TABLE t;;", 1, 14, ";", "expected one of [<EOF>]");
    assertError("DROP TABLE IF NOT EXISTS t", 1, 15, "NOT", "");
    assertError("DROP TABLE a.b.c", 1, 15, ".", "");
    assertError("DROP VIEW v", 1, 6, "VIEW", "expected one of [INDEX, TABLE]");
    assertError("ALTER TABLE t SET", 1, 18, "<EOF>", "");
    assertError("ALTER TABLE t SET TTL", 1, 22, "<EOF>", "expected one of ['=']");
    assertError("ALTER TABLE t SET TTL=1,", 1, 25, "<EOF>", "");
    assertError("FLUSH TABLE", 1, 12, "<EOF>", "");
    assertError("COMPACT TABLE t t", 1, 17, "t", "");
    assertError("MAJOR_COMPACT TABLE a.b.c", 1, 24, ".", "");
    assertError("CREATE INDEX i ON t", 1, 20, "<EOF>", "");
    assertError("CREATE INDEX i ON t ()", 1, 22, ")", "");
    assertError("CREATE INDEX i t (a)", 1, 16, "t", "expected one of [ON]");
    assertError("CREATE INDEX ON t (a)", 1, 14, "ON", "expected one of [<identifier>]");
    assertError("CREATE INDEX i ON t (a,)", 1, 24, ")", "");
    assertError("CREATE INDEX i ON t (a ASC DESC)", 1, 28, "DESC", "");
    assertError("CREATE INDEX i ON t (a) INCLUDE ()", 1, 34, ")", "");
    assertError("CREATE INDEX i ON t (a) INCLUDE (b + 1)", 1, 36, "+", "");
    assertError("CREATE LOCAL TABLE t (a INT)", 1, 14, "TABLE", "expected one of [INDEX]");
    assertError("DROP INDEX i ON", 1, 16, "<EOF>", "");
    assertError("DROP INDEX a.b.c", 1, 15, ".", "");
    assertError("ALTER INDEX i ON t", 1, 19, "<EOF>", "");
    assertError("CHECK INDEX", 1, 12, "<EOF>", "");
    assertError("CHECK INDEX i ON t REBUILD", 1, 20, "REBUILD", "");
    assertError("SELECT 1", 1, 1, "SELECT", "");
    assertError("", 1, 1, "<EOF>", "");
  }

  @Test
  void errorPositionsOnLaterLines() {
    assertError("CREATE TABLE t (\n  a INT,\n  b INT NOT,\n  c INT)", 3, 12, ",", "");
    assertError("-- comment\n/* block\ncomment */ DROP TABLE 1", 3, 23, "1", "");
  }

  @Test
  void unterminatedTokens() {
    assertError("CREATE TABLE t (a INT) X='abc", 1, 26, "'", "");
    assertError("CREATE TABLE \"abc (a INT)", 1, 14, "\"", "");
    assertError("DROP TABLE t /* unterminated", 1, 14, "/", "");
    assertError("CREATE TABLE t (a INT DEFAULT 'abc)", 1, 31, "'", "");
  }

  @Test
  void unterminatedHints() {
    assertThat(parseFails("CREATE TABLE t (a INT) X='abc").errorMessage())
        .startsWith("found ['] (unterminated string literal), expected one of");
    assertThat(parseFails("DROP TABLE \"abc").errorMessage())
        .startsWith("found [\"] (unterminated quoted identifier), expected one of");
    assertThat(parseFails("DROP TABLE t /* abc").errorMessage())
        .isEqualTo("found [/] (unterminated comment), expected one of [<EOF>, ';']");
    assertThat(parseFails("DROP TABLE t / 2").errorMessage())
        .isEqualTo("found [/], expected one of [<EOF>, ';']");
  }

  @Test
  void nullabilityAfterDefault() {
    assertInvalid(
        "CREATE TABLE t (a INT DEFAULT 0 NOT NULL)",
        1,
        33,
        "NOT",
        "NOT NULL must come before DEFAULT in a column definition");
    assertInvalid(
        "CREATE TABLE t (a VARCHAR DEFAULT f('x') null)",
        1,
        42,
        "null",
        "NULL must come before DEFAULT in a column definition");
  }

  @Test
  void duplicateColumnName() {
    assertInvalid(
        "CREATE TABLE t (a INT, b INT, A VARCHAR)", 1, 31, "A", "duplicate column name [A]");
    assertInvalid(
        "CREATE TABLE t (\"x\" INT,\n  \"x\" INT)", 2, 3, "\"x\"", "duplicate column name [x]");
  }

  @Test
  void inlineAndTableLevelPrimaryKey() {
    assertInvalid(
        "CREATE TABLE t (a INT PRIMARY KEY, b INT, CONSTRAINT pk PRIMARY KEY (a, b))",
        1,
        43,
        "CONSTRAINT",
        "table-level PRIMARY KEY conflicts with the inline PRIMARY KEY on column [A]");
    assertInvalid(
        "CREATE TABLE t (a INT PRIMARY KEY, PRIMARY KEY (a))",
        1,
        36,
        "PRIMARY",
        "table-level PRIMARY KEY conflicts with the inline PRIMARY KEY on column [A]");
    assertInvalid(
        "CREATE TABLE t (a INT PRIMARY KEY, b INT PRIMARY KEY)",
        1,
        42,
        "PRIMARY",
        "column [B] is a second inline PRIMARY KEY; use a table-level PRIMARY KEY (...) for a"
            + " composite key");
  }

  @Test
  void primaryKeyColumns() {
    assertInvalid(
        "CREATE TABLE t (a INT, PRIMARY KEY (a, b))",
        1,
        40,
        "b",
        "PRIMARY KEY column [B] is not defined");
    assertInvalid(
        "CREATE TABLE t (a INT, PRIMARY KEY (a, A DESC))",
        1,
        40,
        "A",
        "column [A] appears twice in PRIMARY KEY");
  }

  @Test
  void duplicateOption() {
    assertInvalid(
        "CREATE TABLE t (a INT) TTL=1, COMPRESSION=ZSTD, ttl=2",
        1,
        49,
        "ttl",
        "duplicate table option [TTL]");
  }

  @Test
  void duplicateAlterOption() {
    assertInvalid("ALTER TABLE t SET TTL=1, ttl=2", 1, 26, "ttl", "duplicate table option [TTL]");
  }

  @Test
  void typeArguments() {
    assertInvalid(
        "CREATE TABLE t (a DECIMAL(5, 6))", 1, 30, "6", "scale [6] is greater than precision [5]");
    assertInvalid(
        "CREATE TABLE t (a VARCHAR(0))", 1, 27, "0", "length must be at least 1, found [0]");
    assertInvalid(
        "CREATE TABLE t (a CHAR(99999999999))",
        1,
        24,
        "99999999999",
        "length [99999999999] is out of range");
  }

  @Test
  void duplicateIncludeColumn() {
    assertInvalid(
        "CREATE INDEX i ON t (a) INCLUDE (b, c, B)",
        1,
        40,
        "B",
        "column [B] appears twice in INCLUDE");
  }

  @Test
  void zeroLengthQuotedIdentifier() {
    assertInvalid("DROP TABLE \"\"", 1, 12, "\"\"", "zero-length delimited identifier");
  }

  private static void assertError(
      String sql, int line, int column, String token, String expectedPart) {
    ParsingException e = parseFails(sql);
    assertThat(e.getMessage())
        .as(sql)
        .startsWith(
            "Syntax error at line " + line + ", column " + column + ": found [" + token + "]");
    assertThat(e.line()).as(sql).isEqualTo(line);
    assertThat(e.column()).as(sql).isEqualTo(column);
    assertThat(e.offendingToken()).as(sql).isEqualTo(token);
    assertThat(e.getMessage()).as(sql).contains(expectedPart);
  }

  private static void assertInvalid(
      String sql, int line, int column, String token, String message) {
    ParsingException e = parseFails(sql);
    assertThat(e)
        .as(sql)
        .hasMessage("Invalid statement at line %d, column %d: %s", line, column, message);
    assertThat(e.line()).isEqualTo(line);
    assertThat(e.column()).isEqualTo(column);
    assertThat(e.offendingToken()).isEqualTo(token);
  }

  private static ParsingException parseFails(String sql) {
    ParsingException e =
        catchThrowableOfType(ParsingException.class, () -> CairnSqlParser.parse(sql));
    assertThat(e).as("expected a ParsingException for: %s", sql).isNotNull();
    return e;
  }
}
