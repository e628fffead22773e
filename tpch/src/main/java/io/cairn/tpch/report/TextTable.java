package io.cairn.tpch.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table with a header row, a rule under it and padded columns; the first column is
 * left-aligned and the others right-aligned unless {@link #alignLeft} says otherwise. Missing cells
 * print as empty; extra cells are an error.
 */
public final class TextTable {
  private final List<String> header;
  private final boolean[] left;
  private final List<List<String>> rows = new ArrayList<>();

  public TextTable(String... header) {
    if (header.length == 0) {
      throw new IllegalArgumentException("A table needs at least one column");
    }
    this.header = List.of(header);
    this.left = new boolean[header.length];
    this.left[0] = true;
  }

  /** Left-aligns the columns at {@code indexes} (0-based). */
  public TextTable alignLeft(int... indexes) {
    for (int i : indexes) {
      left[i] = true;
    }
    return this;
  }

  /** Adds a row; {@code null} cells print as empty. */
  public TextTable addRow(String... cells) {
    if (cells.length > header.size()) {
      throw new IllegalArgumentException(
          "Row has "
              + cells.length
              + " cells but the table has "
              + header.size()
              + " columns: "
              + Arrays.toString(cells));
    }
    List<String> row = new ArrayList<>();
    for (int i = 0; i < header.size(); i++) {
      row.add(i < cells.length && cells[i] != null ? cells[i] : "");
    }
    rows.add(row);
    return this;
  }

  public int rowCount() {
    return rows.size();
  }

  /** The table, one line per row, each line ending with a newline. */
  public String render() {
    int[] width = new int[header.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = header.get(i).length();
      for (List<String> row : rows) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    line(out, header, width);
    for (int i = 0; i < width.length; i++) {
      if (i > 0) {
        out.append("  ");
      }
      out.append("-".repeat(width[i]));
    }
    out.append('\n');
    for (List<String> row : rows) {
      line(out, row, width);
    }
    return out.toString();
  }

  private void line(StringBuilder out, List<String> cells, int[] width) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < width.length; i++) {
      if (i > 0) {
        line.append("  ");
      }
      String cell = cells.get(i);
      String pad = " ".repeat(width[i] - cell.length());
      line.append(left[i] ? cell + pad : pad + cell);
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }

  @Override
  public String toString() {
    return render();
  }
}
