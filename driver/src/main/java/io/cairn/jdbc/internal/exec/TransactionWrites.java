package io.cairn.jdbc.internal.exec;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.Mutation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The uncommitted writes of a transaction, per KV table and key (the last write of a key wins),
 * which the transaction's own statements read over the store's rows at the transaction's read
 * point. Not thread-safe: one session's.
 */
public final class TransactionWrites {
  /** No writes: what statements outside a transaction see. */
  public static final TransactionWrites NONE = new TransactionWrites(true);

  private final Map<String, NavigableMap<Bytes, Mutation>> byTable = new HashMap<>();
  private final boolean frozen;

  public TransactionWrites() {
    this(false);
  }

  private TransactionWrites(boolean frozen) {
    this.frozen = frozen;
  }

  /** The writes to {@code kvTableName} in key order (a view; empty when none). */
  public NavigableMap<Bytes, Mutation> of(String kvTableName) {
    NavigableMap<Bytes, Mutation> m = byTable.get(kvTableName);
    return m == null ? Collections.emptyNavigableMap() : Collections.unmodifiableNavigableMap(m);
  }

  /** Whether the transaction wrote to {@code kvTableName}. */
  public boolean touches(String kvTableName) {
    NavigableMap<Bytes, Mutation> m = byTable.get(kvTableName);
    return m != null && !m.isEmpty();
  }

  /** Records {@code m}, replacing an earlier write of its key. */
  public void add(String kvTableName, Mutation m) {
    if (frozen) {
      throw new IllegalStateException("No transaction to write to");
    }
    byTable.computeIfAbsent(kvTableName, k -> new TreeMap<>()).put(m.key(), m);
  }

  /** The tables written to, each with its writes in key order. */
  public Map<String, NavigableMap<Bytes, Mutation>> tables() {
    return Collections.unmodifiableMap(byTable);
  }

  public boolean isEmpty() {
    return byTable.values().stream().allMatch(Map::isEmpty);
  }

  public void clear() {
    byTable.clear();
  }
}
