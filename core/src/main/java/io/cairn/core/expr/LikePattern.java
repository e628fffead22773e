package io.cairn.core.expr;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A compiled LIKE pattern: {@code %} matches any sequence, {@code _} any one character; the escape
 * character (default backslash, as in PostgreSQL and H2; an empty ESCAPE disables escaping) makes
 * the next character literal. Patterns without {@code _} ({@code abc}, {@code abc%}, {@code
 * %abc%def%}, ...) match without regular expressions.
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
    int underscores = 0;
    boolean leadingPercent = false;
    boolean trailingPercent = false;
    java.util.List<String> parts = new java.util.ArrayList<>();
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
          parts.add(literal.toString());
          literal.setLength(0);
        }
        if (c == '%') {
          if (regex.length() == 0) {
            leadingPercent = true;
          }
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
      parts.add(literal.toString());
    }
    if (underscores == 0) {
      return segmentsInOrder(parts.toArray(new String[0]), leadingPercent, trailingPercent);
    }
    Pattern compiled = Pattern.compile(regex.toString(), Pattern.DOTALL);
    return s -> compiled.matcher(s).matches();
  }

  /**
   * A pattern of literal segments between {@code %}s ({@code abc}, {@code abc%}, {@code
   * %special%requests%}: TPC-H Q13): the segments found in order, each after the one before, the
   * first at the start unless the pattern starts with {@code %}, the last at the end unless it ends
   * with one.
   */
  private static Predicate<String> segmentsInOrder(
      String[] parts, boolean leadingPercent, boolean trailingPercent) {
    if (parts.length == 0) {
      return leadingPercent ? s -> true : String::isEmpty; // only %s, or the empty pattern
    }
    return s -> {
      int pos = 0;
      int first = 0;
      int last = parts.length;
      if (!leadingPercent) {
        if (!s.startsWith(parts[0])) {
          return false;
        }
        pos = parts[0].length();
        first = 1;
      }
      int end = s.length();
      if (!trailingPercent) {
        if (last == first) {
          return pos == end; // one segment, no %: the whole string
        }
        String tail = parts[last - 1];
        end = s.length() - tail.length();
        if (end < pos || !s.endsWith(tail)) {
          return false;
        }
        last--;
      }
      for (int k = first; k < last; k++) {
        int at = s.indexOf(parts[k], pos);
        if (at < 0 || at + parts[k].length() > end) {
          return false;
        }
        pos = at + parts[k].length();
      }
      return true;
    };
  }
}
