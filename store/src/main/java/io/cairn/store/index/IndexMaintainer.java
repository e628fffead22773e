package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.region.Region;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's local indexes as its writes maintain them (immutable: a change of indexes makes a new
 * one): for a batch's row changes in a region, the entry changes that go into the same batch, so
 * that a row and its entries change under one sequence id and one log record. An update removes the
 * row's old entry and adds its new one (nothing when both are the same); a delete removes the
 * entry. The old row is read from the region (under the commit's write lock) unless the batch
 * itself wrote it earlier or an INSERT's condition already proved it absent.
 */
public final class IndexMaintainer {
  private final RowLayout layout;
  private final RowCodec codec;
  private final List<Compiled> indexes;
  private final boolean[] needed;

  /** One index, compiled. */
  record Compiled(IndexSpec spec, RowExpression[] parts, RowCodec entryCodec, int[] keyColumns) {}

  /** An entry of a row: its key and value. */
  record Entry(Bytes key, Bytes value) {}

  public IndexMaintainer(RowLayout layout, List<IndexSpec> specs) {
    this.layout = layout;
    this.codec = new RowCodec(layout);
    List<Compiled> compiled = new ArrayList<>(specs.size());
    boolean[] columns = new boolean[layout.columnCount()];
    int[] keyColumns =
        layout.keyColumns().stream().mapToInt(RowLayout.KeyColumn::columnIndex).toArray();
    for (int k : keyColumns) {
      columns[k] = true;
    }
    for (IndexSpec spec : specs) {
      RowExpression[] parts = new RowExpression[spec.parts().size()];
      for (int i = 0; i < parts.length; i++) {
        parts[i] = ExprCompiler.compile(spec.parts().get(i));
        markColumns(spec.parts().get(i), columns);
      }
      for (int c : spec.include()) {
        columns[c] = true;
      }
      compiled.add(new Compiled(spec, parts, new RowCodec(spec.entryLayout(layout)), keyColumns));
    }
    this.indexes = List.copyOf(compiled);
    this.needed = columns;
  }

  private static void markColumns(Expr e, boolean[] columns) {
    if (e instanceof Expr.ColumnRef ref) {
      columns[ref.index()] = true;
    } else if (e instanceof Expr.Call call) {
      call.operands().forEach(o -> markColumns(o, columns));
    }
  }

  public RowLayout layout() {
    return layout;
  }

  public List<IndexSpec> specs() {
    return indexes.stream().map(Compiled::spec).toList();
  }

  /** Whether {@code indexId} is one of the indexes. */
  public boolean has(int indexId) {
    return find(indexId).isPresent();
  }

  Optional<Compiled> find(int indexId) {
    return indexes.stream().filter(c -> c.spec().indexId() == indexId).findFirst();
  }

  /**
   * The entry changes of the row changes {@code rows} (in batch order) of {@code region}; the
   * caller holds its write lock and adds them to the region's part of the batch.
   */
  public List<Mutation> entryChanges(Region region, List<Mutation> rows) {
    Map<Bytes, Bytes> written = rows.size() > 1 ? new HashMap<>() : null;
    Map<Bytes, Mutation> changes = new LinkedHashMap<>();
    for (Mutation m : rows) {
      Bytes key = m.key();
      Bytes before;
      if (written != null && written.containsKey(key)) {
        before = written.get(key);
      } else if (m.condition().kind() == Mutation.Condition.Kind.MUST_NOT_EXIST) {
        before = null; // the condition held: no row
      } else {
        before = latestValue(region, key);
      }
      Bytes after = m instanceof Mutation.Put put ? put.value() : null;
      if (written != null) {
        written.put(key, after);
      }
      if (before == null && after == null) {
        continue;
      }
      Object[] oldRow = before == null ? null : codec.decode(key, before, needed);
      Object[] newRow = after == null ? null : codec.decode(key, after, needed);
      for (Compiled index : indexes) {
        Entry oldEntry = oldRow == null ? null : entry(index, key, oldRow);
        Entry newEntry = newRow == null ? null : entry(index, key, newRow);
        if (oldEntry != null && (newEntry == null || !oldEntry.key().equals(newEntry.key()))) {
          changes.put(oldEntry.key(), new Mutation.Delete(oldEntry.key()));
        }
        if (newEntry != null && !newEntry.equals(oldEntry)) {
          changes.put(newEntry.key(), new Mutation.Put(newEntry.key(), newEntry.value()));
        }
      }
    }
    return new ArrayList<>(changes.values());
  }

  /**
   * The value of {@code key}'s row in the region's latest applied state (applied but not yet
   * visible writes included), or null when it has none. Caller holds the write lock.
   */
  private static Bytes latestValue(Region region, Bytes key) {
    try (RowCursor rows =
        region.scan(
            region.peekState(), KeyRange.point(key), Long.MAX_VALUE, -1, CachePolicy.CACHE)) {
      if (!rows.next()) {
        return null;
      }
      byte[] v = new byte[rows.valueLength()];
      rows.valueBuffer().get(rows.valueOffset(), v);
      return Bytes.wrap(v);
    }
  }

  /** The entry of index {@code indexId} for the row {@code row} (decoded) of key {@code key}. */
  Entry entry(Compiled index, Bytes key, Object[] row) {
    IndexSpec spec = index.spec();
    int parts = index.parts().length;
    int[] keyColumns = index.keyColumns();
    Object[] entryRow = new Object[parts + keyColumns.length + spec.include().size()];
    List<Object> partValues = new ArrayList<>(parts);
    for (int i = 0; i < parts; i++) {
      Object v = index.parts()[i].evaluate(row, EvalContext.EMPTY);
      entryRow[i] = v;
      partValues.add(v);
    }
    for (int i = 0; i < keyColumns.length; i++) {
      entryRow[parts + i] = row[keyColumns[i]];
    }
    for (int i = 0; i < spec.include().size(); i++) {
      entryRow[parts + keyColumns.length + i] = row[spec.include().get(i)];
    }
    Bytes encodedParts = index.entryCodec().encodeKeyPrefix(partValues);
    byte[] partsAndKey =
        Arrays.copyOf(encodedParts.peekArray(), encodedParts.length() + key.length());
    System.arraycopy(key.peekArray(), 0, partsAndKey, encodedParts.length(), key.length());
    Bytes entryKey =
        IndexKeys.entryKey(spec.indexId(), partsAndKey, partsAndKey.length, key.length());
    return new Entry(entryKey, index.entryCodec().encodeValue(entryRow));
  }

  /** The entry of index {@code index} for the stored row ({@code key}, {@code value}). */
  Entry entry(Compiled index, Bytes key, Bytes value) {
    return entry(index, key, codec.decode(key, value, needed));
  }
}
