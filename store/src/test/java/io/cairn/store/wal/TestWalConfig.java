package io.cairn.store.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestWalConfig {
  @Test
  void defaults() {
    assertThat(WalConfig.DEFAULT.segmentBytes()).isEqualTo(128L << 20);
    assertThat(WalConfig.DEFAULT.writeBufferBytes()).isEqualTo(1 << 20);
  }

  @Test
  void withers() {
    WalConfig config = WalConfig.DEFAULT.withSegmentBytes(1000).withWriteBufferBytes(8192);
    assertThat(config).isEqualTo(new WalConfig(1000, 8192));
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> WalConfig.DEFAULT.withSegmentBytes(WalFormat.HEADER_BYTES))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WalConfig.DEFAULT.withWriteBufferBytes(100))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
