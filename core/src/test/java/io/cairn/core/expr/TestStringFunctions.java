package io.cairn.core.expr;

import static io.cairn.core.expr.ExprTesting.BOOL;
import static io.cairn.core.expr.ExprTesting.INT;
import static io.cairn.core.expr.ExprTesting.VC;
import static io.cairn.core.expr.ExprTesting.check;
import static io.cairn.core.expr.ExprTesting.checkConstant;
import static io.cairn.core.expr.ExprTesting.checkError;
import static io.cairn.core.expr.ExprTesting.lit;
import static io.cairn.core.expr.ExprTesting.nul;

import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TestStringFunctions {
  static Stream<Arguments> like() {
    return Stream.of(
        Arguments.of("abc", "abc", null, true),
        Arguments.of("abc", "ab", null, false),
        Arguments.of("abc", "a%", null, true),
        Arguments.of("abc", "%c", null, true),
        Arguments.of("abc", "%b%", null, true),
        Arguments.of("abc", "%x%", null, false),
        Arguments.of("abc", "%", null, true),
        Arguments.of("", "%", null, true),
        Arguments.of("", "_", null, false),
        Arguments.of("abc", "a_c", null, true),
        Arguments.of("abc", "___", null, true),
        Arguments.of("abc", "____", null, false),
        Arguments.of("abc", "a%b%c", null, true),
        Arguments.of("aXbYc", "a%b%c", null, true),
        Arguments.of("ABC", "abc", null, false), // case-sensitive
        Arguments.of("a.c", "a.c", null, true), // regex characters are literal
        Arguments.of("abc", "a.c", null, false),
        Arguments.of("a(b)*c", "a(b)*%", null, true),
        Arguments.of("line1\nline2", "line1%", null, true),
        Arguments.of("line1\nline2", "%1_l%", null, true),
        Arguments.of("\uD83D\uDE00", "_", null, true), // one code point
        Arguments.of("10%", "10\\%", null, true), // default escape: backslash
        Arguments.of("100", "10\\%", null, false),
        Arguments.of("a_c", "a!_c", "!", true),
        Arguments.of("abc", "a!_c", "!", false),
        Arguments.of("a!c", "a!!c", "!", true),
        Arguments.of("a%", "%!%", "!", true),
        Arguments.of("a\\b", "a\\b", "", true), // empty ESCAPE: no escaping
        Arguments.of("special #1", "%#%%", "#", false),
        Arguments.of("100%", "%#%", "#", true));
  }

  @ParameterizedTest
  @MethodSource
  void like(String value, String pattern, String escape, boolean expected) {
    if (escape == null) {
      check(expected, Op.LIKE, BOOL, lit(value), lit(pattern));
    } else {
      check(expected, Op.LIKE, BOOL, lit(value), lit(pattern), lit(escape));
    }
  }

  @Test
  void likeNullsAndChar() {
    check(null, Op.LIKE, BOOL, nul(VC), lit("a%"));
    check(null, Op.LIKE, BOOL, lit("a"), nul(VC));
    check(null, Op.LIKE, BOOL, lit("a"), lit("a"), nul(VC));
    check(true, Op.LIKE, BOOL, lit("ab   ", DataType.chars(5)), lit("%b"));
  }

  @Test
  void likeBadEscape() {
    checkError(ErrorCode.INVALID_ESCAPE, "[ab]", Op.LIKE, BOOL, lit("a"), lit("a"), lit("ab"));
    checkError(ErrorCode.INVALID_ESCAPE, "[a\\]", Op.LIKE, BOOL, lit("a"), lit("a\\"));
    checkError(ErrorCode.INVALID_ESCAPE, "[a!]", Op.LIKE, BOOL, lit("a"), lit("a!"), lit("!"));
  }

  @Test
  void concat() {
    check("ab", Op.CONCAT, VC, lit("a"), lit("b"));
    check("abc", Op.CONCAT, VC, lit("a"), lit("b"), lit("c"));
    check(null, Op.CONCAT, VC, lit("a"), nul(VC));
    check("a1", Op.CONCAT, VC, lit("a"), lit(1));
    check("a1.50", Op.CONCAT, VC, lit("a"), lit(ExprTesting.dec("1.50")));
    check("abx", Op.CONCAT, VC, lit("ab  ", DataType.chars(4)), lit("x"));
  }

  static Stream<Arguments> simple() {
    return Stream.of(
        Arguments.of(Op.UPPER, "Straße i", "STRASSE I"),
        Arguments.of(Op.LOWER, "ÀBC I", "àbc i"),
        Arguments.of(Op.INITCAP, "hello wORLD foo-bar 1st", "Hello World Foo-Bar 1st"),
        Arguments.of(Op.REVERSE, "ab\uD83D\uDE00c", "c\uD83D\uDE00ba"),
        Arguments.of(Op.LTRIM, "  a b  ", "a b  "),
        Arguments.of(Op.RTRIM, "  a b  ", "  a b"),
        Arguments.of(Op.UPPER, "", ""));
  }

  @ParameterizedTest
  @MethodSource
  void simple(Op op, String in, String out) {
    check(out, op, VC, lit(in));
    check(null, op, VC, nul(VC));
  }

  @Test
  void charLength() {
    check(3, Op.CHAR_LENGTH, INT, lit("abc"));
    check(0, Op.CHAR_LENGTH, INT, lit(""));
    check(2, Op.CHAR_LENGTH, INT, lit("a\uD83D\uDE00"));
    check(2, Op.CHAR_LENGTH, INT, lit("ab   ", DataType.chars(5)));
    check(3L, Op.CHAR_LENGTH, DataType.BIGINT, lit("ab "));
    check(null, Op.CHAR_LENGTH, INT, nul(VC));
  }

  static Stream<Arguments> substring() {
    return Stream.of(
        Arguments.of("hello", 2, null, "ello"),
        Arguments.of("hello", 2, 3, "ell"),
        Arguments.of("hello", 0, 3, "he"), // positions 0,1,2 -> only 1 and 2 exist
        Arguments.of("hello", -1, 3, "h"),
        Arguments.of("hello", -5, 3, ""),
        Arguments.of("hello", 1, 0, ""),
        Arguments.of("hello", 5, 10, "o"),
        Arguments.of("hello", 6, 1, ""),
        Arguments.of("hello", 100, null, ""),
        Arguments.of("hello", -3, null, "hello"),
        Arguments.of("a\uD83D\uDE00b", 2, 1, "\uD83D\uDE00"));
  }

  @ParameterizedTest
  @MethodSource
  void substring(String s, int from, Integer length, String expected) {
    if (length == null) {
      check(expected, Op.SUBSTRING, VC, lit(s), lit(from));
    } else {
      check(expected, Op.SUBSTRING, VC, lit(s), lit(from), lit(length));
    }
  }

  @Test
  void substringNullsAndNegativeLength() {
    check(null, Op.SUBSTRING, VC, nul(VC), lit(1));
    check(null, Op.SUBSTRING, VC, lit("a"), nul(INT));
    check(null, Op.SUBSTRING, VC, lit("a"), lit(1), nul(INT));
    checkError(ErrorCode.INVALID_ARGUMENT, "[-1]", Op.SUBSTRING, VC, lit("abc"), lit(1), lit(-1));
  }

  @Test
  void trim() {
    checkConstant("a b", Op.TRIM, VC, lit("BOTH"), lit(" "), lit("  a b  "));
    checkConstant("a b  ", Op.TRIM, VC, lit("LEADING"), lit(" "), lit("  a b  "));
    checkConstant("  a b", Op.TRIM, VC, lit("TRAILING"), lit(" "), lit("  a b  "));
    checkConstant("b", Op.TRIM, VC, lit("BOTH"), lit("xy"), lit("xyxbyy"));
    checkConstant("", Op.TRIM, VC, lit("BOTH"), lit("x"), lit("xxx"));
    checkConstant(null, Op.TRIM, VC, lit("BOTH"), lit(" "), nul(VC));
    check("abxx", Op.LTRIM, VC, lit("xxabxx"), lit("x"));
    check("xxab", Op.RTRIM, VC, lit("xxabxx"), lit("x"));
  }

  @Test
  void position() {
    check(3, Op.POSITION, INT, lit("c"), lit("abcabc"));
    check(0, Op.POSITION, INT, lit("x"), lit("abc"));
    check(1, Op.POSITION, INT, lit(""), lit("abc"));
    check(6, Op.POSITION, INT, lit("c"), lit("abcabc"), lit(4));
    check(0, Op.POSITION, INT, lit("c"), lit("abcabc"), lit(10));
    check(3, Op.POSITION, INT, lit("b"), lit("\uD83D\uDE00ab"));
    check(null, Op.POSITION, INT, nul(VC), lit("abc"));
  }

  @Test
  void replace() {
    check("xbxb", Op.REPLACE, VC, lit("abab"), lit("a"), lit("x"));
    check("bb", Op.REPLACE, VC, lit("abab"), lit("a"), lit(""));
    check("abab", Op.REPLACE, VC, lit("abab"), lit(""), lit("x"));
    check(null, Op.REPLACE, VC, lit("abab"), lit("a"), nul(VC));
  }

  @Test
  void pad() {
    check("  abc", Op.LPAD, VC, lit("abc"), lit(5));
    check("xyxabc", Op.LPAD, VC, lit("abc"), lit(6), lit("xy"));
    check("ab", Op.LPAD, VC, lit("abc"), lit(2));
    check("abc  ", Op.RPAD, VC, lit("abc"), lit(5));
    check("abcxyx", Op.RPAD, VC, lit("abc"), lit(6), lit("xy"));
    check("ab", Op.RPAD, VC, lit("abc"), lit(2), lit("xy"));
    check("", Op.RPAD, VC, lit("abc"), lit(-1));
    check("abc", Op.RPAD, VC, lit("abc"), lit(5), lit(""));
    check(null, Op.LPAD, VC, lit("abc"), nul(INT));
  }

  @Test
  void leftRightRepeat() {
    check("ab", Op.LEFT, VC, lit("abcd"), lit(2));
    check("abcd", Op.LEFT, VC, lit("abcd"), lit(10));
    check("ab", Op.LEFT, VC, lit("abcd"), lit(-2));
    check("", Op.LEFT, VC, lit("abcd"), lit(-10));
    check("cd", Op.RIGHT, VC, lit("abcd"), lit(2));
    check("cd", Op.RIGHT, VC, lit("abcd"), lit(-2));
    check("abcd", Op.RIGHT, VC, lit("abcd"), lit(10));
    check("", Op.RIGHT, VC, lit("abcd"), lit(0));
    check("ababab", Op.REPEAT, VC, lit("ab"), lit(3));
    check("", Op.REPEAT, VC, lit("ab"), lit(0));
    check("", Op.REPEAT, VC, lit("ab"), lit(-1));
    check(null, Op.REPEAT, VC, nul(VC), lit(2));
    checkError(
        ErrorCode.INVALID_ARGUMENT, "REPEAT", Op.REPEAT, VC, lit("ab"), lit(Integer.MAX_VALUE));
  }
}
