package io.cairn.it;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads the result tables that sqlline prints in its default "table" output format. */
final class SqllineTables {
  private SqllineTables() {}

  /**
   * One printed result: the header and the rows, each cell trimmed, and the raw text between the
   * header and the closing border (a cell with line breaks, such as a plan, spans several lines).
   */
  record Table(List<String> header, List<List<String>> rows, String body) {
    Table {
      header = List.copyOf(requireNonNull(header, "header is null"));
      rows = rows.stream().map(List::copyOf).toList();
      requireNonNull(body, "body is null");
    }
  }

  /**
   * Parses every table in {@code output}: a border line ({@code +---+}), the header, a border, the
   * rows and a closing border.
   */
  static List<Table> parse(String output) {
    List<Table> tables = new ArrayList<>();
    List<List<String>> lines = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    int borders = 0;
    for (String raw : output.split("\\R")) {
      String line = raw.strip();
      if (line.startsWith("+-")) {
        borders++;
        if (borders == 3) {
          tables.add(new Table(lines.get(0), lines.subList(1, lines.size()), body.toString()));
          lines = new ArrayList<>();
          body.setLength(0);
          borders = 0;
        }
        continue;
      }
      if (borders == 2) {
        body.append(raw).append('\n');
      }
      if (line.startsWith("|") && line.endsWith("|") && borders > 0) {
        lines.add(cells(line));
      }
    }
    return tables;
  }

  private static List<String> cells(String line) {
    String inner = line.substring(1, line.length() - 1);
    return Arrays.stream(inner.split("\\|", -1)).map(String::strip).toList();
  }
}
