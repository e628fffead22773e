package io.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.store.io.AtomicFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestTimeIndex {
  @TempDir Path dir;

  /** A clock the test moves. */
  private static final class TestingClock {
    long now;

    TestingClock(long now) {
      this.now = now;
    }

    long millis() {
      return now;
    }
  }

  @Test
  void cutoffIsTheLastSampleOlderThanTheTtl() {
    TestingClock clock = new TestingClock(10_000);
    TimeIndex index = new TimeIndex(clock::millis);
    assertThat(index.expiredAtOrBelow(1000)).isEqualTo(-1);
    index.committed(5);
    clock.now = 10_050;
    index.committed(9); // same 100 ms slot: moves the sample up to (9, 10_050)
    clock.now = 10_200;
    index.committed(12);
    assertThat(index.size()).isEqualTo(2);
    assertThat(index.expiredAtOrBelow(1000)).isEqualTo(-1);
    clock.now = 11_049;
    assertThat(index.expiredAtOrBelow(1000)).as("5 and 9 are sampled at 10_050").isEqualTo(-1);
    clock.now = 11_050;
    assertThat(index.expiredAtOrBelow(1000)).isEqualTo(9);
    clock.now = 11_200;
    assertThat(index.expiredAtOrBelow(1000)).isEqualTo(12);
    assertThat(index.expiredAtOrBelow(1)).isEqualTo(12);
    assertThat(index.expiredAtOrBelow(Long.MAX_VALUE)).isEqualTo(-1);
  }

  @Test
  void cutoffsNeverMoveBackWithTheClock() {
    TestingClock clock = new TestingClock(10_000);
    TimeIndex index = new TimeIndex(clock::millis);
    index.committed(1);
    clock.now = 12_000;
    assertThat(index.expiredAtOrBelow(1000)).isEqualTo(1);
    clock.now = 9_000; // the wall clock steps back
    index.committed(2);
    assertThat(index.expiredAtOrBelow(1000)).isEqualTo(1);
    clock.now = 13_000;
    assertThat(index.expiredAtOrBelow(1000)).isEqualTo(2);
  }

  /**
   * Against the exact commit times: a sequence id is never expired before its TTL has passed, and
   * is expired within the resolution (plus the thinning's relative error) after it.
   */
  @Test
  void neverExpiresEarlyAndStaysBounded() {
    long seed = new Random().nextLong();
    System.out.println("TestTimeIndex seed " + seed);
    Random random = new Random(seed);
    TestingClock clock = new TestingClock(1_000_000);
    TimeIndex index = new TimeIndex(clock::millis);
    List<long[]> commits = new ArrayList<>(); // {sequence id, time}
    long sequenceId = 0;
    for (int i = 0; i < 200_000; i++) {
      clock.now += random.nextInt(4) == 0 ? random.nextInt(5000) : random.nextInt(30);
      sequenceId += 1 + random.nextInt(3);
      index.committed(sequenceId);
      if (i % 97 == 0) {
        commits.add(new long[] {sequenceId, clock.now});
      }
    }
    assertThat(index.size()).as("samples kept (seed %s)", seed).isLessThan(20_000);
    long now = clock.now;
    for (long ttl : new long[] {1, 100, 1000, 60_000, 3_600_000, 100_000_000}) {
      long cutoff = index.expiredAtOrBelow(ttl);
      for (long[] c : commits) {
        long age = now - c[1];
        if (c[0] <= cutoff) {
          assertThat(age)
              .as("seed %s: id %s expired early, ttl %s", seed, c[0], ttl)
              .isGreaterThanOrEqualTo(ttl);
        } else if (c[0] < sequenceId) {
          long slack =
              TimeIndex.RESOLUTION_MILLIS
                  + Math.max(TimeIndex.BUCKET_MILLIS, age / TimeIndex.RELATIVE_RESOLUTION);
          assertThat(age)
              .as("seed %s: id %s kept too long, ttl %s", seed, c[0], ttl)
              .isLessThan(ttl + slack);
        }
      }
    }
  }

  @Test
  void persistsAndReopens() {
    TestingClock clock = new TestingClock(10_000);
    TimeIndex index = TimeIndex.open(dir, 0, clock::millis);
    index.persist(dir);
    clock.now = 10_500;
    index.committed(7);
    clock.now = 11_000;
    index.committed(9);
    index.persist(dir);

    clock.now = 20_000;
    TimeIndex reopened = TimeIndex.open(dir, 9, clock::millis);
    assertThat(reopened.expiredAtOrBelow(9_000)).isEqualTo(9);
    assertThat(reopened.expiredAtOrBelow(9_400)).isEqualTo(7);

    // batches 8 and 9 lost in a crash: their ids come again, later
    TimeIndex afterCrash = TimeIndex.open(dir, 7, clock::millis);
    assertThat(afterCrash.expiredAtOrBelow(9_000)).isEqualTo(7);
    clock.now = 30_000;
    afterCrash.committed(8);
    assertThat(afterCrash.expiredAtOrBelow(15_000)).isEqualTo(7);
  }

  @Test
  void aMissingOrDamagedFileCountsFromTheOpen() throws Exception {
    TestingClock clock = new TestingClock(10_000);
    TimeIndex fresh = TimeIndex.open(dir, 42, clock::millis);
    clock.now = 10_999;
    assertThat(fresh.expiredAtOrBelow(1000)).isEqualTo(-1);
    clock.now = 11_000;
    assertThat(fresh.expiredAtOrBelow(1000)).as("every id up to 42, at the open").isEqualTo(42);

    fresh.persist(dir);
    Path file = dir.resolve(TimeIndex.FILE_NAME);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 1;
    Files.write(file, bytes);
    clock.now = 50_000;
    TimeIndex damaged = TimeIndex.open(dir, 42, clock::millis);
    assertThat(damaged.expiredAtOrBelow(1000)).isEqualTo(-1);
    clock.now = 51_000;
    assertThat(damaged.expiredAtOrBelow(1000)).isEqualTo(42);

    AtomicFiles.write(file, List.of("cairn-time-index 2"));
    TimeIndex unknownVersion = TimeIndex.open(dir, 42, clock::millis);
    assertThat(unknownVersion.expiredAtOrBelow(1)).isEqualTo(-1);
    unknownVersion.persist(dir);
    assertThat(new String(Files.readAllBytes(file), StandardCharsets.UTF_8))
        .startsWith("cairn-time-index 1\nsample 42 51000\n");
  }
}
