package io.cairn.jdbc.internal.session;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Values;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/** Applies write batches and turns store errors into messages naming table and key values. */
final class Mutations {
  private Mutations() {}

  /**
   * Applies {@code batch} atomically, as durable as {@code durability} asks (null: the table's
   * default).
   */
  static void apply(
      TableDescriptor table, KvTable kv, List<Mutation> batch, Durability durability) {
    try {
      kv.mutate(batch, durability);
    } catch (ConditionFailedException e) {
      throw failed(table, batch.get(e.mutationIndex()), e);
    }
  }

  /**
   * Applies the tables' batches as one atomic commit (see {@link KvStore#mutate(List,
   * Durability)}); one table's batch goes through {@link #apply(TableDescriptor, KvTable, List,
   * Durability)}.
   */
  static void apply(
      KvStore store,
      List<TableDescriptor> tables,
      List<KvStore.TableBatch> batches,
      Durability durability) {
    if (batches.isEmpty()) {
      return;
    }
    if (batches.size() == 1) {
      apply(tables.get(0), batches.get(0).table(), batches.get(0).mutations(), durability);
      return;
    }
    try {
      store.mutate(batches, durability);
    } catch (ConditionFailedException e) {
      TableDescriptor table = tables.get(e.batchIndex());
      throw failed(table, batches.get(e.batchIndex()).mutations().get(e.mutationIndex()), e);
    }
  }

  /**
   * Checks the INSERTs (MUST_NOT_EXIST puts) of a transaction's {@code batch} against what the
   * transaction sees: its own earlier writes ({@code written}, and the batch's own earlier
   * mutations), else the store's rows at {@code readPoint}, read in one request.
   *
   * @throws CairnException DUPLICATE_KEY naming the table and key values
   */
  static void checkAbsent(
      TableDescriptor table,
      KvTable kv,
      List<Mutation> batch,
      Map<Bytes, Mutation> written,
      long readPoint) {
    if (table.hiddenRowId()) {
      return; // fresh row ids
    }
    Map<Bytes, Boolean> seen = new HashMap<>(); // key -> exists, after the batch's earlier ones
    TreeSet<Bytes> toRead = new TreeSet<>();
    for (Mutation m : batch) {
      if (m.condition().kind() == Mutation.Condition.Kind.MUST_NOT_EXIST
          && !seen.containsKey(m.key())
          && !written.containsKey(m.key())) {
        toRead.add(m.key());
      }
      seen.put(m.key(), Boolean.TRUE);
    }
    Set<Bytes> stored =
        toRead.isEmpty()
            ? Set.of()
            : storedRows(table, kv, List.copyOf(toRead), readPoint, EvalContext.EMPTY, () -> {})
                .keySet();
    seen.clear();
    for (Mutation m : batch) {
      if (m.condition().kind() == Mutation.Condition.Kind.MUST_NOT_EXIST) {
        Boolean inBatch = seen.get(m.key());
        Mutation earlier = written.get(m.key());
        boolean exists =
            inBatch != null
                ? inBatch
                : earlier != null ? earlier instanceof Mutation.Put : stored.contains(m.key());
        if (exists) {
          throw new CairnException(
              ErrorCode.DUPLICATE_KEY,
              "Duplicate key in ["
                  + table.qualifiedName()
                  + "]: a row with primary key "
                  + describeKey(table, m)
                  + " already exists");
        }
      }
      seen.put(m.key(), m instanceof Mutation.Put);
    }
  }

  /** Keys read in one request by {@link #storedRows}. */
  static final int LOOKUP_BATCH = 1024;

  /**
   * The rows of {@code keys} (in key order) that the store holds at {@code readPoint}, by key: one
   * request per {@value #LOOKUP_BATCH} keys, {@code checkpoint} run after each (cancel, timeout).
   */
  static Map<Bytes, Object[]> storedRows(
      TableDescriptor table,
      KvTable kv,
      List<Bytes> keys,
      long readPoint,
      EvalContext eval,
      Runnable checkpoint) {
    Map<Bytes, Object[]> rows = new HashMap<>();
    RowCodec codec = new RowCodec(table.layout());
    ScanProgram program =
        new ScanProgram(table.layout(), Optional.empty(), table.columnRefs(), ScanProgram.NO_LIMIT);
    for (int from = 0; from < keys.size(); from += LOOKUP_BATCH) {
      List<KeyRange> ranges = new ArrayList<>();
      for (Bytes k : keys.subList(from, Math.min(from + LOOKUP_BATCH, keys.size()))) {
        ranges.add(KeyRange.point(k));
      }
      try (RowScanner scanner = kv.scan(new ScanRequest(ranges, program, eval, true, readPoint))) {
        for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
          rows.put(codec.encodeKey(row), row);
        }
      }
      checkpoint.run();
    }
    return rows;
  }

  /**
   * The write a transaction keeps for a key after {@code next}, given its earlier write {@code
   * prior} of the same key (null: none). The condition checked at commit is about the store's row
   * as the transaction's snapshot had it, so the first write's condition stays: a later
   * read-modify-write of a row the transaction wrote blindly read the transaction's own write, and
   * an INSERT then a DELETE of a key still needs the key absent (unchanged since the snapshot) to
   * delete nothing of another transaction's.
   */
  static Mutation followUp(Mutation prior, Mutation next, LongSupplier readPoint) {
    Mutation.Condition c = prior == null ? next.condition() : prior.condition();
    if (next instanceof Mutation.Delete && c.kind() == Mutation.Condition.Kind.MUST_NOT_EXIST) {
      long at = readPoint.getAsLong();
      // a store without read points (HBase) checks that the key still has no row
      c =
          at == ScanRequest.LATEST
              ? Mutation.Condition.valueIs(null)
              : Mutation.Condition.unchangedSince(at);
    }
    if (c.equals(next.condition())) {
      return next;
    }
    return next instanceof Mutation.Put put
        ? new Mutation.Put(put.key(), put.value(), c)
        : new Mutation.Delete(next.key(), c);
  }

  private static CairnException failed(
      TableDescriptor table, Mutation failed, ConditionFailedException e) {
    if (e.isConflict()) {
      return new CairnException(
          ErrorCode.WRITE_CONFLICT,
          "Write conflict in ["
              + table.qualifiedName()
              + "]: the row with primary key "
              + describeKey(table, failed)
              + " was changed by another commit after this statement or transaction read it;"
              + (e.othersWritten()
                  ? " that row was not written, other rows were (this store writes each row on its"
                      + " own, as Phoenix's non-transactional tables: docs/hbase.md)"
                  : " nothing was written: run it again"),
          e);
    }
    return new CairnException(
        ErrorCode.DUPLICATE_KEY,
        "Duplicate key in ["
            + table.qualifiedName()
            + "]: a row with primary key "
            + describeKey(table, failed)
            + " already exists"
            + (e.othersWritten()
                ? "; other rows of the statement or commit were written (this store writes"
                    + " each row on its own, as Phoenix's non-transactional tables: docs/hbase.md)"
                : ""),
        e);
  }

  private static String describeKey(TableDescriptor table, Mutation m) {
    if (table.hiddenRowId()) {
      return "[" + m.key() + "]";
    }
    Object[] row =
        new RowCodec(table.layout())
            .decode(m.key(), m instanceof Mutation.Put put ? put.value() : emptyValue(table));
    List<String> parts = new ArrayList<>();
    for (KeyColumn k : table.primaryKey()) {
      parts.add(
          table.columns().get(k.columnIndex()).name()
              + "="
              + Values.toSqlString(row[k.columnIndex()]));
    }
    return "[" + String.join(", ", parts) + "]";
  }

  /** The value of a row whose non-key columns are all NULL (to decode a delete's key). */
  private static Bytes emptyValue(TableDescriptor table) {
    return new RowCodec(table.layout()).encodeValue(new Object[table.columns().size()]);
  }
}
