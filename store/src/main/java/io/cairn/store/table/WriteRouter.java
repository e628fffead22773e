package io.cairn.store.table;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.Mutation;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.wal.WalEdit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Routes a table's writes to its regions: groups a batch by the region holding each key, checks the
 * batch's conditions against those regions, turns it into log edits, and applies a logged edit at
 * open. Holds no state: each call takes the table's regions as the caller saw them ({@link
 * RegionMap#regions()}); the store's commit locks the regions, applies the groups to their
 * memstores and logs the edits, one sequence id and one log record per batch.
 *
 * <p>Locks: {@link #checkConditions} needs the write locks of the batch's regions held by the
 * caller (so no write or split slips in between the check and the apply); {@link #replay} runs at
 * open, single-threaded, before any other access; the others need none.
 */
public final class WriteRouter {
  private WriteRouter() {}

  /** Adds the batch's mutations to {@code byRegion}, each under the region holding its key. */
  public static void groupByRegion(
      Region[] rs, List<Mutation> batch, Map<Region, List<Mutation>> byRegion) {
    if (rs.length == 1) {
      byRegion.computeIfAbsent(rs[0], r -> new ArrayList<>()).addAll(batch);
      return;
    }
    for (Mutation m : batch) {
      byRegion
          .computeIfAbsent(rs[RegionMap.regionIndex(rs, m.key())], r -> new ArrayList<>())
          .add(m);
    }
  }

  /**
   * Checks the batch's conditions against the latest applied state (and the batch's own earlier
   * mutations), rows expired at {@code expiredAtOrBelow} (TTL, -1: none) counting as absent;
   * callers hold the write locks of the batch's regions.
   *
   * @throws ConditionFailedException naming {@code batchIndex} and the failing mutation
   * @throws CairnException SNAPSHOT_TOO_OLD for an UNCHANGED_SINCE condition whose read point the
   *     store no longer keeps versions for (a compaction may have merged the versions it compares)
   */
  public static void checkConditions(
      Region[] rs, List<Mutation> batch, int batchIndex, Mvcc mvcc, long expiredAtOrBelow) {
    if (!anyCondition(batch)) {
      return; // a blind write (a load's batch): nothing to check, no map of its keys to fill
    }
    Map<Bytes, Boolean> pending = batch.size() > 1 ? new HashMap<>() : null;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      Mutation.Condition c = m.condition();
      switch (c.kind()) {
        case NONE -> {}
        case MUST_NOT_EXIST -> {
          Boolean inBatch = pending == null ? null : pending.get(m.key());
          boolean exists =
              inBatch != null
                  ? inBatch
                  : rs[RegionMap.regionIndex(rs, m.key())].rowExists(m.key(), expiredAtOrBelow);
          if (exists) {
            throw new ConditionFailedException(batchIndex, i, m.key());
          }
        }
        case UNCHANGED_SINCE -> {
          mvcc.checkReadPoint(c.readPoint());
          // a key twice in one batch: its earlier mutation is this batch's, not a concurrent one
          if ((pending == null || !pending.containsKey(m.key()))
              && rs[RegionMap.regionIndex(rs, m.key())].latestSequenceId(m.key()) > c.readPoint()) {
            throw new ConditionFailedException(
                batchIndex, i, m.key(), Mutation.Condition.Kind.UNCHANGED_SINCE);
          }
        }
        case VALUE_IS ->
            throw new CairnException(
                ErrorCode.NOT_SUPPORTED,
                "A VALUE_IS condition is for stores without read points; this store has them:"
                    + " expected UNCHANGED_SINCE");
      }
      if (pending != null) {
        pending.put(m.key(), m instanceof Mutation.Put);
      }
    }
  }

  private static boolean anyCondition(List<Mutation> batch) {
    for (Mutation m : batch) {
      if (m.condition().kind() != Mutation.Condition.Kind.NONE) {
        return true;
      }
    }
    return false;
  }

  /** Adds the batch's mutations to {@code edits} as log edits of table {@code tableId}. */
  public static void addEdits(long tableId, List<Mutation> batch, List<WalEdit> edits) {
    for (Mutation m : batch) {
      if (m instanceof Mutation.Put put) {
        edits.add(new WalEdit(tableId, put.key(), false, put.value()));
      } else {
        edits.add(new WalEdit(tableId, m.key(), true, Bytes.EMPTY));
      }
    }
  }

  /**
   * Applies one logged edit at open to the region of {@code regions} holding its key, unless that
   * region's files already hold it (its sequence id is at or below the region's flushed one).
   */
  public static void replay(Region[] regions, WalEdit edit, long sequenceId) {
    // a local index entry lives with its row
    Bytes routed =
        regions[0].indexSpace() && IndexKeys.isEntry(edit.key())
            ? IndexKeys.rowKey(edit.key())
            : edit.key();
    Region r = regions[RegionMap.regionIndex(regions, routed)];
    if (sequenceId <= r.flushedSequenceId()) {
      return;
    }
    Mutation m =
        edit.delete()
            ? new Mutation.Delete(edit.key())
            : new Mutation.Put(edit.key(), edit.value());
    r.apply(List.of(m), sequenceId);
  }
}
