package io.cairn.kv;

/**
 * Statistics of one column of a KV table's rows, collected with its guide posts ({@link
 * KvTable#updateStatistics} and the store's background refreshes) and merged over its regions: an
 * estimate of its distinct non-null values (a HyperLogLog sketch, about 1.6% standard error), its
 * null count and its smallest and largest values. Rows written since the collection are not in
 * them.
 *
 * @param columnIndex the column's position in the table's row layout (its descriptor's order)
 * @param rows the rows counted (nulls included)
 * @param distinct estimated distinct non-null values; -1 when unknown
 * @param nulls rows whose value is null
 * @param min the smallest non-null value as the row codec decodes it (Long, BigDecimal, String,
 *     LocalDate, ...), null when every value is null or the type has no order the store keeps
 * @param max the largest non-null value, as {@code min}
 */
public record ColumnStatistics(
    int columnIndex, long rows, long distinct, long nulls, Object min, Object max) {
  public ColumnStatistics {
    if (columnIndex < 0) {
      throw new IllegalArgumentException(
          "A column index: expected >= 0, found [" + columnIndex + "]");
    }
  }
}
