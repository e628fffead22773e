package io.cairn.kv;

/**
 * A read point of a store, pinned: while it is open the store keeps every version a read at {@link
 * #readPoint()} needs (compactions keep them), so the chunks and pages of one statement, or the
 * statements of one transaction, all read the same committed state ({@link
 * ScanRequest#readPoint()}) and write with {@link Mutation.Condition#unchangedSince}. A store keeps
 * a snapshot for a bounded time (its maximum snapshot age); a read or conditional write at a read
 * point it no longer keeps versions for fails with SNAPSHOT_TOO_OLD. Close it (idempotent) as soon
 * as the statement or transaction ends. Thread-safe.
 */
public interface KvSnapshot extends AutoCloseable {
  /**
   * No snapshot: every scan reads at the latest read point when it opens ({@link
   * ScanRequest#LATEST}); closing it does nothing. What a store without read points hands out.
   */
  KvSnapshot LATEST =
      new KvSnapshot() {
        @Override
        public long readPoint() {
          return ScanRequest.LATEST;
        }

        @Override
        public void close() {}

        @Override
        public String toString() {
          return "latest";
        }
      };

  /** The read point: every batch with a sequence id at or below it is visible, none above. */
  long readPoint();

  @Override
  void close();
}
