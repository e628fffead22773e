package io.cairn.jdbc.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TestBuildProgress {
  private static BuildProgress progress(long rows, long estimated, boolean finished) {
    return new BuildProgress(
        "LI_EP", "PUBLIC.LINEITEM", rows, estimated, Duration.ofMillis(2140), finished);
  }

  @Test
  void describesARunningBuildWithItsPercentage() {
    assertThat(progress(3_000_000, 6_000_000, false).describe())
        .isEqualTo("Building index LI_EP on PUBLIC.LINEITEM: 3,000,000 rows (50%), 2.1 s");
  }

  @Test
  void withoutAnEstimateThereIsNoPercentage() {
    assertThat(progress(3_000_000, -1, false).describe())
        .isEqualTo("Building index LI_EP on PUBLIC.LINEITEM: 3,000,000 rows, 2.1 s");
    assertThat(progress(3_000_000, 0, false).percent()).isEqualTo(-1);
  }

  @Test
  void aShortEstimateStopsAt99UntilTheEnd() {
    assertThat(progress(7_000_000, 6_000_000, false).percent()).isEqualTo(99);
    assertThat(progress(7_000_000, 6_000_000, true).percent()).isEqualTo(100);
  }

  @Test
  void describesTheEnd() {
    assertThat(progress(6_001_215, 6_000_000, true).describe())
        .isEqualTo("Built index LI_EP on PUBLIC.LINEITEM: 6,001,215 rows in 2.1 s");
  }
}
