package io.cairn.sql.grammar;

import static java.util.Objects.requireNonNull;

import io.cairn.sql.tree.Statement;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Entry point of Cairn's DDL and dialect grammar.
 *
 * <p>{@link StatementClassifier} decides which statements are this grammar's ({@link #handles});
 * they go to {@link #parse}, all others (queries and DML) to Calcite. Thread-safe: the generated
 * recognisers share only ANTLR's internally synchronised DFA cache.
 */
public final class CairnSqlParser {
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
   * MAJOR_COMPACT TABLE, SPLIT TABLE, UPDATE STATISTICS name without SET, CREATE [UNIQUE] [LOCAL]
   * INDEX, DROP INDEX, ALTER INDEX, CHECK INDEX). Queries and DML (SELECT, UPSERT, INSERT, DELETE,
   * EXPLAIN, VALUES, WITH, ...) return false and belong to Calcite.
   */
  public static boolean handles(String sql) {
    return StatementClassifier.classify(sql).kind() == ClassifiedStatement.Kind.CAIRN_DDL;
  }

  private static CairnSqlBaseLexer newLexer(String sql) {
    CairnSqlBaseLexer lexer = new CairnSqlBaseLexer(CharStreams.fromString(sql));
    // UNRECOGNIZED matches any character, so the lexer has no errors to report.
    lexer.removeErrorListeners();
    return lexer;
  }
}
