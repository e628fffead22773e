package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's broadcast join build sides kept across executions of its prepared statements, so
 * that a statement run again reads and ships its build side once ({@link BroadcastJoin}).
 *
 * <p>An entry is keyed by the build plan (its identity: a statement prepared again has a new plan)
 * and the values of the parameters that plan reads ({@link BuildSide#of}); a build side that reads
 * the time (CURRENT_DATE, ...) or a table the statement's transaction wrote is never kept. It
 * remembers the read point it was built at and the KV tables it read; it is reused only when no
 * table changed since ({@link KvTable#lastChangeSequence} at or below both that read point and the
 * new execution's: a commit by any connection, counted before it is visible, makes it rebuild),
 * and, remote, while the network connection it was put on lasts ({@link
 * KvStore#hashCacheGeneration}).
 *
 * <p>Its bytes ({@link JoinHashTable#estimatedBytes()}) count in the connection's memory pool and
 * in at most {@code maxBytes} for all entries; the least recently used entries no execution uses
 * are evicted to make room, and a build side that does not fit is not kept. An entry is dropped
 * when its statement closes ({@link #dropOwner}), when an execution using it is cancelled, and when
 * the connection closes ({@link #close}); an entry in use is freed when its last user releases it.
 * Freeing removes its copy from the store ({@link KvStore#removeHashCache}; the server's memory of
 * hash caches gets the bytes back). Thread-safe.
 */
public final class JoinBuildCache implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JoinBuildCache.class);

  /** An owner's view of a cache, or none ({@link #NONE}); what an {@link ExecContext} carries. */
  public record Scope(JoinBuildCache cache, Object owner) {
    /** No reuse: every execution builds its own. */
    public static final Scope NONE = new Scope(null, null);

    public Scope {
      if ((cache == null) != (owner == null)) {
        throw new IllegalArgumentException("cache and owner: both or neither");
      }
    }

    boolean enabled() {
      return cache != null;
    }
  }

  /** A build plan (by identity) with the values of the parameters it reads. */
  record Key(Object build, Object[] parameters) {
    Key {
      requireNonNull(build, "build is null");
      parameters = parameters.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.build == build && Arrays.deepEquals(k.parameters, parameters);
    }

    @Override
    public int hashCode() {
      return 31 * System.identityHashCode(build) + Arrays.deepHashCode(parameters);
    }
  }

  /** A kept build side. Guarded by the cache's lock, except its immutable fields. */
  static final class Entry {
    final Key key;
    final Object owner;
    final JoinHashTable table;
    final String cacheId;
    final long readPoint;
    final List<String> tables;
    final long bytes;

    /** The store's hash cache generation before the put; -1 while not put. */
    long generation = -1;

    int users;
    boolean dropped;

    Entry(
        Key key,
        Object owner,
        JoinHashTable table,
        String cacheId,
        long readPoint,
        List<String> tables,
        long bytes) {
      this.key = key;
      this.owner = owner;
      this.table = table;
      this.cacheId = cacheId;
      this.readPoint = readPoint;
      this.tables = List.copyOf(tables);
      this.bytes = bytes;
    }

    JoinHashTable table() {
      return table;
    }

    String cacheId() {
      return cacheId;
    }
  }

  private final KvStore store;
  private final MemoryPool memory;
  private final long maxBytes;

  /** In access order: the first is the least recently used. */
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

  private long used;
  private boolean closed;
  private final AtomicLong reuses = new AtomicLong();
  private final AtomicLong kept = new AtomicLong();

  /**
   * A cache of at most {@code maxBytes} of build sides of joins probed in {@code store}, counted in
   * {@code memory} (the connection's pool).
   */
  public JoinBuildCache(KvStore store, MemoryPool memory, long maxBytes) {
    this.store = requireNonNull(store, "store is null");
    this.memory = requireNonNull(memory, "memory is null");
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive: [" + maxBytes + "]");
    }
    this.maxBytes = maxBytes;
  }

  /** The scope of {@code owner} (a prepared statement's command). */
  public Scope scope(Object owner) {
    return new Scope(this, requireNonNull(owner, "owner is null"));
  }

  /**
   * The entry of {@code key}, acquired (release it with {@link #release}), when it is still what
   * the build side would read at {@code readPoint}; else null (and a stale entry is dropped).
   */
  Entry acquire(Key key, long readPoint) {
    Entry e;
    synchronized (this) {
      e = entries.get(key);
      if (e == null) {
        return null;
      }
      e.users++;
    }
    boolean fresh = false;
    try {
      fresh = unchanged(e, readPoint);
    } finally {
      if (!fresh) {
        release(e, true);
      }
    }
    if (fresh) {
      reuses.incrementAndGet();
    }
    return fresh ? e : null;
  }

  /** Whether no table {@code e} read changed since it was built, nor up to {@code readPoint}. */
  private boolean unchanged(Entry e, long readPoint) {
    long atOrBelow = Math.min(e.readPoint, readPoint);
    for (String name : e.tables) {
      Optional<KvTable> t = store.table(name);
      if (t.isEmpty() || t.get().lastChangeSequence() > atOrBelow) {
        log.debug("Join build side of [{}] changed since read point [{}]", name, e.readPoint);
        return false;
      }
    }
    return true;
  }

  /**
   * Keeps {@code table}, built at {@code readPoint} from {@code tables} and named {@code cacheId}
   * in the store, for {@code owner}; returns it acquired, or null when it does not fit (the caller
   * keeps its table to itself).
   */
  Entry offer(
      Key key,
      Object owner,
      JoinHashTable table,
      String cacheId,
      long readPoint,
      List<String> tables) {
    long bytes = table.estimatedBytes();
    if (bytes > maxBytes) {
      return null;
    }
    List<Entry> freed = new ArrayList<>();
    Entry e;
    synchronized (this) {
      if (closed || entries.containsKey(key)) {
        return null;
      }
      for (Iterator<Entry> it = entries.values().iterator();
          it.hasNext() && used + bytes > maxBytes; ) {
        Entry old = it.next();
        if (old.users == 0) {
          it.remove();
          old.dropped = true;
          used -= old.bytes;
          freed.add(old);
        }
      }
      if (used + bytes > maxBytes || !memory.tryReserve(bytes)) {
        e = null;
      } else {
        e = new Entry(key, owner, table, cacheId, readPoint, tables, bytes);
        e.users = 1;
        used += bytes;
        entries.put(key, e);
        kept.incrementAndGet();
      }
    }
    freed.forEach(this::free);
    return e;
  }

  /**
   * Puts {@code e}'s table into the store unless it is there already on the current network
   * connection; true when it was put now.
   */
  boolean ensurePut(Entry e) {
    long generation = store.hashCacheGeneration();
    synchronized (this) {
      if (e.generation == generation) {
        return false;
      }
    }
    store.putHashCache(e.cacheId, e.table);
    synchronized (this) {
      e.generation = generation;
    }
    return true;
  }

  /** Gives back one use of {@code e}; {@code discard}: drop it too (a cancelled execution's). */
  void release(Entry e, boolean discard) {
    boolean free;
    synchronized (this) {
      if (discard && !e.dropped) {
        drop(e);
      }
      e.users--;
      free = e.dropped && e.users == 0;
    }
    if (free) {
      free(e);
    }
  }

  /** Drops the entries of {@code owner} (its statement closed). */
  public void dropOwner(Object owner) {
    dropAll(e -> e.owner == owner);
  }

  /** Drops every entry; later offers keep nothing. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    dropAll(e -> true);
  }

  private void dropAll(java.util.function.Predicate<Entry> which) {
    List<Entry> freed = new ArrayList<>();
    synchronized (this) {
      for (Entry e : new ArrayList<>(entries.values())) {
        if (which.test(e)) {
          drop(e);
          if (e.users == 0) {
            freed.add(e);
          }
        }
      }
    }
    freed.forEach(this::free);
  }

  /** Takes {@code e} out of the map and the count; the caller holds the lock. */
  private void drop(Entry e) {
    if (entries.get(e.key) == e) {
      entries.remove(e.key);
    }
    e.dropped = true;
    used -= e.bytes;
  }

  /** Returns {@code e}'s memory and removes its copy from the store; outside the lock. */
  private void free(Entry e) {
    memory.release(e.bytes);
    long generation;
    synchronized (this) {
      generation = e.generation;
    }
    if (generation >= 0) {
      try {
        store.removeHashCache(e.cacheId);
      } catch (CairnException ex) {
        if (ex.errorCode() != ErrorCode.CONNECTION_CLOSED) {
          log.debug("Removing the join build side [{}] failed", e.cacheId, ex);
        }
      }
    }
  }

  /** How many executions reused a kept build side (for tests and monitoring). */
  public long reuses() {
    return reuses.get();
  }

  /** How many build sides were kept. */
  public long kept() {
    return kept.get();
  }

  /** The entries kept now. */
  public synchronized int size() {
    return entries.size();
  }

  /** The bytes the entries hold now. */
  public synchronized long usedBytes() {
    return used;
  }

  /** The most bytes the entries may hold. */
  public long maxBytes() {
    return maxBytes;
  }

  /** The names of the entries' caches in the store (for tests). */
  synchronized List<String> cacheIds() {
    List<String> ids = new ArrayList<>();
    for (Map.Entry<Key, Entry> e : entries.entrySet()) {
      ids.add(e.getValue().cacheId);
    }
    return ids;
  }
}
