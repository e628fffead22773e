package io.cairn.store.coprocessor;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.NumberVector;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.type.TypeName;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.LongKeyIndex;

/**
 * An inner or semi join's probe of a one-column key of integers done on a block's vectors: the key
 * values of the rows the vector filter selected are looked up in the build side's {@link
 * LongKeyIndex} in one loop, no value boxed; the rows whose key is none of the build side's are
 * dropped from the selection and each other keeps its first build row, which the scan then joins
 * without looking its key up again. It runs after the key-set filter (a bitmap or a set of the keys
 * alone, cheaper for the rows that match nothing), on the rows that filter keeps, and on all once
 * that filter is dropped for keeping most of them.
 *
 * <p>One per scan (its matches are the block's being read).
 */
final class VectorProbe {
  private final LongKeyIndex index;
  private final VectorColumn column;

  /** Per position of the selection {@link #select} wrote, its row's first build row. */
  private int[] matches = new int[0];

  private VectorProbe(LongKeyIndex index, VectorColumn column) {
    this.index = index;
    this.column = column;
  }

  /**
   * The vector probe of {@code probe} over {@code table}, or null when it does not apply: not an
   * INNER or SEMI probe of all the build rows, a key of more than one column or not a column of
   * {@code layout} whose values are of the class of the build side's (INTEGER or BIGINT), or keys
   * the table does not hold as longs.
   */
  static VectorProbe of(HashProbe probe, JoinHashTable table, Expr key, RowLayout layout) {
    LongKeyIndex index = table.longKeys();
    if (index == null
        || probe.partitions() != HashProbe.ALL
        || probe.nullAware()
        || (probe.kind() != HashProbe.Kind.INNER && probe.kind() != HashProbe.Kind.SEMI)
        || probe.probeKeys().size() != 1
        || !(key instanceof Expr.ColumnRef ref)
        || ref.index() < 0
        || ref.index() >= layout.columnCount()) {
      return null;
    }
    TypeName type = layout.columnType(ref.index()).name();
    Class<?> values =
        type == TypeName.BIGINT ? Long.class : type == TypeName.INTEGER ? Integer.class : null;
    if (values == null || !key.type().name().equals(type)) {
      return null;
    }
    if (index.keyClass(0) != null && index.keyClass(0) != values) {
      return null; // a key of another class matches nothing: the generic path says so
    }
    VectorColumn column = VectorColumn.numbersOf(ref.index(), layout.columnType(ref.index()));
    return column == null || column.kind() != RowReader.LONG
        ? null
        : new VectorProbe(index, column);
  }

  /** The key column's vector. */
  VectorColumn column() {
    return column;
  }

  /**
   * Of the rows of {@code vector} (a block's {@link #column()}, without NUMBER_UNFIT rows) at
   * {@code in[0, n)}, or of its first {@code n} rows when {@code in} is null, writes into {@code
   * out} (may be {@code in}) those whose key the build side holds, in order, each with its first
   * build row at the same position of {@link #match}, and returns how many.
   */
  int select(NumberVector vector, int[] in, int n, int[] out) {
    if (matches.length < n) {
      matches = new int[Math.max(n, 2 * matches.length)];
    }
    long[] x = vector.longs;
    byte[] status = vector.nulls == 0 ? null : vector.status;
    int[] found = matches;
    LongKeyIndex keys = index;
    int m = 0;
    for (int k = 0; k < n; k++) {
      int i = in == null ? k : in[k];
      if (status != null && status[i] != RowReader.NUMBER_VALUE) {
        continue; // NULL matches nothing
      }
      int first = keys.first(x[i]);
      out[m] = i;
      found[m] = first;
      m += first >= 0 ? 1 : 0;
    }
    return m;
  }

  /** The first build row of the row at {@code position} of the last {@link #select}'s output. */
  int match(int position) {
    return matches[position];
  }
}
