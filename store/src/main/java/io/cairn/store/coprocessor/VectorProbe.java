package io.cairn.store.coprocessor;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.NumberVector;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.LongKeyIndex;
import io.cairn.store.cell.BlockRun;
import java.util.ArrayList;
import java.util.List;

/**
 * An inner or semi join's probe of a key of one or two integer columns done on a block's vectors:
 * the key values of the rows the filters selected are looked up in the build side's {@link
 * LongKeyIndex} in one loop (no value boxed, the cache misses of a large table overlapping); the
 * rows whose key is none of the build side's are dropped from the selection and each other keeps
 * its first build row, which the scan then joins without looking its key up again. It runs after
 * the key-set filter of the first key column (a bitmap or a set of the keys alone, cheaper for the
 * rows that match nothing), on the rows that filter keeps, and on all once that filter is dropped
 * for keeping most of them.
 *
 * <p>One per scan (its matches are the block's being read).
 */
final class VectorProbe {
  private final LongKeyIndex index;

  /** The key columns' vectors: one or two. */
  private final List<VectorColumn> columns;

  /** Per position of the selection {@link #select} wrote, its row's first build row. */
  private int[] matches = new int[0];

  private VectorProbe(LongKeyIndex index, List<VectorColumn> columns) {
    this.index = index;
    this.columns = columns;
  }

  /**
   * The vector probe of {@code probe} over {@code table}, or null when it does not apply: not an
   * INNER or SEMI probe of all the build rows, a key column that is not a column of {@code layout}
   * whose values are of the class of the build side's (INTEGER or BIGINT), or keys the table does
   * not hold as longs.
   */
  static VectorProbe of(HashProbe probe, JoinHashTable table, RowLayout layout) {
    LongKeyIndex index = table.longKeys();
    if (index == null
        || probe.partitions() != HashProbe.ALL
        || probe.nullAware()
        || (probe.kind() != HashProbe.Kind.INNER && probe.kind() != HashProbe.Kind.SEMI)) {
      return null;
    }
    List<VectorColumn> columns = new ArrayList<>();
    for (int k = 0; k < probe.probeKeys().size(); k++) {
      VectorColumn column = keyColumn(probe.probeKeys().get(k), index.keyClass(k), layout);
      if (column == null) {
        return null;
      }
      columns.add(column);
    }
    return new VectorProbe(index, List.copyOf(columns));
  }

  /**
   * The vector of {@code key} when it is a column of {@code layout} of INTEGER or BIGINT whose
   * values are of class {@code keys} (null: no build row), else null.
   */
  private static VectorColumn keyColumn(Expr key, Class<?> keys, RowLayout layout) {
    if (!(key instanceof Expr.ColumnRef ref)
        || ref.index() < 0
        || ref.index() >= layout.columnCount()) {
      return null;
    }
    DataType stored = layout.columnType(ref.index());
    TypeName type = stored.name();
    Class<?> values =
        type == TypeName.BIGINT ? Long.class : type == TypeName.INTEGER ? Integer.class : null;
    if (values == null || key.type().name() != type || (keys != null && keys != values)) {
      return null; // a key of another class matches nothing: the generic path says so
    }
    VectorColumn column = VectorColumn.numbersOf(ref.index(), stored);
    return column == null || column.kind() != RowReader.LONG ? null : column;
  }

  /** The key columns' vectors. */
  List<VectorColumn> columns() {
    return columns;
  }

  /**
   * Of the rows of {@code block} (whose key vectors hold every value) at {@code in[0, n)}, or of
   * its first {@code n} rows when {@code in} is null, writes into {@code out} (may be {@code in})
   * those whose key the build side holds, in order, each with its first build row at the same
   * position of {@link #match}, and returns how many.
   */
  int select(BlockRun block, int[] in, int n, int[] out) {
    if (matches.length < n) {
      matches = new int[Math.max(n, 2 * matches.length)];
    }
    NumberVector first = block.numbers(columns.get(0));
    NumberVector second = columns.size() == 2 ? block.numbers(columns.get(1)) : null;
    long[] a = first.longs;
    long[] b = second == null ? null : second.longs;
    byte[] nullsA = first.nulls == 0 ? null : first.status;
    byte[] nullsB = second == null || second.nulls == 0 ? null : second.status;
    int[] found = matches;
    LongKeyIndex keys = index;
    int m = 0;
    for (int k = 0; k < n; k++) {
      int i = in == null ? k : in[k];
      if ((nullsA != null && nullsA[i] != RowReader.NUMBER_VALUE)
          || (nullsB != null && nullsB[i] != RowReader.NUMBER_VALUE)) {
        continue; // NULL matches nothing
      }
      int row = b == null ? keys.first(a[i]) : keys.first(a[i], b[i]);
      out[m] = i;
      found[m] = row;
      m += row >= 0 ? 1 : 0;
    }
    return m;
  }

  /** The first build row of the row at {@code position} of the last {@link #select}'s output. */
  int match(int position) {
    return matches[position];
  }
}
