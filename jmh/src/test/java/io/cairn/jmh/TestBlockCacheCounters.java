package io.cairn.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestBlockCacheCounters {
  @Test
  void findsTheLevelsOfTheStoresCache() throws Exception {
    try (KvReadPathTable t = KvReadPathTable.create(2_000, CacheSetting.OFF_HEAP, "16m")) {
      BlockCacheCounters before = t.cacheCounters();
      assertThat(before.levels()).isEqualTo(2);
      t.countRows(KvReadPathTable.scanAll());
      BlockCacheCounters after = t.cacheCounters();
      assertThat(after.hits()).isGreaterThan(before.hits());
      assertThat(after.misses()).isEqualTo(before.misses());
    }
  }

  @Test
  void findsNoLevelsWithoutACache() throws Exception {
    try (KvReadPathTable t = KvReadPathTable.create(2_000, CacheSetting.NONE, "16m")) {
      assertThat(t.cacheCounters().levels()).isZero();
    }
  }

  @Test
  void refusesACacheTooSmallForTheTable() {
    assertThatThrownBy(() -> KvReadPathTable.create(100_000, CacheSetting.ON_HEAP, "256k"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not hold the table");
  }
}
