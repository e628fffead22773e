package io.cairn.store.file;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The data blocks of a store's files as numeric column vectors ({@link BlockVectors}), on the heap,
 * within a byte budget ({@code cairn.vector-cache.size}): a scan that asks for a block's vectors
 * builds those missing once (decoding the block's cells and reading the columns asked for) and
 * later scans read them instead of decoding the block. Evicts whole blocks, least recently used
 * first; a file's blocks go when its reader closes. Once full it builds only one block in {@value
 * #FULL_ADMISSION} that it misses (the others are read as rows), so that a scan of more than it
 * holds, again and again, keeps most of what it holds instead of evicting every block before its
 * next use. A budget of 0 disables it (scans then read rows). Thread-safe: one lock, taken once per
 * block a scan reaches, not per row.
 */
public final class VectorCache {
  /** A cache that keeps nothing. */
  public static final VectorCache DISABLED = new VectorCache(0);

  private record Key(long file, long offset) {}

  private final long maxBytes;
  private final LinkedHashMap<Key, BlockVectors> blocks = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;
  private long hits;
  private long misses;
  private long evictions;

  /** A cache of at most {@code maxBytes} bytes of vectors (estimated: their arrays). */
  public VectorCache(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes: expected >= 0, found [" + maxBytes + "]");
    }
    this.maxBytes = maxBytes;
  }

  public boolean enabled() {
    return maxBytes > 0;
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** Once full, one missed block in this many is built (and evicts others). */
  static final int FULL_ADMISSION = 8;

  private long fullMisses;

  /**
   * Whether a block missed (or missing columns) may be built now: always while the cache has room,
   * one in {@value #FULL_ADMISSION} once it is full.
   */
  synchronized boolean admits() {
    return maxBytes > 0 && (bytes < maxBytes || fullMisses++ % FULL_ADMISSION == 0);
  }

  /** The block of file {@code file} (its cache id) at {@code offset}, or null. */
  synchronized BlockVectors get(long file, long offset) {
    BlockVectors found = blocks.get(new Key(file, offset));
    if (found == null) {
      misses++;
    } else {
      hits++;
    }
    return found;
  }

  /**
   * Keeps {@code block} (whose columns were built outside the lock) unless the same block is kept
   * already: then adds {@code block}'s columns to that one; returns the block kept.
   */
  synchronized BlockVectors put(long file, long offset, BlockVectors block) {
    Key key = new Key(file, offset);
    BlockVectors kept = blocks.get(key);
    long before;
    if (kept == null) {
      kept = block;
      blocks.put(key, kept);
      before = 0;
    } else {
      before = kept.bytes();
      kept.addColumnsOf(block);
    }
    bytes += kept.bytes() - before;
    evict(key);
    return kept;
  }

  private void evict(Key keep) {
    Iterator<Map.Entry<Key, BlockVectors>> it = blocks.entrySet().iterator();
    while (bytes > maxBytes && it.hasNext()) {
      Map.Entry<Key, BlockVectors> eldest = it.next();
      if (eldest.getKey().equals(keep) && blocks.size() > 1) {
        continue;
      }
      bytes -= eldest.getValue().bytes();
      evictions++;
      it.remove();
    }
  }

  /** Drops the blocks of file {@code file} (its reader closed). */
  synchronized void evictFile(long file) {
    Iterator<Map.Entry<Key, BlockVectors>> it = blocks.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, BlockVectors> e = it.next();
      if (e.getKey().file() == file) {
        bytes -= e.getValue().bytes();
        it.remove();
      }
    }
  }

  /** Bytes of the vectors kept now. */
  public synchronized long bytes() {
    return bytes;
  }

  public synchronized int blockCount() {
    return blocks.size();
  }

  public synchronized long hits() {
    return hits;
  }

  public synchronized long misses() {
    return misses;
  }

  public synchronized long evictions() {
    return evictions;
  }
}
