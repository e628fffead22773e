package io.cairn.kv;

import java.util.List;

/**
 * What comparing a local index with its table found, at one snapshot: the rows read, the entries
 * read, entries a row should have but the index lacks ({@code missing}), entries no row accounts
 * for ({@code extra}: stale or of a row that is gone), and up to a few keys of each kind (entry
 * keys, printable) for the report.
 */
public record IndexCheck(long rows, long entries, long missing, long extra, List<String> samples) {
  public IndexCheck {
    samples = List.copyOf(samples);
  }

  /** Whether the index and the table agree. */
  public boolean consistent() {
    return missing == 0 && extra == 0;
  }

  /** The sum of two regions' checks (at most {@code maxSamples} samples kept). */
  public IndexCheck plus(IndexCheck other, int maxSamples) {
    List<String> all = new java.util.ArrayList<>(samples);
    for (String s : other.samples) {
      if (all.size() < maxSamples) {
        all.add(s);
      }
    }
    return new IndexCheck(
        rows + other.rows,
        entries + other.entries,
        missing + other.missing,
        extra + other.extra,
        all);
  }
}
