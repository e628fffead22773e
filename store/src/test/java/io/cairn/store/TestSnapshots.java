package io.cairn.store;

import static io.cairn.store.TestingTables.delete;
import static io.cairn.store.TestingTables.key;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshots (pinned read points) and UNCHANGED_SINCE conditions of the embedded stores. */
class TestSnapshots {
  @TempDir Path dir;

  private static Mutation.Put conditionalPut(long k, int v, long readPoint) {
    Mutation.Put p = (Mutation.Put) put(k, v);
    return new Mutation.Put(p.key(), p.value(), Mutation.Condition.unchangedSince(readPoint));
  }

  @Test
  void everyScanAtASnapshotReadsTheSameStateWhileOthersWrite() {
    try (EmbeddedStore store = new EmbeddedStore("snap")) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10), put(2, 20)));
      try (KvSnapshot snapshot = store.openSnapshot()) {
        t.mutate(List.of(put(1, 11), delete(2), put(3, 30)));
        List<List<Object>> before = List.of(List.of(1L, 10), List.of(2L, 20));
        assertThat(readAll(t, scanAll().atReadPoint(snapshot.readPoint()))).isEqualTo(before);
        assertThat(readAll(t, scanAll())).isEqualTo(List.of(List.of(1L, 11), List.of(3L, 30)));
        // a second scan at the same read point, after more writes, still reads the same state
        t.mutate(List.of(put(4, 40)));
        assertThat(readAll(t, scanAll().atReadPoint(snapshot.readPoint()))).isEqualTo(before);
        assertThat(store.openSnapshots()).isEqualTo(1);
      }
      assertThat(store.openSnapshots()).isZero();
    }
  }

  @Test
  void aValueConditionIsRefusedForTheStoreHasReadPoints() {
    try (EmbeddedStore store = new EmbeddedStore("value")) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10)));
      Mutation.Put p = (Mutation.Put) put(1, 11);
      assertThatThrownBy(
              () ->
                  t.mutate(
                      List.of(
                          new Mutation.Put(
                              p.key(), p.value(), Mutation.Condition.valueIs(p.value())))))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED);
                assertThat(e.getMessage()).contains("VALUE_IS", "expected UNCHANGED_SINCE");
              });
      assertThat(readAll(t, scanAll())).isEqualTo(List.of(List.of(1L, 10)));
      assertThatThrownBy(() -> t.latestValues(List.of(p.key())))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED));
    }
  }

  @Test
  void unchangedSinceFailsAfterAConcurrentCommitAndAppliesNothing() {
    try (EmbeddedStore store = new EmbeddedStore("cond")) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10), put(2, 20)));
      try (KvSnapshot s = store.openSnapshot()) {
        long rp = s.readPoint();
        t.mutate(List.of(put(2, 21))); // another writer changes row 2
        assertThatThrownBy(
                () -> t.mutate(List.of(conditionalPut(1, 11, rp), conditionalPut(2, 22, rp))))
            .isInstanceOfSatisfying(
                ConditionFailedException.class,
                e -> {
                  assertThat(e.errorCode()).isEqualTo(ErrorCode.WRITE_CONFLICT);
                  assertThat(e.isConflict()).isTrue();
                  assertThat(e.mutationIndex()).isEqualTo(1);
                  assertThat(e.key()).isEqualTo(key(2));
                });
        assertThat(readAll(t, scanAll())).isEqualTo(List.of(List.of(1L, 10), List.of(2L, 21)));
        // a delete of the changed row conflicts too; rows nobody changed apply
        assertThatThrownBy(
                () ->
                    t.mutate(
                        List.of(
                            new Mutation.Delete(key(2), Mutation.Condition.unchangedSince(rp)))))
            .isInstanceOf(ConditionFailedException.class);
        t.mutate(List.of(conditionalPut(1, 11, rp)));
        assertThat(readAll(t, scanAll())).isEqualTo(List.of(List.of(1L, 11), List.of(2L, 21)));
        // a deleted row counts as changed; an absent row unchanged since is absent still
        t.mutate(List.of(delete(1)));
        assertThatThrownBy(() -> t.mutate(List.of(conditionalPut(1, 12, rp))))
            .isInstanceOf(ConditionFailedException.class);
        t.mutate(List.of(conditionalPut(9, 90, rp)));
        assertThat(readAll(t, scanAll())).contains(List.of(9L, 90));
      }
    }
  }

  @Test
  void conditionsSeeFlushedAndCompactedVersions() {
    try (EmbeddedStore store = EmbeddedStore.open(dir.resolve("store"), StoreConfig.defaults())) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10)));
      try (KvSnapshot s = store.openSnapshot()) {
        t.mutate(List.of(put(1, 11)));
        t.flush();
        t.compact(true); // the snapshot keeps the version it read and the newer one's sequence id
        assertThatThrownBy(() -> t.mutate(List.of(conditionalPut(1, 12, s.readPoint()))))
            .isInstanceOf(ConditionFailedException.class);
        assertThat(readAll(t, scanAll().atReadPoint(s.readPoint())))
            .isEqualTo(List.of(List.of(1L, 10)));
      }
    }
  }

  @Test
  void aSnapshotPastItsMaximumAgeIsReleasedAndItsReadsFailOnceVersionsMerge() throws Exception {
    try (EmbeddedStore store =
        EmbeddedStore.open(
            dir.resolve("store"), StoreConfig.from(Map.of(StoreConfig.SNAPSHOT_MAX_AGE, "50ms")))) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10)));
      KvSnapshot s = store.openSnapshot();
      long rp = s.readPoint();
      t.mutate(List.of(put(1, 11)));
      Thread.sleep(100); // the snapshot's age passes its maximum
      t.flush(); // merges versions below the smallest read point still pinned: none
      assertThat(store.openSnapshots()).isZero();
      assertThatThrownBy(() -> readAll(t, scanAll().atReadPoint(rp)))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.SNAPSHOT_TOO_OLD);
                assertThat(e.getMessage()).contains(StoreConfig.SNAPSHOT_MAX_AGE).contains("50");
              });
      assertThatThrownBy(() -> t.mutate(List.of(conditionalPut(1, 12, rp))))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SNAPSHOT_TOO_OLD));
      s.close(); // idempotent after expiry
      assertThat(readAll(t, scanAll())).isEqualTo(List.of(List.of(1L, 11)));
    }
  }

  @Test
  void aSnapshotOfAnEmptyStoreHidesLaterCommits() {
    try (EmbeddedStore store = new EmbeddedStore("empty")) {
      KvSnapshot s = store.openSnapshot(); // before any commit
      assertThat(s.readPoint()).isPositive();
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10)));
      assertThat(readAll(t, scanAll().atReadPoint(s.readPoint()))).isEmpty();
      t.mutate(List.of(conditionalPut(2, 20, s.readPoint()))); // a condition on it is valid
      s.close();
    }
  }

  @Test
  void aReadPointFromTheFutureIsRefused() {
    try (EmbeddedStore store = new EmbeddedStore("future")) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10)));
      assertThatThrownBy(() -> readAll(t, scanAll().atReadPoint(1_000)))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
  }
}
