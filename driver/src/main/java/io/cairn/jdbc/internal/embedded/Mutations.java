package io.cairn.jdbc.internal.embedded;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Values;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
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
      Mutation failed = batch.get(e.mutationIndex());
      throw new CairnException(
          ErrorCode.DUPLICATE_KEY,
          "Duplicate key in ["
              + table.qualifiedName()
              + "]: a row with primary key "
              + describeKey(table, failed)
              + " already exists",
          e);
    }
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
