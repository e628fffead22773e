package io.cairn.core.expr;

import static io.cairn.core.expr.ExprCompiler.checkArity;
import static io.cairn.core.expr.ExprCompiler.constantArgument;
import static io.cairn.core.expr.ExprCompiler.strict1;
import static io.cairn.core.expr.ExprCompiler.strict2;
import static io.cairn.core.expr.ExprCompiler.strictN;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * String operators. Lengths and positions count Unicode code points. CHAR(n) operands lose their
 * trailing spaces in LIKE, CONCAT and CHAR_LENGTH (PostgreSQL's char to text conversion).
 */
final class StringFunctions {
  /** Upper bound on strings built by REPEAT/LPAD/RPAD, to fail cleanly instead of OOM. */
  static final int MAX_RESULT_LENGTH = 1 << 28;

  private StringFunctions() {}

  static RowExpression compile(Expr.Call call, List<RowExpression> args) {
    List<Expr> operands = call.operands();
    DataType result = call.type();
    return switch (call.op()) {
      case LIKE -> like(call, args);
      case CONCAT -> {
        List<RowExpression> texts = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
          texts.add(text(args.get(i), operands.get(i).type()));
        }
        yield strictN(
            texts,
            values -> {
              StringBuilder sb = new StringBuilder();
              for (Object v : values) {
                sb.append((String) v);
              }
              return sb.toString();
            });
      }
      case UPPER -> {
        checkArity(call, 1, 1);
        yield strict1(args.get(0), v -> ((String) v).toUpperCase(Locale.ROOT));
      }
      case LOWER -> {
        checkArity(call, 1, 1);
        yield strict1(args.get(0), v -> ((String) v).toLowerCase(Locale.ROOT));
      }
      case SUBSTRING -> {
        checkArity(call, 2, 3);
        yield strictN(
            args,
            v ->
                substring(
                    (String) v[0],
                    toInt(v[1]),
                    v.length > 2 ? ((Number) v[2]).longValue() : Long.MAX_VALUE));
      }
      case TRIM -> {
        checkArity(call, 3, 3);
        String flag = String.valueOf(constantArgument(call, args, 0)).toUpperCase(Locale.ROOT);
        boolean leading = !flag.equals("TRAILING");
        boolean trailing = !flag.equals("LEADING");
        if (!flag.equals("BOTH") && !flag.equals("LEADING") && !flag.equals("TRAILING")) {
          throw new CairnException(
              ErrorCode.INVALID_ARGUMENT,
              "TRIM: expected BOTH, LEADING or TRAILING, found [" + flag + "]");
        }
        yield strict2(
            args.get(2),
            args.get(1),
            (s, chars) -> trim((String) s, (String) chars, leading, trailing));
      }
      case LTRIM, RTRIM -> {
        checkArity(call, 1, 2);
        boolean leading = call.op() == Op.LTRIM;
        RowExpression chars = args.size() > 1 ? args.get(1) : new ExprCompiler.Constant(" ");
        yield strict2(
            args.get(0), chars, (s, c) -> trim((String) s, (String) c, leading, !leading));
      }
      case CHAR_LENGTH -> {
        checkArity(call, 1, 1);
        RowExpression s = text(args.get(0), operands.get(0).type());
        yield strict1(
            s,
            v ->
                ExprCompiler.conform(
                    ((String) v).codePointCount(0, ((String) v).length()), result));
      }
      case POSITION -> {
        checkArity(call, 2, 3);
        yield strictN(
            args,
            v -> position((String) v[0], (String) v[1], v.length > 2 ? toInt(v[2]) : 1, result));
      }
      case REPLACE -> {
        checkArity(call, 3, 3);
        yield strictN(
            args,
            v -> {
              String from = (String) v[1];
              return from.isEmpty() ? v[0] : ((String) v[0]).replace(from, (String) v[2]);
            });
      }
      case INITCAP -> {
        checkArity(call, 1, 1);
        yield strict1(args.get(0), v -> initcap((String) v));
      }
      case LPAD, RPAD -> {
        checkArity(call, 2, 3);
        boolean left = call.op() == Op.LPAD;
        yield strictN(
            args, v -> pad((String) v[0], toInt(v[1]), v.length > 2 ? (String) v[2] : " ", left));
      }
      case REVERSE -> {
        checkArity(call, 1, 1);
        yield strict1(args.get(0), v -> new StringBuilder((String) v).reverse().toString());
      }
      case LEFT, RIGHT -> {
        checkArity(call, 2, 2);
        boolean left = call.op() == Op.LEFT;
        yield strict2(args.get(0), args.get(1), (s, n) -> leftRight((String) s, toInt(n), left));
      }
      case REPEAT -> {
        checkArity(call, 2, 2);
        yield strict2(
            args.get(0),
            args.get(1),
            (s, n) -> {
              int count = Math.max(toInt(n), 0);
              String str = (String) s;
              if ((long) count * str.length() > MAX_RESULT_LENGTH) {
                throw tooLong("REPEAT", (long) count * str.length());
              }
              return str.repeat(count);
            });
      }
      default -> throw CairnException.internal("Not a string function: [" + call.op() + "]");
    };
  }

  /** The operand as text: CHAR loses its padding, non-strings get their canonical text. */
  private static RowExpression text(RowExpression e, DataType type) {
    if (type.name() == TypeName.CHAR) {
      return strict1(e, v -> Values.stripTrailingSpaces((String) v));
    }
    if (type.name() == TypeName.VARCHAR) {
      return e;
    }
    return strict1(e, v -> v instanceof String ? v : Values.toText(v));
  }

  private static RowExpression like(Expr.Call call, List<RowExpression> args) {
    checkArity(call, 2, 3);
    RowExpression value = text(args.get(0), call.operands().get(0).type());
    RowExpression pattern = args.get(1);
    RowExpression escape = args.size() > 2 ? args.get(2) : null;
    if (pattern instanceof ExprCompiler.Constant p
        && (escape == null || escape instanceof ExprCompiler.Constant)) {
      Object escapeValue = escape == null ? null : ((ExprCompiler.Constant) escape).value();
      if (p.value() == null || (escape != null && escapeValue == null)) {
        return new ExprCompiler.Constant(null);
      }
      Predicate<String> matcher = LikePattern.compile((String) p.value(), (String) escapeValue);
      return strict1(value, v -> matcher.test((String) v));
    }
    if (escape == null) {
      return strict2(
          value, pattern, (v, p) -> LikePattern.compile((String) p, null).test((String) v));
    }
    return strictN(
        List.of(value, pattern, escape),
        v -> LikePattern.compile((String) v[1], (String) v[2]).test((String) v[0]));
  }

  static int toInt(Object n) {
    long l = ((Number) n).longValue();
    return l > Integer.MAX_VALUE
        ? Integer.MAX_VALUE
        : l < Integer.MIN_VALUE ? Integer.MIN_VALUE : (int) l;
  }

  private static int length(String s) {
    return s.codePointCount(0, s.length());
  }

  /** Code points [from, to) (0-based, clamped). */
  private static String slice(String s, int from, int to) {
    int n = length(s);
    from = Math.max(0, Math.min(from, n));
    to = Math.max(from, Math.min(to, n));
    return s.substring(s.offsetByCodePoints(0, from), s.offsetByCodePoints(0, to));
  }

  /**
   * SQL SUBSTRING: characters at 1-based positions [from, from + length), clamped to the string.
   */
  static String substring(String s, int from, long length) {
    if (length < 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "SUBSTRING: expected a non-negative length, found [" + length + "]");
    }
    long end = length == Long.MAX_VALUE ? Long.MAX_VALUE : (long) from + length;
    long start = Math.max(from, 1);
    if (end <= start) {
      return "";
    }
    int endIndex = (int) Math.min(end - 1, Integer.MAX_VALUE);
    return slice(s, (int) start - 1, endIndex);
  }

  static String trim(String s, String chars, boolean leading, boolean trailing) {
    int start = 0;
    int end = s.length();
    if (leading) {
      while (start < end) {
        int c = s.codePointAt(start);
        if (chars.indexOf(c) < 0) {
          break;
        }
        start += Character.charCount(c);
      }
    }
    if (trailing) {
      while (end > start) {
        int c = s.codePointBefore(end);
        if (chars.indexOf(c) < 0) {
          break;
        }
        end -= Character.charCount(c);
      }
    }
    return s.substring(start, end);
  }

  private static Object position(String needle, String haystack, int from, DataType result) {
    int start = Math.max(from, 1) - 1;
    int n = length(haystack);
    if (start > n) {
      return ExprCompiler.conform(0, result);
    }
    int offset = haystack.offsetByCodePoints(0, start);
    int found = haystack.indexOf(needle, offset);
    int position = found < 0 ? 0 : haystack.codePointCount(0, found) + 1;
    return ExprCompiler.conform(position, result);
  }

  static String initcap(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    boolean wordStart = true;
    int i = 0;
    while (i < s.length()) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      if (Character.isLetterOrDigit(c)) {
        sb.appendCodePoint(wordStart ? Character.toUpperCase(c) : Character.toLowerCase(c));
        wordStart = false;
      } else {
        sb.appendCodePoint(c);
        wordStart = true;
      }
    }
    return sb.toString();
  }

  static String pad(String s, int length, String fill, boolean left) {
    if (length <= 0) {
      return "";
    }
    if (length > MAX_RESULT_LENGTH) {
      throw tooLong(left ? "LPAD" : "RPAD", length);
    }
    int n = length(s);
    if (n >= length) {
      return slice(s, 0, length);
    }
    if (fill.isEmpty()) {
      return s;
    }
    int[] fillPoints = fill.codePoints().toArray();
    StringBuilder padding = new StringBuilder();
    for (int i = 0; i < length - n; i++) {
      padding.appendCodePoint(fillPoints[i % fillPoints.length]);
    }
    return left ? padding + s : s + padding;
  }

  static String leftRight(String s, int n, boolean left) {
    int length = length(s);
    if (left) {
      return n >= 0 ? slice(s, 0, n) : slice(s, 0, length + n);
    }
    return n >= 0 ? slice(s, length - n, length) : slice(s, -n, length);
  }

  private static CairnException tooLong(String function, long length) {
    return new CairnException(
        ErrorCode.INVALID_ARGUMENT,
        function
            + ": result too long: expected at most ["
            + MAX_RESULT_LENGTH
            + "] characters, found ["
            + length
            + "]");
  }
}
