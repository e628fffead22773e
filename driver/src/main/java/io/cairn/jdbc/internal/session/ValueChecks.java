package io.cairn.jdbc.internal.session;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Read-modify-writes on a store without read points ({@link KvStore.Guarantees#LATEST_PER_ROW}:
 * HBase). There a statement reads each row's newest version whenever its scan reaches the row, so a
 * check "unchanged since the read point" means nothing; instead each row is written on condition
 * that it still holds exactly the value the write was computed from ({@link
 * Mutation.Condition#valueIs}, HBase's check-and-mutate). The value comes from one multi-get of the
 * rows after the statement computed them: a row whose value no longer decodes to the row the
 * statement read was changed in between, a WRITE_CONFLICT that runs the statement again. A row
 * changed and changed back passes, rightly: the new row was computed from the value it replaces.
 */
final class ValueChecks {
  private ValueChecks() {}

  /**
   * The conditions of writes computed from {@code readRows} (each key's row as the statement read
   * it, every column in table order): each row's value as it is now, checked to be that row.
   *
   * @throws CairnException WRITE_CONFLICT when a row is gone or holds another row than was read
   */
  static Map<Bytes, Mutation.Condition> unchanged(
      TableDescriptor table,
      KvTable kv,
      RowCodec codec,
      Map<Bytes, Object[]> readRows,
      Runnable checkpoint) {
    Map<Bytes, Bytes> now = latest(kv, new ArrayList<>(readRows.keySet()), checkpoint);
    Map<Bytes, Mutation.Condition> conditions = new HashMap<>();
    for (Map.Entry<Bytes, Object[]> e : readRows.entrySet()) {
      Bytes value = now.get(e.getKey());
      if (value == null || !holds(codec, e.getKey(), value, e.getValue())) {
        throw conflict(table);
      }
      conditions.put(e.getKey(), Mutation.Condition.valueIs(value));
    }
    return conditions;
  }

  /**
   * The rows of {@code keys} as they are now (absent keys left out), and into {@code conditions}
   * each key's: its value as read, or no row.
   */
  static Map<Bytes, Object[]> latestRows(
      KvTable kv,
      RowCodec codec,
      List<Bytes> keys,
      Map<Bytes, Mutation.Condition> conditions,
      Runnable checkpoint) {
    Map<Bytes, Bytes> now = latest(kv, keys, checkpoint);
    Map<Bytes, Object[]> rows = new HashMap<>();
    for (Bytes key : keys) {
      Bytes value = now.get(key);
      conditions.put(key, Mutation.Condition.valueIs(value));
      if (value != null) {
        rows.put(key, codec.decode(key, value));
      }
    }
    return rows;
  }

  /** {@code kv.latestValues} of the keys, {@value Mutations#LOOKUP_BATCH} per request. */
  private static Map<Bytes, Bytes> latest(KvTable kv, List<Bytes> keys, Runnable checkpoint) {
    Map<Bytes, Bytes> values = new HashMap<>();
    for (int from = 0; from < keys.size(); from += Mutations.LOOKUP_BATCH) {
      values.putAll(
          kv.latestValues(
              keys.subList(from, Math.min(from + Mutations.LOOKUP_BATCH, keys.size()))));
      checkpoint.run();
    }
    return values;
  }

  /** Whether the stored {@code value} is the row {@code read}. */
  private static boolean holds(RowCodec codec, Bytes key, Bytes value, Object[] read) {
    return codec.encodeValue(read).equals(value)
        || Arrays.deepEquals(codec.decode(key, value), read);
  }

  private static CairnException conflict(TableDescriptor table) {
    return new CairnException(
        ErrorCode.WRITE_CONFLICT,
        "Write conflict in ["
            + table.qualifiedName()
            + "]: a row this statement read was changed by another commit before it was written;"
            + " nothing of that row was written: run it again");
  }
}
