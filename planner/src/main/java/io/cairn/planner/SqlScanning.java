package io.cairn.planner;

import io.cairn.sql.grammar.StatementClassifier;

/**
 * Character-level helpers for the two scans of SQL text that still run apart from {@link
 * StatementClassifier}: the ON DUPLICATE KEY clause ({@link OnDuplicateKeyClause#strip}) and the
 * parentheses' depth ({@link StatementDepth#checkParentheses}).
 */
final class SqlScanning {
  private SqlScanning() {}

  /** The index after the quoted text starting at {@code start} (doubled quotes escape). */
  static int skipQuoted(String text, int start) {
    return StatementClassifier.skipQuoted(text, start);
  }

  /**
   * The index of the first character at or after {@code from} past space and comments (not hints).
   */
  static int skipSpaceAndComments(String text, int from) {
    int i = from;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (text.startsWith("--", i)) {
        int nl = text.indexOf('\n', i);
        i = nl < 0 ? text.length() : nl + 1;
      } else if (text.startsWith("/*", i) && !text.startsWith("/*+", i)) {
        int end = text.indexOf("*/", i + 2);
        i = end < 0 ? text.length() : end + 2;
      } else {
        break;
      }
    }
    return i;
  }
}
