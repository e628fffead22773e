package io.cairn.kv;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;

/**
 * A batch was rejected because a {@link Mutation.Condition} did not hold; nothing of the batch was
 * applied, unless {@link #othersWritten()} (a store that writes each row on its own, {@link
 * KvStore.Guarantees#LATEST_PER_ROW}). The caller turns it into a message naming the table and key
 * values.
 */
public final class ConditionFailedException extends CairnException {
  private static final long serialVersionUID = 1L;

  private final int batchIndex;
  private final int mutationIndex;
  private final Bytes key;
  private final Mutation.Condition.Kind kind;
  private final boolean othersWritten;
  private final java.util.Set<Bytes> written;

  /** A failed MUST_NOT_EXIST of a single table's batch. */
  public ConditionFailedException(int mutationIndex, Bytes key) {
    this(0, mutationIndex, key);
  }

  /**
   * A failed MUST_NOT_EXIST: for a multi-table commit, the failing table's batch index, then the
   * mutation's.
   */
  public ConditionFailedException(int batchIndex, int mutationIndex, Bytes key) {
    this(batchIndex, mutationIndex, key, Mutation.Condition.Kind.MUST_NOT_EXIST);
  }

  /** A failed condition of {@code kind} (MUST_NOT_EXIST, UNCHANGED_SINCE or VALUE_IS). */
  public ConditionFailedException(
      int batchIndex, int mutationIndex, Bytes key, Mutation.Condition.Kind kind) {
    super(
        isConflict(kind) ? ErrorCode.WRITE_CONFLICT : ErrorCode.DUPLICATE_KEY,
        isConflict(kind)
            ? "The row with key [" + key + "] was changed by another commit since it was read"
            : "A row with key [" + key + "] already exists");
    this.batchIndex = batchIndex;
    this.mutationIndex = mutationIndex;
    this.key = key;
    this.kind = kind;
    this.othersWritten = false;
    this.written = java.util.Set.of();
  }

  private ConditionFailedException(ConditionFailedException e, java.util.Set<Bytes> written) {
    super(e.errorCode(), e.getMessage() + "; the batch's other rows were written");
    this.batchIndex = e.batchIndex;
    this.mutationIndex = e.mutationIndex;
    this.key = e.key;
    this.kind = e.kind;
    this.othersWritten = true;
    this.written = java.util.Set.copyOf(written);
  }

  /**
   * The same failure, from a store that wrote the batch's other rows (each on its own) and says so.
   */
  public ConditionFailedException withOthersWritten() {
    return new ConditionFailedException(this, java.util.Set.of());
  }

  /**
   * The same failure, from a store that wrote the rows of {@code written} (each on its own,
   * conditions held) and says which: a read-modify-write run again leaves them alone.
   */
  public ConditionFailedException withOthersWritten(java.util.Set<Bytes> written) {
    return new ConditionFailedException(this, written);
  }

  /**
   * The keys of the batch the store wrote although the batch failed, when it says ({@link
   * #withOthersWritten(java.util.Set)}); empty otherwise.
   */
  public java.util.Set<Bytes> written() {
    return written;
  }

  /** Whether rows of the batch other than the failing one were written. */
  public boolean othersWritten() {
    return othersWritten;
  }

  /** The kind of the condition that failed. */
  public Mutation.Condition.Kind kind() {
    return kind;
  }

  /** Whether a concurrent commit changed a row read at an older read point (retry the work). */
  public boolean isConflict() {
    return isConflict(kind);
  }

  private static boolean isConflict(Mutation.Condition.Kind kind) {
    return kind == Mutation.Condition.Kind.UNCHANGED_SINCE
        || kind == Mutation.Condition.Kind.VALUE_IS;
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
