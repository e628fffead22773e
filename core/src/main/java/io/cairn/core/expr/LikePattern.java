package io.cairn.core.expr;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A compiled LIKE pattern: {@code %} matches any sequence, {@code _} any one character; the escape
 * character (default backslash, as in PostgreSQL and H2; an empty ESCAPE disables escaping) makes
 * the next character literal. Patterns of the shapes {@code abc}, {@code abc%}, {@code %abc} and
 * {@code %abc%} match without regular expressions.
 */
final class LikePattern {
  private LikePattern() {}

  static Predicate<String> compile(String pattern, String escape) {
    boolean escaping;
    int escapeChar = 0;
    if (escape == null) {
      escaping = true;
      escapeChar = '\\';
    } else if (escape.isEmpty()) {
      escaping = false;
    } else if (escape.codePointCount(0, escape.length()) == 1) {
      escaping = true;
      escapeChar = escape.codePointAt(0);
    } else {
      throw new CairnException(
          ErrorCode.INVALID_ESCAPE,
          "Invalid escape for LIKE: expected one character, found ["
              + escape
              + "] in pattern ["
              + pattern
              + "]");
    }
    StringBuilder regex = new StringBuilder(pattern.length() + 8);
    StringBuilder literal = new StringBuilder();
    // shape: the literal segments between wildcards, and which wildcards occur
    int percents = 0;
    int underscores = 0;
    boolean leadingPercent = false;
    boolean trailingPercent = false;
    int segments = 0;
    String onlyLiteral = "";
    int i = 0;
    while (i < pattern.length()) {
      int c = pattern.codePointAt(i);
      i += Character.charCount(c);
      if (escaping && c == escapeChar) {
        if (i >= pattern.length()) {
          throw new CairnException(
              ErrorCode.INVALID_ESCAPE,
              "LIKE pattern must not end with the escape character: [" + pattern + "]");
        }
        int next = pattern.codePointAt(i);
        i += Character.charCount(next);
        literal.appendCodePoint(next);
        trailingPercent = false;
        continue;
      }
      if (c == '%' || c == '_') {
        if (literal.length() > 0) {
          regex.append(Pattern.quote(literal.toString()));
          onlyLiteral = literal.toString();
          segments++;
          literal.setLength(0);
        }
        if (c == '%') {
          if (regex.length() == 0) {
            leadingPercent = true;
          }
          percents++;
          trailingPercent = true;
          regex.append(".*");
        } else {
          underscores++;
          trailingPercent = false;
          regex.append('.');
        }
        continue;
      }
      literal.appendCodePoint(c);
      trailingPercent = false;
    }
    if (literal.length() > 0) {
      regex.append(Pattern.quote(literal.toString()));
      onlyLiteral = literal.toString();
      segments++;
    }
    if (underscores == 0 && segments <= 1) {
      String text = onlyLiteral;
      if (percents == 0) {
        return s -> s.equals(text);
      }
      if (segments == 0) {
        return s -> true;
      }
      if (percents == 1 && trailingPercent) {
        return s -> s.startsWith(text);
      }
      if (percents == 1 && leadingPercent) {
        return s -> s.endsWith(text);
      }
      if (percents == 2 && leadingPercent && trailingPercent) {
        return s -> s.contains(text);
      }
    }
    Pattern compiled = Pattern.compile(regex.toString(), Pattern.DOTALL);
    return s -> compiled.matcher(s).matches();
  }
}
