package io.cairn.sql.grammar;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Turns the first syntax error into a {@link ParsingException} that says what was found and what
 * was expected, e.g. {@code found [PRIMARY], expected one of [',', ')']}. Token sets that stand for
 * a category are shown as the category: {@code <identifier>} for identifiers and non-reserved
 * keywords, {@code <expression>} for any token that can start an expression.
 */
final class ThrowingErrorListener extends BaseErrorListener {
  static final ThrowingErrorListener INSTANCE = new ThrowingErrorListener();

  private static final IntervalSet IDENTIFIER_START = firstSet(CairnSqlBaseParser.RULE_identifier);
  private static final IntervalSet EXPRESSION_START =
      firstSet(CairnSqlBaseParser.RULE_expressionToken);

  private ThrowingErrorListener() {}

  @Override
  public void syntaxError(
      Recognizer<?, ?> recognizer,
      Object offendingSymbol,
      int line,
      int charPositionInLine,
      String msg,
      RecognitionException e) {
    Token token = (Token) offendingSymbol;
    String found = describeFound(token);
    IntervalSet expected = null;
    if (e != null && e.getExpectedTokens() != null) {
      expected = e.getExpectedTokens();
    } else if (recognizer instanceof Parser) {
      expected = ((Parser) recognizer).getExpectedTokens();
    }
    String message = "found [" + found + "]" + unterminatedHint(token);
    if (expected != null && !expected.isNil()) {
      message += ", expected one of " + describeExpected(expected, recognizer);
    }
    throw ParsingException.syntaxError(message, line, charPositionInLine + 1, found);
  }

  static String describeFound(Token token) {
    if (token == null) {
      return "<unknown>";
    }
    return token.getType() == Token.EOF ? "<EOF>" : token.getText();
  }

  /** The lexer turns the opening of an unterminated literal or comment into one stray token. */
  private static String unterminatedHint(Token token) {
    if (token == null) {
      return "";
    }
    if (token.getType() == CairnSqlBaseLexer.SLASH && "*".equals(nextCharacter(token))) {
      return " (unterminated comment)";
    }
    if (token.getType() != CairnSqlBaseLexer.UNRECOGNIZED) {
      return "";
    }
    switch (token.getText()) {
      case "'":
        return " (unterminated string literal)";
      case "\"":
        return " (unterminated quoted identifier)";
      default:
        return "";
    }
  }

  private static String nextCharacter(Token token) {
    int index = token.getStopIndex() + 1;
    if (index >= token.getInputStream().size()) {
      return "";
    }
    return token.getInputStream().getText(Interval.of(index, index));
  }

  private static String describeExpected(IntervalSet expected, Recognizer<?, ?> recognizer) {
    IntervalSet remaining = new IntervalSet(expected);
    List<String> categories = new ArrayList<>();
    if (remaining.and(EXPRESSION_START).size() == EXPRESSION_START.size()) {
      remaining = remaining.subtract(EXPRESSION_START);
      categories.add("<expression>");
    }
    if (remaining.contains(CairnSqlBaseLexer.IDENTIFIER)) {
      remaining = remaining.subtract(IDENTIFIER_START);
      categories.add("<identifier>");
    }
    Vocabulary vocabulary = recognizer.getVocabulary();
    Set<String> names = new LinkedHashSet<>();
    for (int type : remaining.toArray()) {
      names.add(displayName(type, vocabulary));
    }
    names.addAll(categories);
    return "[" + String.join(", ", names) + "]";
  }

  private static String displayName(int type, Vocabulary vocabulary) {
    switch (type) {
      case Token.EOF:
        return "<EOF>";
      case CairnSqlBaseLexer.IDENTIFIER:
      case CairnSqlBaseLexer.QUOTED_IDENTIFIER:
        return "<identifier>";
      case CairnSqlBaseLexer.STRING:
        return "<string>";
      case CairnSqlBaseLexer.INTEGER_VALUE:
        return "<integer>";
      case CairnSqlBaseLexer.DECIMAL_VALUE:
      case CairnSqlBaseLexer.DOUBLE_VALUE:
        return "<number>";
      default:
        break;
    }
    String literal = vocabulary.getLiteralName(type);
    if (literal == null) {
      return vocabulary.getDisplayName(type);
    }
    String unquoted = literal.substring(1, literal.length() - 1);
    // Keywords read better bare; punctuation stays quoted.
    return Character.isLetter(unquoted.charAt(0)) ? unquoted : literal;
  }

  private static IntervalSet firstSet(int ruleIndex) {
    ATN atn = CairnSqlBaseParser._ATN;
    return atn.nextTokens(atn.ruleToStartState[ruleIndex]);
  }
}
