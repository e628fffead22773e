package io.cairn.kv;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;

/**
 * A batch was rejected because a {@link Mutation.Condition} did not hold; nothing of the batch was
 * applied. The caller turns it into a message naming the table and key values.
 */
public final class ConditionFailedException extends CairnException {
  private static final long serialVersionUID = 1L;

  private final int batchIndex;
  private final int mutationIndex;
  private final Bytes key;

  public ConditionFailedException(int mutationIndex, Bytes key) {
    this(0, mutationIndex, key);
  }

  /** For a multi-table commit: the failing table's batch index, then the mutation's. */
  public ConditionFailedException(int batchIndex, int mutationIndex, Bytes key) {
    super(ErrorCode.DUPLICATE_KEY, "A row with key [" + key + "] already exists");
    this.batchIndex = batchIndex;
    this.mutationIndex = mutationIndex;
    this.key = key;
  }

  /**
   * Index of the failing table's batch in a {@link KvStore#mutate(List, Durability)} call; 0 for a
   * single table's batch.
   */
  public int batchIndex() {
    return batchIndex;
  }

  /** The key of the mutation whose condition failed. */
  public Bytes key() {
    return key;
  }

  /** Index in the batch of the first mutation whose condition failed. */
  public int mutationIndex() {
    return mutationIndex;
  }
}
