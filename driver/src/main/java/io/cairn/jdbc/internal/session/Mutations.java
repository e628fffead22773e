package io.cairn.jdbc.internal.session;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Values;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.util.ArrayList;
import java.util.List;

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
      throw duplicate(table, batch.get(e.mutationIndex()), e);
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
      throw duplicate(table, batches.get(e.batchIndex()).mutations().get(e.mutationIndex()), e);
    }
  }

  private static CairnException duplicate(
      TableDescriptor table, Mutation failed, ConditionFailedException e) {
    if (e.isConflict()) {
      return new CairnException(
          ErrorCode.WRITE_CONFLICT,
          "Write conflict in ["
              + table.qualifiedName()
              + "]: the row with primary key "
              + describeKey(table, failed)
              + " was changed by another commit since it was read",
          e);
    }
    return new CairnException(
        ErrorCode.DUPLICATE_KEY,
        "Duplicate key in ["
            + table.qualifiedName()
            + "]: a row with primary key "
            + describeKey(table, failed)
            + " already exists",
        e);
  }

  private static String describeKey(TableDescriptor table, Mutation m) {
    if (table.hiddenRowId() || !(m instanceof Mutation.Put put)) {
      return "[" + m.key() + "]";
    }
    Object[] row = new RowCodec(table.layout()).decode(put.key(), put.value());
    List<String> parts = new ArrayList<>();
    for (KeyColumn k : table.primaryKey()) {
      parts.add(
          table.columns().get(k.columnIndex()).name()
              + "="
              + Values.toSqlString(row[k.columnIndex()]));
    }
    return "[" + String.join(", ", parts) + "]";
  }
}
