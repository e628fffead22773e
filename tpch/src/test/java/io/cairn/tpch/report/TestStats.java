package io.cairn.tpch.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestStats {
  @Test
  void oddCountTakesTheMiddleValue() {
    Stats s = Stats.ofNanos(List.of(3_000_000L, 1_000_000L, 2_000_000L));
    assertThat(s.count()).isEqualTo(3);
    assertThat(s.minMs()).isEqualTo(1.0);
    assertThat(s.medianMs()).isEqualTo(2.0);
    assertThat(s.maxMs()).isEqualTo(3.0);
    assertThat(s.meanMs()).isEqualTo(2.0);
  }

  @Test
  void evenCountAveragesTheTwoMiddleValues() {
    Stats s = Stats.ofNanos(List.of(4_000_000L, 1_000_000L, 2_000_000L, 10_000_000L));
    assertThat(s.medianMs()).isEqualTo(3.0);
    assertThat(s.meanMs()).isEqualTo(4.25);
    assertThat(s.perSecondAtMedian(300)).isCloseTo(100_000, within(1e-6));
  }

  @Test
  void singleRun() {
    Stats s = Stats.ofNanos(List.of(500L));
    assertThat(s.minMs()).isEqualTo(s.maxMs()).isEqualTo(s.medianMs()).isEqualTo(0.0005);
  }

  @Test
  void emptyListFails() {
    assertThatThrownBy(() -> Stats.ofNanos(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
  }
}
