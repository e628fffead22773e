package io.cairn.sql.grammar;

import static java.util.Objects.requireNonNull;

import io.cairn.sql.tree.Statement;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.IntervalSet;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Entry point of Cairn's DDL and dialect grammar.
 *
 * <p>The driver asks {@link #handles} first; statements it accepts go to {@link #parse}, all others
 * (queries and DML) to Calcite. Thread-safe: the generated recognisers share only ANTLR's
 * internally synchronised DFA cache.
 */
public final class CairnSqlParser {
  /**
   * The leading keyword sequences of the statements this grammar owns. Adding a statement (CREATE
   * LOCAL INDEX, ...) adds its prefix here; UPDATE STATISTICS is decided in {@link #handles}.
   */
  private static final List<List<Integer>> OWNED_PREFIXES =
      List.of(
          List.of(CairnSqlBaseLexer.CREATE, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.DROP, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.FLUSH, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.COMPACT, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.SPLIT, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.MAJOR_COMPACT, CairnSqlBaseLexer.TABLE));

  /**
   * {@code ALTER TABLE name SET}: the only ALTER TABLE form this grammar owns. The other forms
   * (ADD, DROP COLUMN, RENAME, ...) are left to the planner, which reports them as not supported
   * rather than as syntax errors. Longest form: ALTER TABLE schema . name SET.
   */
  private static final int ALTER_TABLE_SET_LENGTH = 6;

  private static final int LONGEST_PREFIX =
      Math.max(
          ALTER_TABLE_SET_LENGTH, OWNED_PREFIXES.stream().mapToInt(List::size).max().orElse(0));

  /** Keywords that may be unquoted names (the grammar's nonReserved rule). */
  private static final IntervalSet NON_RESERVED =
      CairnSqlBaseParser._ATN.nextTokens(
          CairnSqlBaseParser._ATN.ruleToStartState[CairnSqlBaseParser.RULE_nonReserved]);

  private CairnSqlParser() {}

  /**
   * Parses one statement, optionally followed by a semicolon.
   *
   * @throws ParsingException on a syntax error or a statement that breaks a grammar-level rule
   */
  public static Statement parse(String sql) {
    requireNonNull(sql, "sql is null");
    CairnSqlBaseLexer lexer = newLexer(sql);
    CairnSqlBaseParser parser = new CairnSqlBaseParser(new CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(ThrowingErrorListener.INSTANCE);
    parser.setErrorHandler(new StrictErrorStrategy());
    // Full LL: statements are short, and one pass gives the best expected-token sets.
    parser.getInterpreter().setPredictionMode(PredictionMode.LL);
    try {
      return new AstBuilder().visit(parser.singleStatement());
    } catch (ParseCancellationException e) {
      // Only reached if a recovery path bypassed the listener; report where the parser stopped.
      Token token = parser.getCurrentToken();
      String found = ThrowingErrorListener.describeFound(token);
      throw ParsingException.syntaxError(
          "found [" + found + "]", token.getLine(), token.getCharPositionInLine() + 1, found);
    }
  }

  /**
   * Whether this grammar owns the statement, judged by its leading keywords after comments and
   * whitespace (CREATE TABLE, DROP TABLE, ALTER TABLE name SET, FLUSH TABLE, COMPACT TABLE,
   * MAJOR_COMPACT TABLE, SPLIT TABLE, UPDATE STATISTICS name without SET). Queries and DML (SELECT,
   * UPSERT, INSERT, DELETE, EXPLAIN, VALUES, WITH, ...) return false and belong to Calcite.
   */
  public static boolean handles(String sql) {
    requireNonNull(sql, "sql is null");
    CairnSqlBaseLexer lexer = newLexer(sql);
    List<Integer> leading = new ArrayList<>(LONGEST_PREFIX);
    while (leading.size() < LONGEST_PREFIX) {
      Token token = lexer.nextToken();
      if (token.getType() == Token.EOF) {
        break;
      }
      if (token.getChannel() == Token.DEFAULT_CHANNEL) {
        leading.add(token.getType());
      }
    }
    for (List<Integer> prefix : OWNED_PREFIXES) {
      if (leading.size() >= prefix.size() && leading.subList(0, prefix.size()).equals(prefix)) {
        return true;
      }
    }
    if (leading.size() >= 2
        && leading.get(0) == CairnSqlBaseLexer.UPDATE
        && leading.get(1) == CairnSqlBaseLexer.STATISTICS) {
      return !leading.contains(CairnSqlBaseLexer.SET) && !hasSet(lexer);
    }
    return isAlterTableSet(leading);
  }

  /**
   * Whether the rest of the statement has a SET: {@code UPDATE STATISTICS [[AS] alias] SET ...} is
   * an UPDATE of a table named STATISTICS, which belongs to Calcite.
   */
  private static boolean hasSet(CairnSqlBaseLexer lexer) {
    for (Token token = lexer.nextToken(); token.getType() != Token.EOF; token = lexer.nextToken()) {
      if (token.getType() == CairnSqlBaseLexer.SET) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the leading tokens read {@code ALTER TABLE name SET} or {@code ... schema.name SET}.
   */
  private static boolean isAlterTableSet(List<Integer> leading) {
    if (leading.size() < 4
        || leading.get(0) != CairnSqlBaseLexer.ALTER
        || leading.get(1) != CairnSqlBaseLexer.TABLE
        || !isName(leading.get(2))) {
      return false;
    }
    if (leading.get(3) == CairnSqlBaseLexer.SET) {
      return true;
    }
    return leading.size() >= 6
        && leading.get(3) == CairnSqlBaseLexer.DOT
        && isName(leading.get(4))
        && leading.get(5) == CairnSqlBaseLexer.SET;
  }

  private static boolean isName(int tokenType) {
    return tokenType == CairnSqlBaseLexer.IDENTIFIER
        || tokenType == CairnSqlBaseLexer.QUOTED_IDENTIFIER
        || NON_RESERVED.contains(tokenType);
  }

  private static CairnSqlBaseLexer newLexer(String sql) {
    CairnSqlBaseLexer lexer = new CairnSqlBaseLexer(CharStreams.fromString(sql));
    // UNRECOGNIZED matches any character, so the lexer has no errors to report.
    lexer.removeErrorListeners();
    return lexer;
  }
}
