package io.cairn.store;

import static io.cairn.store.TestingTables.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.kv.KvTable;
import io.cairn.store.table.CompactionLog;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCompactionLog {
  @TempDir Path dir;

  @Test
  void recordsRunningAndEndedCompactions() {
    CompactionLog log = new CompactionLog(2);
    CompactionLog.Running a = log.begin("T", 1, false, 3, 300);
    CompactionLog.Running b = log.begin("T", 2, true, 5, 500);
    assertThat(log.running())
        .extracting(CompactionLog.Compaction::regionId)
        .containsExactly(1L, 2L);
    assertThat(log.running()).allMatch(c -> c.outcome() == CompactionLog.Outcome.RUNNING);
    a.finish(120);
    a.close(); // after finish: nothing
    assertThat(log.running()).extracting(CompactionLog.Compaction::regionId).containsExactly(2L);
    b.close(); // not finished: failed
    CompactionLog.Running c = log.begin("U", 3, false, 2, 10);
    c.finish(0);
    assertThat(log.running()).isEmpty();
    List<CompactionLog.Compaction> recent = log.recent();
    assertThat(recent).hasSize(2); // the capacity: the oldest went
    assertThat(recent.get(0).table()).isEqualTo("U");
    assertThat(recent.get(1).outcome()).isEqualTo(CompactionLog.Outcome.FAILED);
    assertThat(recent.get(1).major()).isTrue();
    assertThat(recent.get(1).filesIn()).isEqualTo(5);
    assertThat(recent.get(1).bytesIn()).isEqualTo(500);
    assertThat(recent.get(1).bytesOut()).isZero();
    assertThatThrownBy(() -> new CompactionLog(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Capacity: expected >= 1, found [0]");
  }

  @Test
  void storeRecordsItsCompactions() {
    Map<String, String> settings =
        Map.of(
            StoreConfig.COMPACTION_MIN_FILES, "100", // no background compaction in the way
            StoreConfig.COMPACTION_MAX_FILES, "100",
            StoreConfig.COMPACTION_THROUGHPUT, "0");
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(settings))) {
      KvTable t = store.createTable("T");
      for (int i = 0; i < 3; i++) {
        t.mutate(List.of(put(i, i), put(i + 100, i)));
        t.flush();
      }
      long bytesIn = t.regions().get(0).fileBytes();
      assertThat(t.regions().get(0).fileCount()).isEqualTo(3);
      t.compact(true);
      List<CompactionLog.Compaction> recent = store.compactionLog().recent();
      assertThat(recent).hasSize(1);
      CompactionLog.Compaction c = recent.get(0);
      assertThat(c.table()).isEqualTo("T");
      assertThat(c.regionId()).isEqualTo(t.regions().get(0).regionId());
      assertThat(c.major()).isTrue();
      assertThat(c.filesIn()).isEqualTo(3);
      assertThat(c.bytesIn()).isEqualTo(bytesIn);
      assertThat(c.bytesOut()).isEqualTo(t.regions().get(0).fileBytes()).isPositive();
      assertThat(c.outcome()).isEqualTo(CompactionLog.Outcome.SUCCEEDED);
      assertThat(store.compactionLog().running()).isEmpty();
    }
  }

  @Test
  void inMemoryStoreHasAnEmptyLog() {
    try (EmbeddedStore store = new EmbeddedStore("m")) {
      store.createTable("T").compact(true);
      assertThat(store.compactionLog().recent()).isEmpty();
      assertThat(store.isDurable()).isFalse();
      assertThat(store.bufferPoolStats()).isEmpty();
      assertThat(store.blockCacheLevels()).isEmpty();
      assertThat(store.tables()).extracting(KvTable::name).containsExactly("T");
    }
  }
}
