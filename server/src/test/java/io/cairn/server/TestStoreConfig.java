package io.cairn.server;

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
}
