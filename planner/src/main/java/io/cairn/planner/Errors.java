package io.cairn.planner;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/** Turns Calcite's parser and validator errors into Cairn errors with positions and codes. */
final class Errors {
  private static final int MAX_EXPECTED = 12;

  private Errors() {}

  static CairnException syntax(SqlParseException e, String sql) {
    // the parser wraps what it did not expect: an exhausted stack (input nested too deeply) had
    // an empty message, and came out as "Syntax error: "
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof StackOverflowError) {
        return PlanningThreads.converted(t);
      }
      if (t instanceof CairnException c) {
        return c;
      }
    }
    SqlParserPos pos = e.getPos();
    String message = e.getMessage() == null ? "" : e.getMessage();
    String found = null;
    int quote = message.indexOf("Encountered \"");
    if (quote >= 0) {
      int end = message.indexOf("\" at line", quote + 13);
      if (end > quote) {
        found = message.substring(quote + 13, end);
      }
    }
    StringBuilder text = new StringBuilder("Syntax error");
    if (pos != null && pos.getLineNum() > 0) {
      text.append(" at line ")
          .append(pos.getLineNum())
          .append(", column ")
          .append(pos.getColumnNum());
    }
    if (found != null) {
      text.append(": found [").append(found.strip()).append("]");
      List<String> expected = expected(e);
      if (!expected.isEmpty()) {
        text.append(", expected one of ").append(expected);
      }
    } else {
      String firstLine = message.lines().findFirst().orElse("").strip();
      text.append(": ")
          .append(
              firstLine.isEmpty()
                  ? "the statement cannot be parsed (" + e.getClass().getSimpleName() + ")"
                  : PlanningThreads.bounded(firstLine));
      String near = wordAt(sql, pos);
      if (!near.isEmpty()) {
        text.append(", near [").append(near).append("]");
      }
    }
    return new CairnException(ErrorCode.SYNTAX_ERROR, text.toString(), e);
  }

  /** The word starting at {@code pos} in {@code sql}, for messages. */
  private static String wordAt(String sql, SqlParserPos pos) {
    if (pos == null || pos.getLineNum() <= 0) {
      return "";
    }
    String[] lines = sql.split("\n", -1);
    if (pos.getLineNum() > lines.length) {
      return "";
    }
    String line = lines[pos.getLineNum() - 1];
    int start = Math.max(0, pos.getColumnNum() - 1);
    int end = start;
    while (end < line.length() && !Character.isWhitespace(line.charAt(end)) && end - start < 40) {
      end++;
    }
    return start < line.length() ? line.substring(start, end) : "";
  }

  private static List<String> expected(SqlParseException e) {
    List<String> result = new ArrayList<>();
    int[][] sequences = e.getExpectedTokenSequences();
    String[] images = e.getTokenImages();
    if (sequences == null || images == null) {
      return result;
    }
    for (int[] sequence : sequences) {
      if (sequence.length == 0) {
        continue;
      }
      String image = images[sequence[0]];
      if (!result.contains(image)) {
        result.add(image);
      }
      if (result.size() >= MAX_EXPECTED) {
        result.add("...");
        break;
      }
    }
    return result;
  }

  static CairnException validation(CalciteContextException e) {
    String detail = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
    ErrorCode code = ErrorCode.VALIDATION_ERROR;
    if (detail.startsWith("Object '") && detail.contains("not found")) {
      code = ErrorCode.TABLE_NOT_FOUND;
    } else if (detail.startsWith("Table '") && detail.contains("not found")) {
      code = ErrorCode.TABLE_NOT_FOUND;
    } else if (detail.startsWith("Column '") && detail.contains("not found")) {
      code = ErrorCode.COLUMN_NOT_FOUND;
    } else if (detail.startsWith("Unknown target column")) {
      code = ErrorCode.COLUMN_NOT_FOUND;
    } else if (detail.startsWith("Cannot apply")
        || detail.startsWith("Cannot assign")
        || detail.contains("type mismatch")
        || detail.contains("Type mismatch")
        || detail.startsWith("Cannot infer")
        || detail.contains("incompatible")) {
      code = ErrorCode.TYPE_MISMATCH;
    } else if (detail.contains("does not allow NULLs")) {
      code = ErrorCode.NOT_NULL_VIOLATION;
    } else if (detail.startsWith("No match found for function")) {
      code = ErrorCode.VALIDATION_ERROR;
    }
    String where =
        e.getPosLine() > 0
            ? " (at line " + e.getPosLine() + ", column " + e.getPosColumn() + ")"
            : "";
    return new CairnException(code, detail + where, e);
  }
}
