package io.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The store settings' defaults and their mapping from {@code cairn.*} keys. */
class TestStoreConfig {
  @Test
  void aggregateMemoryLimit() {
    assertThat(StoreConfig.defaults().aggregateMaxBytes()).isEqualTo(256L << 20);
    assertThat(StoreConfig.from(Map.of()).aggregateMaxBytes()).isEqualTo(256L << 20);
    assertThat(StoreConfig.from(Map.of(StoreConfig.AGGREGATE_MAX_BYTES, "64k")).aggregateMaxBytes())
        .isEqualTo(64 << 10);
    assertThat(StoreConfig.from(Map.of("cairn.aggregate.max-bytes", "2g")).aggregateMaxBytes())
        .isEqualTo(2L << 30);
    for (String bad : new String[] {"12x", "-1", "100"}) {
      assertThatThrownBy(() -> StoreConfig.from(Map.of(StoreConfig.AGGREGATE_MAX_BYTES, bad)))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining("cairn.aggregate.max-bytes")
          .hasMessageContaining(bad);
    }
  }

  @Test
  void queryMemoryOfTheScansInThisJvm() {
    long heap = Runtime.getRuntime().maxMemory();
    StoreConfig d = StoreConfig.defaults();
    assertThat(d.queryMemoryMaxBytes()).isEqualTo((long) (heap * 0.4));
    assertThat(d.queryMemoryWaitMillis()).isEqualTo(1000);
    StoreConfig c =
        StoreConfig.from(
            Map.of("cairn.query-memory.max-bytes", "64m", "cairn.query-memory.wait", "0ms"));
    assertThat(c.queryMemoryMaxBytes()).isEqualTo(64L << 20);
    assertThat(c.queryMemoryWaitMillis()).isZero();
    assertThat(c.newQueryMemory("db").limit()).isEqualTo(64L << 20);
    assertThat(c.newQueryMemory("db").setting()).isEqualTo("cairn.query-memory.max-bytes");
    for (String bad : new String[] {"12x", "-1", "100"}) {
      assertThatThrownBy(() -> StoreConfig.from(Map.of(StoreConfig.QUERY_MEMORY_MAX_BYTES, bad)))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining("cairn.query-memory.max-bytes")
          .hasMessageContaining(bad);
    }
  }

  @Test
  void snapshotMaximumAge() {
    assertThat(StoreConfig.defaults().snapshotMaxAgeMillis()).isEqualTo(600_000);
    assertThat(StoreConfig.from(Map.of("cairn.snapshot.max-age", "90")).snapshotMaxAgeMillis())
        .isEqualTo(90_000);
    assertThat(
            StoreConfig.from(Map.of(StoreConfig.SNAPSHOT_MAX_AGE, "250ms")).snapshotMaxAgeMillis())
        .isEqualTo(250);
    assertThat(StoreConfig.from(Map.of(StoreConfig.SNAPSHOT_MAX_AGE, "2h")).snapshotMaxAgeMillis())
        .isEqualTo(7_200_000);
    for (String bad : new String[] {"10x", "-1s", "0ms", ""}) {
      assertThatThrownBy(() -> StoreConfig.from(Map.of(StoreConfig.SNAPSHOT_MAX_AGE, bad)))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining("cairn.snapshot.max-age")
          .hasMessageContaining("[" + bad + "]");
    }
  }

  @Test
  void openSalvage() {
    assertThat(StoreConfig.defaults().openSalvage()).isFalse();
    assertThat(StoreConfig.from(Map.of()).openSalvage()).isFalse();
    assertThat(StoreConfig.from(Map.of("cairn.open.salvage", "true")).openSalvage()).isTrue();
    assertThat(StoreConfig.from(Map.of(StoreConfig.OPEN_SALVAGE, " FALSE ")).openSalvage())
        .isFalse();
    for (String bad : new String[] {"yes", "1", ""}) {
      assertThatThrownBy(() -> StoreConfig.from(Map.of(StoreConfig.OPEN_SALVAGE, bad)))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining("cairn.open.salvage")
          .hasMessageContaining("[" + bad + "]");
    }
  }
}
