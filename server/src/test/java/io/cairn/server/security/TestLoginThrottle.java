package io.cairn.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The backoff after failed logins and the summary lines, with chosen times. */
class TestLoginThrottle {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final String ADDRESS = "10.0.0.1";

  @Test
  void failuresBelowTheThresholdAreNotRefused() {
    LoginThrottle t = new LoginThrottle(3, Duration.ofSeconds(30));
    long now = 1_000 * SECOND;
    t.failed(ADDRESS, "ann", now);
    t.failed(ADDRESS, "ann", now + 1);
    assertThat(t.refusal(ADDRESS, now + 2)).isZero();
    assertThat(t.refusal("10.0.0.2", now + 2)).isZero();
  }

  @Test
  void theBackoffDoublesWithEachFailureUpToTheMaximum() {
    LoginThrottle t = new LoginThrottle(3, Duration.ofSeconds(5));
    long now = 1_000 * SECOND;
    t.failed(ADDRESS, "ann", now);
    t.failed(ADDRESS, "ann", now);
    t.failed(ADDRESS, "ann", now);
    assertThat(t.refusal(ADDRESS, now)).isEqualTo(SECOND);
    assertThat(t.refusal(ADDRESS, now + SECOND)).as("over after a second").isZero();
    t.failed(ADDRESS, "ann", now + SECOND);
    assertThat(t.refusal(ADDRESS, now + SECOND)).isEqualTo(2 * SECOND);
    t.failed(ADDRESS, "ann", now + 3 * SECOND);
    assertThat(t.refusal(ADDRESS, now + 3 * SECOND)).isEqualTo(4 * SECOND);
    t.failed(ADDRESS, "ann", now + 7 * SECOND);
    assertThat(t.refusal(ADDRESS, now + 7 * SECOND)).as("capped").isEqualTo(5 * SECOND);
    assertThat(t.refusal("10.0.0.2", now + 7 * SECOND)).as("other addresses").isZero();
  }

  @Test
  void aSuccessResetsTheAddress() {
    LoginThrottle t = new LoginThrottle(2, Duration.ofSeconds(30));
    long now = 1_000 * SECOND;
    t.failed(ADDRESS, "ann", now);
    t.failed(ADDRESS, "ann", now);
    assertThat(t.refusal(ADDRESS, now)).isPositive();
    t.succeeded(ADDRESS);
    assertThat(t.refusal(ADDRESS, now)).isZero();
    t.failed(ADDRESS, "ann", now);
    assertThat(t.refusal(ADDRESS, now)).as("one failure after the reset").isZero();
  }

  @Test
  void failuresAMinuteApartStartTheCountAgain() {
    LoginThrottle t = new LoginThrottle(2, Duration.ofSeconds(30));
    long now = 1_000 * SECOND;
    t.failed(ADDRESS, "ann", now);
    t.failed(ADDRESS, "ann", now + 61 * SECOND);
    assertThat(t.refusal(ADDRESS, now + 61 * SECOND)).isZero();
  }

  @Test
  void zeroMaximumBackoffNeverRefuses() {
    LoginThrottle t = new LoginThrottle(1, Duration.ZERO);
    long now = 1_000 * SECOND;
    for (int i = 0; i < 100; i++) {
      t.failed(ADDRESS, "ann", now);
    }
    assertThat(t.refusal(ADDRESS, now)).isZero();
  }

  @Test
  void theSummaryIsOneLinePerAddressThenForgetsQuietAddresses() {
    LoginThrottle t = new LoginThrottle(3, Duration.ofSeconds(30));
    long now = 1_000 * SECOND;
    for (int i = 0; i < 5; i++) {
      t.failed(ADDRESS, "user" + (i % 2), now);
    }
    for (int i = 0; i < 7; i++) {
      assertThat(t.refusal(ADDRESS, now)).isPositive();
    }
    t.failed("10.0.0.2", "bob", now);
    List<String> lines = t.summarize(now, Duration.ofSeconds(10));
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0))
        .startsWith("5 failed login(s) from [10.0.0.1] in the last 10 s (users [user0, user1])")
        .contains("7 further attempt(s) refused");
    assertThat(lines.get(1)).startsWith("1 failed login(s) from [10.0.0.2]");
    assertThat(t.summarize(now + SECOND, Duration.ofSeconds(10))).as("nothing new").isEmpty();
    assertThat(t.addresses()).isEqualTo(2);
    t.summarize(now + 120 * SECOND, Duration.ofSeconds(10));
    assertThat(t.addresses()).as("quiet for two minutes").isZero();
  }

  @Test
  void manyAddressesAreSummarizedInElevenLinesAtMost() {
    LoginThrottle t = new LoginThrottle(3, Duration.ofSeconds(30));
    long now = 1_000 * SECOND;
    for (int i = 0; i < 50; i++) {
      t.failed("10.0.1." + i, "ann", now);
    }
    List<String> lines = t.summarize(now, Duration.ofSeconds(10));
    assertThat(lines).hasSize(11);
    assertThat(lines.get(10))
        .isEqualTo("40 failed and 0 refused login(s) from 40 other address(es) in the last 10 s");
  }
}
