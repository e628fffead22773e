package io.cairn.store;

import io.cairn.kv.KvTable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A table that knows its last commit ({@link #lastChangeSequence}): {@link Commits} records each
 * commit's sequence id ({@link #changed}) after applying it and before it becomes visible, so that
 * two read points at or above the recorded one see the same rows. Starts at the store's last
 * sequence id when the table is opened or created (a table created again under a name is not the
 * one read before). Under a TTL rows expire without commits: {@link Long#MAX_VALUE}, never the
 * same. Kept apart from {@link EmbeddedTable} so that its wiring stays small. Thread-safe.
 */
abstract class ChangeCountedTable implements KvTable {
  private final LongSupplier ttlMillis;
  private final AtomicLong lastChange;

  ChangeCountedTable(LongSupplier ttlMillis, long openedAt) {
    this.ttlMillis = ttlMillis;
    this.lastChange = new AtomicLong(openedAt);
  }

  /** Records a commit of {@code sequenceId} to the table, before it is visible. */
  final void changed(long sequenceId) {
    lastChange.accumulateAndGet(sequenceId, Math::max);
  }

  @Override
  public final long lastChangeSequence() {
    return ttlMillis.getAsLong() == 0 ? lastChange.get() : Long.MAX_VALUE;
  }
}
