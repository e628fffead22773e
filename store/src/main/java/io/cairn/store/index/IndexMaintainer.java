package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.ByteBuilder;
import io.cairn.core.encoding.KeyEncoding;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.Mutation;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.memstore.Memstore;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import io.cairn.store.region.StoreFile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

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
  private final int[] neededColumns;

  /** One index, compiled. */
  record Compiled(
      IndexSpec spec,
      RowExpression[] parts,
      RowCodec entryCodec,
      int[] keyColumns,
      DataType[] partTypes,
      byte[] constantValue,
      int[] partColumns,
      boolean direct) {}

  /** An entry of a row: its key and value. */
  public record Entry(Bytes key, Bytes value) {}

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
      RowLayout entryLayout = spec.entryLayout(layout);
      RowCodec entryCodec = new RowCodec(entryLayout);
      DataType[] partTypes = new DataType[parts.length];
      for (int i = 0; i < parts.length; i++) {
        partTypes[i] = entryLayout.columnType(i);
      }
      byte[] constant =
          spec.include().isEmpty()
              ? entryCodec.encodeValue(new Object[entryLayout.columnCount()]).toByteArray()
              : null;
      int[] partColumns =
          spec.parts().stream()
              .mapToInt(e -> e instanceof Expr.ColumnRef ref ? ref.index() : -1)
              .toArray();
      // every key part a column and a constant value: an entry is made straight from the row's
      // bytes (RowReader.appendKey), with no decoded value
      boolean direct = constant != null && Arrays.stream(partColumns).allMatch(c -> c >= 0);
      compiled.add(
          new Compiled(
              spec, parts, entryCodec, keyColumns, partTypes, constant, partColumns, direct));
    }
    this.indexes = List.copyOf(compiled);
    this.needed = columns;
    this.neededColumns = IntStream.range(0, columns.length).filter(c -> columns[c]).toArray();
  }

  /** A reader of the table's rows that decodes what the indexes need (one per thread). */
  RowReader reader() {
    return new RowReader(layout, needed);
  }

  /**
   * Appends to {@code out} the entry of index {@code index} for the row under {@code reader} (reset
   * on it), whose key is {@code key[offset, offset + length)}: no object per entry.
   */
  void appendEntry(
      Compiled index, RowReader reader, byte[] key, int offset, int length, SortedEntries out) {
    if (index.direct()) {
      out.beginEntry();
      ByteBuilder b = out.out();
      IndexKeys.appendPrefix(b, index.spec().indexId());
      List<SortOrder> orders = index.spec().orders();
      for (int i = 0; i < index.partColumns().length; i++) {
        reader.appendKey(index.partColumns()[i], orders.get(i), b);
      }
      IndexKeys.appendRowKey(b, key, offset, length);
      out.endKey();
      b.write(index.constantValue());
      out.endEntry();
      return;
    }
    Object[] row = reader.peekDecodedRow(neededColumns);
    out.beginEntry();
    Object[] parts = appendKey(index, row, key, offset, length, out.out());
    out.endKey();
    appendValue(index, row, parts, out.out());
    out.endEntry();
  }

  /**
   * Appends the entry key of index {@code index} for the decoded {@code row} of key {@code
   * key[offset, offset + length)}; returns the key parts' values (for the value).
   */
  private static Object[] appendKey(
      Compiled index, Object[] row, byte[] key, int offset, int length, ByteBuilder out) {
    IndexKeys.appendPrefix(out, index.spec().indexId());
    Object[] parts = new Object[index.parts().length];
    List<SortOrder> orders = index.spec().orders();
    for (int i = 0; i < parts.length; i++) {
      parts[i] = index.parts()[i].evaluate(row, EvalContext.EMPTY);
      KeyEncoding.encode(out, parts[i], index.partTypes()[i], orders.get(i));
    }
    IndexKeys.appendRowKey(out, key, offset, length);
    return parts;
  }

  /** Appends the entry value (the included columns) of index {@code index} for {@code row}. */
  private static void appendValue(Compiled index, Object[] row, Object[] parts, ByteBuilder out) {
    if (index.constantValue() != null) {
      out.write(index.constantValue());
      return;
    }
    IndexSpec spec = index.spec();
    int[] keyColumns = index.keyColumns();
    Object[] entryRow = new Object[parts.length + keyColumns.length + spec.include().size()];
    System.arraycopy(parts, 0, entryRow, 0, parts.length);
    for (int i = 0; i < keyColumns.length; i++) {
      entryRow[parts.length + i] = row[keyColumns[i]];
    }
    for (int i = 0; i < spec.include().size(); i++) {
      entryRow[parts.length + keyColumns.length + i] = row[spec.include().get(i)];
    }
    Bytes v = index.entryCodec().encodeValue(entryRow);
    out.write(v.peekArray(), 0, v.length());
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
    for (Compiled c : indexes) { // a loop, not a stream: an index build calls this for every row
      if (c.spec().indexId() == indexId) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
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
    List<Mutation> sorted = new ArrayList<>(changes.values());
    // in key order: the memstore's skip list takes neighbouring keys faster than scattered ones
    sorted.sort((a, b) -> a.key().compareTo(b.key()));
    return sorted;
  }

  /**
   * The value of {@code key}'s row in the region's latest applied state (applied but not yet
   * visible writes included), or null when it has none. Caller holds the write lock.
   */
  private static Bytes latestValue(Region region, Bytes key) {
    RegionState s = region.peekState();
    Bytes v = s.active().newest(key);
    for (int i = 0; v == null && i < s.frozen().size(); i++) {
      v = s.frozen().get(i).newest(key);
    }
    if (v != null) {
      return v == Memstore.DELETED ? null : v;
    }
    long newest = -1;
    for (StoreFile f : s.files()) {
      if (!f.reader().mightContainRow(key)) {
        continue;
      }
      try (CellCursor c = f.reader().cursor()) {
        if (c.seek(key) && c.row().equals(key) && c.sequenceId() > newest) {
          newest = c.sequenceId();
          v = c.isDelete() ? null : c.value();
        }
      }
    }
    return v;
  }

  /**
   * The entry of index {@code indexId} (one of these) for the row {@code key} = {@code value}: what
   * a store that keeps an index apart from the rows writes for it, and checks an entry it reads
   * against.
   *
   * @throws IllegalArgumentException when {@code indexId} is not one of these indexes
   */
  public Entry entryOf(int indexId, Bytes key, Bytes value) {
    Compiled index =
        find(indexId)
            .orElseThrow(() -> new IllegalArgumentException("No index [" + indexId + "] here"));
    return entry(index, key, codec.decode(key, value, needed));
  }

  /**
   * The entries of every index (in the order of {@link #specs}) for the row {@code key} = {@code
   * value}, the row decoded once.
   */
  public List<Entry> entriesOf(Bytes key, Bytes value) {
    Object[] row = codec.decode(key, value, needed);
    List<Entry> entries = new ArrayList<>(indexes.size());
    for (Compiled index : indexes) {
      entries.add(entry(index, key, row));
    }
    return entries;
  }

  /** The entry of index {@code index} for the decoded {@code row} of key {@code key}. */
  private static Entry entry(Compiled index, Bytes key, Object[] row) {
    ByteBuilder b = new ByteBuilder(IndexKeys.PREFIX_LENGTH + key.length() + 32);
    Object[] parts = appendKey(index, row, key.peekArray(), 0, key.length(), b);
    Bytes entryKey = b.toBytes();
    if (index.constantValue() != null) {
      return new Entry(entryKey, Bytes.wrap(index.constantValue()));
    }
    b.truncate(0);
    appendValue(index, row, parts, b);
    return new Entry(entryKey, b.toBytes());
  }
}
