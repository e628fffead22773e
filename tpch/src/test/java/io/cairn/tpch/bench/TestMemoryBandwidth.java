package io.cairn.tpch.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestMemoryBandwidth {
  @Test
  void measuresAPositiveFiniteBandwidth() throws Exception {
    MemoryBandwidth.Result r = MemoryBandwidth.measure(8, 2, 2);
    assertThat(r.bytes()).isEqualTo(8L << 20);
    assertThat(r.threads()).isEqualTo(2);
    assertThat(r.passes()).isEqualTo(2);
    assertThat(r.singleThreadBytesPerSecond()).isPositive().isFinite();
    assertThat(r.allThreadsBytesPerSecond()).isPositive().isFinite();
    assertThat(r.perCoreBytesPerSecond()).isEqualTo(r.allThreadsBytesPerSecond() / 2);
    assertThat(r.describe()).contains("2 threads", "best of 2 passes over 8 MiB");
  }

  @Test
  void sumsEveryElementOfTheRange() {
    long[] a = new long[11];
    for (int i = 0; i < a.length; i++) {
      a[i] = i + 1;
    }
    assertThat(MemoryBandwidth.sum(a, 0, a.length)).isEqualTo(66);
    assertThat(MemoryBandwidth.sum(a, 2, 9)).isEqualTo(3 + 4 + 5 + 6 + 7 + 8 + 9);
    assertThat(MemoryBandwidth.sum(a, 5, 5)).isZero();
  }

  @Test
  void threadsThatDoNotDivideTheArrayStillMeasure() throws Exception {
    assertThat(MemoryBandwidth.measure(1, 3, 1).allThreadsBytesPerSecond()).isPositive();
  }

  @Test
  void fitsTheArrayIntoAQuarterOfTheHeap() {
    long quarterMib = Runtime.getRuntime().maxMemory() / 4 >> 20;
    assertThat(MemoryBandwidth.fittingMib(Integer.MAX_VALUE)).isEqualTo((int) quarterMib);
    assertThat(MemoryBandwidth.fittingMib(1)).isEqualTo(1);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> MemoryBandwidth.measure(0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("found [0], [1], [1]");
    assertThatThrownBy(() -> MemoryBandwidth.measure(1, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MemoryBandwidth.measure(1, 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
