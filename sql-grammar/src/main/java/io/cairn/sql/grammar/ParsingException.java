package io.cairn.sql.grammar;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * A statement that Cairn's grammar rejects: a syntax error, or a check done while building the tree
 * (duplicate column, two primary keys, duplicate option...). Positions are 1-based and point at the
 * offending token.
 */
public class ParsingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String errorMessage;
  private final int line;
  private final int column;
  private final String offendingToken;

  private ParsingException(
      String kind, String errorMessage, int line, int column, String offendingToken) {
    super(
        String.format(
            Locale.ROOT, "%s at line %d, column %d: %s", kind, line, column, errorMessage));
    this.errorMessage = requireNonNull(errorMessage, "errorMessage is null");
    this.line = line;
    this.column = column;
    this.offendingToken = requireNonNull(offendingToken, "offendingToken is null");
  }

  /** A statement that does not match the grammar. */
  public static ParsingException syntaxError(
      String errorMessage, int line, int column, String offendingToken) {
    return new ParsingException("Syntax error", errorMessage, line, column, offendingToken);
  }

  /** A statement that matches the grammar but breaks a rule checked while building the tree. */
  public static ParsingException invalidStatement(
      String errorMessage, int line, int column, String offendingToken) {
    return new ParsingException("Invalid statement", errorMessage, line, column, offendingToken);
  }

  /** The message without the position prefix. */
  public String errorMessage() {
    return errorMessage;
  }

  /** 1-based line of the offending token. */
  public int line() {
    return line;
  }

  /** 1-based column of the offending token's first character. */
  public int column() {
    return column;
  }

  /** The offending token as written, or {@code <EOF>} at the end of the input. */
  public String offendingToken() {
    return offendingToken;
  }
}
