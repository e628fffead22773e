package io.cairn.store.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The cached blocks of one cache level by (file id, offset): a hash table whose lookups take no
 * lock and allocate nothing, not even a key object (a {@code ConcurrentHashMap<Long, ...>} would
 * box the offset on every lookup).
 *
 * <p>The table is split into segments, each written under its own lock, like the JDK 5 {@code
 * ConcurrentHashMap}: chains are made of immutable nodes, so that a writer never changes a node a
 * reader may be walking; a removal copies the nodes ahead of the removed one, a resize copies the
 * table, and both publish the result with a volatile write. A lookup that races with a write sees
 * the table before or after it, never a broken chain.
 */
final class BlockMap {
  private static final int SEGMENT_BITS = 4;
  private static final int INITIAL_TABLE = 16;

  private final Segment[] segments = new Segment[1 << SEGMENT_BITS];

  BlockMap() {
    for (int i = 0; i < segments.length; i++) {
      segments[i] = new Segment();
    }
  }

  /** The block cached under the key, or null; the caller still has to retain it. */
  CachedBlock get(long fileId, long offset) {
    int hash = hash(fileId, offset);
    AtomicReferenceArray<Node> table = segmentFor(hash).table;
    for (Node node = table.get(hash & (table.length() - 1)); node != null; node = node.next) {
      CachedBlock block = node.block;
      if (node.hash == hash && block.fileId() == fileId && block.offset() == offset) {
        return block;
      }
    }
    return null;
  }

  /**
   * Adds {@code block} unless a block has its key.
   *
   * @return the block already mapped (perhaps freed and about to be unmapped by an eviction), or
   *     null when {@code block} was added
   */
  CachedBlock putIfAbsent(CachedBlock block) {
    int hash = hash(block.fileId(), block.offset());
    return segmentFor(hash).putIfAbsent(hash, block);
  }

  /** Removes {@code block} if it is mapped (the same object); returns whether it was. */
  boolean remove(CachedBlock block) {
    int hash = hash(block.fileId(), block.offset());
    return segmentFor(hash).remove(hash, block);
  }

  /**
   * Calls {@code action} for each block mapped now (weakly consistent: a block added or removed
   * meanwhile may be seen or not), in no particular order. The action may remove blocks.
   */
  void forEach(Consumer<CachedBlock> action) {
    for (Segment segment : segments) {
      AtomicReferenceArray<Node> table = segment.table;
      for (int i = 0; i < table.length(); i++) {
        for (Node node = table.get(i); node != null; node = node.next) {
          action.accept(node.block);
        }
      }
    }
  }

  /** The blocks mapped now (a weakly consistent snapshot), in no particular order. */
  List<CachedBlock> snapshot() {
    List<CachedBlock> blocks = new ArrayList<>();
    forEach(blocks::add);
    return blocks;
  }

  /** The number of mapped blocks (exact when no write is running). */
  int size() {
    int size = 0;
    for (Segment segment : segments) {
      synchronized (segment) {
        size += segment.count;
      }
    }
    return size;
  }

  private Segment segmentFor(int hash) {
    return segments[hash >>> (Integer.SIZE - SEGMENT_BITS)];
  }

  /** Murmur3's 64-bit finalizer over both parts of the key, folded to 32 bits. */
  static int hash(long fileId, long offset) {
    long h = fileId * 0x9E37_79B9_7F4A_7C15L + offset;
    h ^= h >>> 33;
    h *= 0xFF51_AFD7_ED55_8CCDL;
    h ^= h >>> 33;
    h *= 0xC4CE_B9FE_1A85_EC53L;
    h ^= h >>> 33;
    return (int) h;
  }

  private static final class Node {
    final int hash;
    final CachedBlock block;
    final Node next;

    Node(int hash, CachedBlock block, Node next) {
      this.hash = hash;
      this.block = block;
      this.next = next;
    }
  }

  private static final class Segment {
    /** Replaced, never changed in place except for slot writes under the lock. */
    volatile AtomicReferenceArray<Node> table = new AtomicReferenceArray<>(INITIAL_TABLE);

    /** Guarded by this. */
    int count;

    synchronized CachedBlock putIfAbsent(int hash, CachedBlock block) {
      AtomicReferenceArray<Node> tab = table;
      int index = hash & (tab.length() - 1);
      Node head = tab.get(index);
      for (Node node = head; node != null; node = node.next) {
        CachedBlock existing = node.block;
        if (node.hash == hash
            && existing.fileId() == block.fileId()
            && existing.offset() == block.offset()) {
          return existing;
        }
      }
      tab.set(index, new Node(hash, block, head));
      count++;
      if (count > tab.length() - (tab.length() >>> 2)) {
        resize(tab);
      }
      return null;
    }

    synchronized boolean remove(int hash, CachedBlock block) {
      AtomicReferenceArray<Node> tab = table;
      int index = hash & (tab.length() - 1);
      Node head = tab.get(index);
      for (Node node = head; node != null; node = node.next) {
        if (node.block == block) {
          tab.set(index, without(head, node));
          count--;
          return true;
        }
      }
      return false;
    }

    /** The chain from {@code head} without {@code removed}: the nodes ahead of it are copied. */
    private static Node without(Node head, Node removed) {
      Node result = removed.next;
      for (Node node = head; node != removed; node = node.next) {
        result = new Node(node.hash, node.block, result);
      }
      return result;
    }

    private void resize(AtomicReferenceArray<Node> old) {
      AtomicReferenceArray<Node> tab = new AtomicReferenceArray<>(old.length() * 2);
      int mask = tab.length() - 1;
      for (int i = 0; i < old.length(); i++) {
        for (Node node = old.get(i); node != null; node = node.next) {
          int index = node.hash & mask;
          tab.set(index, new Node(node.hash, node.block, tab.get(index)));
        }
      }
      table = tab;
    }
  }
}
