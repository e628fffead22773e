package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;

/** One change to one row of a KV table, with a precondition checked atomically with its batch. */
public sealed interface Mutation permits Mutation.Put, Mutation.Delete {
  Bytes key();

  /** What must hold for the batch to be applied ({@link Condition#NONE}: nothing). */
  Condition condition();

  /** Writes {@code value} under {@code key}. */
  record Put(Bytes key, Bytes value, Condition condition) implements Mutation {
    public Put {
      requireNonNull(key, "key is null");
      requireNonNull(value, "value is null");
      requireNonNull(condition, "condition is null");
    }

    public Put(Bytes key, Bytes value) {
      this(key, value, Condition.NONE);
    }
  }

  /** Removes the row under {@code key} (writes a tombstone). */
  record Delete(Bytes key, Condition condition) implements Mutation {
    public Delete {
      requireNonNull(key, "key is null");
      requireNonNull(condition, "condition is null");
      if (condition.kind() == Condition.Kind.MUST_NOT_EXIST) {
        throw new IllegalArgumentException("A delete cannot require its row to be absent");
      }
    }

    public Delete(Bytes key) {
      this(key, Condition.NONE);
    }
  }

  /**
   * A precondition checked atomically with the whole batch, against the latest committed state (and
   * the batch's own earlier mutations): when it fails, nothing of the batch is applied and the
   * store throws {@link ConditionFailedException}.
   *
   * @param readPoint for {@link Kind#UNCHANGED_SINCE}, the read point (a {@link KvSnapshot}'s) the
   *     row was read at; 0 otherwise
   * @param expected for {@link Kind#VALUE_IS}, the row's value as it was read (null: the key had no
   *     row); null otherwise
   */
  record Condition(Kind kind, long readPoint, Bytes expected) {
    /** No precondition. */
    public static final Condition NONE = new Condition(Kind.NONE, 0, null);

    /** The key has no row (INSERT). */
    public static final Condition MUST_NOT_EXIST = new Condition(Kind.MUST_NOT_EXIST, 0, null);

    /** What a condition checks. */
    public enum Kind {
      NONE,
      /** Fails when the key already has a row. */
      MUST_NOT_EXIST,
      /**
       * Fails when the key was written (put or deleted) by any batch committed after {@code
       * readPoint}: the optimistic check of a read-modify-write (first committer wins). A read
       * point the store no longer keeps versions for fails with SNAPSHOT_TOO_OLD.
       */
      UNCHANGED_SINCE,
      /**
       * Fails unless the key's committed value is exactly {@code expected} (null: unless the key
       * has no row): the optimistic check of a read-modify-write on a store without read points
       * ({@link KvStore.Guarantees#LATEST_PER_ROW}), which compares the row itself. A row changed
       * and changed back passes, rightly: the write was computed from the value it replaces. Only
       * such stores take it; the others refuse it with NOT_SUPPORTED.
       */
      VALUE_IS
    }

    public Condition {
      requireNonNull(kind, "kind is null");
      if (kind != Kind.VALUE_IS && expected != null) {
        throw new IllegalArgumentException(
            "Condition "
                + kind
                + ": expected no value, found one of ["
                + expected.length()
                + "] bytes");
      }
      if ((kind == Kind.UNCHANGED_SINCE) != (readPoint > 0)) {
        throw new IllegalArgumentException(
            "Condition "
                + kind
                + ": expected a read point "
                + (kind == Kind.UNCHANGED_SINCE ? "> 0" : "of 0")
                + ", found ["
                + readPoint
                + "]");
      }
    }

    /** The key must be unchanged since {@code readPoint} (> 0). */
    public static Condition unchangedSince(long readPoint) {
      return new Condition(Kind.UNCHANGED_SINCE, readPoint, null);
    }

    /** The key's value must be exactly {@code expected} (null: the key must have no row). */
    public static Condition valueIs(Bytes expected) {
      return new Condition(Kind.VALUE_IS, 0, expected);
    }
  }
}
