package io.cairn.kv;

import static java.util.Objects.requireNonNull;

/** One change to one row of a KV table. */
public sealed interface Mutation permits Mutation.Put, Mutation.Delete {
  Bytes key();

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
  record Delete(Bytes key) implements Mutation {
    public Delete {
      requireNonNull(key, "key is null");
    }
  }

  /** A precondition checked atomically with the whole batch. */
  enum Condition {
    NONE,
    /** Fails the batch with {@link ConditionFailedException} when the key already has a row. */
    MUST_NOT_EXIST
  }
}
