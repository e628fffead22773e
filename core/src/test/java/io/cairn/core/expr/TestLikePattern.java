package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * {@link LikePattern} against a plain reference matcher, for random patterns of literals, {@code %}
 * and {@code _} (the shapes matched by segments in order and those by a regular expression) over
 * random strings of a small alphabet, so that prefixes, suffixes and overlaps are common.
 */
class TestLikePattern {
  private final Random random = new Random(20261128);

  @Test
  void compiledPatternsMatchAsLikeDoes() {
    for (int p = 0; p < 3000; p++) {
      String pattern = random(random.nextInt(7), "ab%%_");
      Predicate<String> like = LikePattern.compile(pattern, "");
      for (int t = 0; t < 40; t++) {
        String s = random(random.nextInt(8), "ab");
        assertThat(like.test(s))
            .as("[%s] LIKE [%s]", s, pattern)
            .isEqualTo(matches(s, 0, pattern, 0));
      }
    }
  }

  private String random(int length, String alphabet) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  /** LIKE by its definition: {@code %} any sequence, {@code _} one character, others themselves. */
  private static boolean matches(String s, int i, String pattern, int j) {
    if (j == pattern.length()) {
      return i == s.length();
    }
    char c = pattern.charAt(j);
    if (c == '%') {
      for (int k = i; k <= s.length(); k++) {
        if (matches(s, k, pattern, j + 1)) {
          return true;
        }
      }
      return false;
    }
    return i < s.length() && (c == '_' || c == s.charAt(i)) && matches(s, i + 1, pattern, j + 1);
  }
}
