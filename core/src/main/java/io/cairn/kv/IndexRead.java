package io.cairn.kv;

/**
 * A scan that reads a local index ({@link IndexSpec}) instead of the table's rows: its ranges lie
 * in the index's key space ({@link IndexKeys#range}). Covered ({@code lookup} false): the program
 * runs over the entries, decoded with {@link IndexSpec#entryLayout}. With {@code lookup}: each
 * region reads its entries in batches and fetches their rows from itself at the scan's read point,
 * and the program runs over the rows (the table's layout); rows come in index order within a
 * region.
 */
public record IndexRead(int indexId, boolean lookup) {
  public IndexRead {
    if (indexId < 0) {
      throw new IllegalArgumentException("An index id: expected >= 0, found [" + indexId + "]");
    }
  }
}
