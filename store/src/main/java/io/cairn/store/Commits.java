package io.cairn.store;

import io.cairn.kv.Durability;
import io.cairn.kv.Mutation;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.table.RegionMap;
import io.cairn.store.table.WriteRouter;
import io.cairn.store.wal.WalEdit;
import io.cairn.store.wal.WalRecord;
import io.cairn.store.wal.WriteAheadLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The store's commits: one atomic batch across the regions of several tables. The regions' write
 * locks are taken in (table id, start key) order, every condition is checked, the batch gets one
 * sequence id and one log record, and becomes visible at once when the log has it (as durable as
 * asked). A region that split while the commit waited for its lock is routed again; a failure after
 * the memstores took the batch rolls it back. Afterwards the memstores' growth is accounted ({@link
 * MemstoreBudget}) and flushes and statistics requested ({@link BackgroundWork}).
 *
 * <p>The records go to a {@link Log}: the store's, or in memory none ({@link Log#NONE}), where
 * every commit is {@link Durability#SKIP}.
 *
 * <p>Locks: takes the regions' write locks itself; callers hold none (a commit may stall in {@link
 * MemstoreBudget#grew}). It counts the commits under way so that the close can wait for them.
 */
final class Commits {
  private final Mvcc mvcc;
  private final TimeIndex timeIndex;

  /** Where the records go; nowhere in memory. */
  private final Log log;

  private final long memstoreFlushBytes;
  private final MemstoreBudget budget;
  private final BackgroundWork background;
  private final AtomicInteger activeCommits = new AtomicInteger();

  /**
   * Whether anything was written (a commit, DDL, a flush or a compaction) since the store opened.
   */
  private volatile boolean written;

  Commits(
      Mvcc mvcc,
      TimeIndex timeIndex,
      Log log,
      StoreConfig config,
      MemstoreBudget budget,
      BackgroundWork background) {
    this.mvcc = mvcc;
    this.timeIndex = timeIndex;
    this.log = log;
    this.memstoreFlushBytes = config.memstoreFlushBytes();
    this.budget = budget;
    this.background = background;
  }

  /**
   * Applies the tables' batches atomically, once {@code checkOpen} (run after the commit counts as
   * under way) passes.
   */
  void commit(
      List<EmbeddedTable> owners,
      List<List<Mutation>> batches,
      Durability durability,
      Runnable checkOpen) {
    activeCommits.incrementAndGet(); // close() waits for commits under way
    try {
      checkOpen.run();
      written = true;
      commitOpen(owners, batches, durability);
    } finally {
      activeCommits.decrementAndGet();
    }
  }

  /** Whether anything was written since the store opened. */
  boolean written() {
    return written;
  }

  /** Records a write that is no commit (salvage's flush at open). */
  void markWritten() {
    written = true;
  }

  /** Waits (up to a minute) for commits that began before the store was marked closed. */
  void awaitCommits() {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (activeCommits.get() > 0 && System.nanoTime() < deadline) {
      try {
        TimeUnit.MILLISECONDS.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private Durability durability(List<EmbeddedTable> owners, Durability requested) {
    if (requested != null) {
      return log.durability(requested);
    }
    Durability d = Durability.SKIP;
    for (EmbeddedTable t : owners) {
      d = d.max(t.defaultDurability());
    }
    return log.durability(d);
  }

  private void commitOpen(
      List<EmbeddedTable> owners, List<List<Mutation>> batches, Durability durability) {
    Durability d = durability(owners, durability);
    while (true) {
      Region[][] snapshot = new Region[owners.size()][];
      Map<Region, List<Mutation>> byRegion = new LinkedHashMap<>();
      Map<Region, EmbeddedTable> ownerOf = new IdentityHashMap<>();
      for (int i = 0; i < owners.size(); i++) {
        snapshot[i] = owners.get(i).peekRegions();
        RegionMap.groupByRegion(snapshot[i], batches.get(i), byRegion);
        for (Region r : byRegion.keySet()) {
          ownerOf.putIfAbsent(r, owners.get(i));
        }
      }
      // lock in (table id, start key) order, the same for every commit: no deadlock
      List<Region> locked = new ArrayList<>(byRegion.keySet());
      locked.sort(
          Comparator.<Region>comparingLong(r -> ownerOf.get(r).tableId())
              .thenComparing((a, b) -> a.range().start().compareTo(b.range().start())));
      for (Region r : locked) {
        r.writeLock().lock();
      }
      Mvcc.WriteEntry entry = null;
      long ticket = -1;
      long added = 0;
      try {
        if (anyRetired(locked)) {
          locked.forEach(Region::checkOpen);
          continue; // split while we waited: route again
        }
        for (int i = 0; i < owners.size(); i++) {
          WriteRouter.checkConditions(
              snapshot[i], batches.get(i), i, mvcc, owners.get(i).expiredAtOrBelow());
        }
        List<List<Mutation>> logged = withIndexChanges(owners, batches, byRegion, ownerOf);
        entry = mvcc.begin();
        for (Map.Entry<Region, List<Mutation>> e : byRegion.entrySet()) {
          long before = e.getKey().activeMemstoreBytes();
          e.getKey().apply(e.getValue(), entry.sequenceId);
          added += e.getKey().activeMemstoreBytes() - before;
        }
        for (EmbeddedTable t : owners) {
          t.changed(entry.sequenceId); // before it is visible: see EmbeddedTable#lastChangeSequence
        }
        if (d != Durability.SKIP) {
          List<WalEdit> edits = new ArrayList<>();
          for (int i = 0; i < owners.size(); i++) {
            WriteRouter.addEdits(owners.get(i).tableId(), logged.get(i), edits);
          }
          ticket = log.enqueue(new WalRecord(entry.sequenceId, edits));
        }
      } catch (RuntimeException | Error e) {
        // an Error too (OutOfMemoryError while applying): a batch left in flight would hold the
        // read point back forever, and every later commit and the store's close would wait on it
        if (entry != null) {
          rollback(byRegion, entry);
        }
        throw e;
      } finally {
        for (Region r : locked) {
          r.writeLock().unlock();
        }
      }
      try {
        if (ticket >= 0) {
          log.await(ticket, d);
        }
      } catch (RuntimeException | Error e) {
        rollback(byRegion, entry);
        throw e;
      }
      mvcc.completeAndWait(entry);
      timeIndex.committed(entry.sequenceId);
      budget.grew(added);
      for (Map.Entry<Region, EmbeddedTable> e : ownerOf.entrySet()) {
        if (e.getKey().activeMemstoreBytes() > memstoreFlushBytes) {
          background.requestFlush(e.getValue(), e.getKey());
        }
        if (e.getKey().statisticsStale()) {
          background.requestStatistics(e.getValue(), e.getKey());
        }
      }
      return;
    }
  }

  /**
   * Adds the local index entry changes of each region's rows to its part of the batch (the commit
   * holds the regions' write locks); returns each table's batch with its entry changes, to log.
   */
  private static List<List<Mutation>> withIndexChanges(
      List<EmbeddedTable> owners,
      List<List<Mutation>> batches,
      Map<Region, List<Mutation>> byRegion,
      Map<Region, EmbeddedTable> ownerOf) {
    List<List<Mutation>> logged = null;
    for (Map.Entry<Region, List<Mutation>> e : byRegion.entrySet()) {
      EmbeddedTable table = ownerOf.get(e.getKey());
      List<Mutation> changes = table.indexChanges(e.getKey(), e.getValue());
      if (changes.isEmpty()) {
        continue;
      }
      e.getValue().addAll(changes);
      if (logged == null) {
        logged = new ArrayList<>(batches);
      }
      int i = owners.indexOf(table);
      if (logged.get(i) == batches.get(i)) {
        logged.set(i, new ArrayList<>(batches.get(i)));
      }
      logged.get(i).addAll(changes);
    }
    return logged == null ? batches : logged;
  }

  private static boolean anyRetired(List<Region> regions) {
    for (Region r : regions) {
      if (r.isRetired()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Takes the batch's cells out of the memstores and completes its sequence id, even when taking
   * them out fails (the read point must pass it).
   */
  private void rollback(Map<Region, List<Mutation>> byRegion, Mvcc.WriteEntry entry) {
    try {
      for (Map.Entry<Region, List<Mutation>> e : byRegion.entrySet()) {
        e.getKey().rollback(e.getValue(), entry.sequenceId);
      }
    } finally {
      mvcc.completeAndWait(entry);
    }
  }

  /**
   * Where the commits' records go: the store's write-ahead log ({@link #of}), or nowhere ({@link
   * #NONE}: the in-memory store, where every commit is {@link Durability#SKIP}).
   */
  interface Log {
    /** No log: nothing is logged, every commit is {@link Durability#SKIP}. */
    Log NONE =
        new Log() {
          @Override
          public Durability durability(Durability asked) {
            return Durability.SKIP;
          }

          @Override
          public long enqueue(WalRecord record) {
            throw new IllegalStateException("An in-memory store logs nothing");
          }

          @Override
          public void await(long ticket, Durability durability) {
            throw new IllegalStateException("An in-memory store logs nothing");
          }
        };

    /** The records go to {@code wal}, as durable as asked. */
    static Log of(WriteAheadLog wal) {
      return new Log() {
        @Override
        public Durability durability(Durability asked) {
          return asked;
        }

        @Override
        public long enqueue(WalRecord record) {
          return wal.enqueue(record);
        }

        @Override
        public void await(long ticket, Durability durability) {
          wal.await(ticket, durability);
        }
      };
    }

    /** The durability a commit asking for {@code asked} gets. */
    Durability durability(Durability asked);

    /** Appends the record (a commit holding its regions' write locks); a ticket to await. */
    long enqueue(WalRecord record);

    /** Waits until the record of {@code ticket} is as durable as {@code durability}. */
    void await(long ticket, Durability durability);
  }
}
