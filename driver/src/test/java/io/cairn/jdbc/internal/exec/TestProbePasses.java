package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.kv.HashProbe;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a spilled build side's partitions are packed into probe passes. */
class TestProbePasses {
  @Test
  void passesHoldPartitionsUpToTheBudgetAndEveryPartitionOnce() {
    long[] bytes = new long[HashProbe.PARTITIONS];
    for (int p = 0; p < bytes.length; p++) {
      bytes[p] = p % 3 == 0 ? 0 : 10; // every third partition empty
    }
    List<Long> masks = ProbePasses.pack(bytes, 35);
    long all = 0;
    for (long mask : masks) {
      assertThat(all & mask).as("a partition in two passes").isZero();
      all |= mask;
      long size = 0;
      for (int p = 0; p < bytes.length; p++) {
        if ((mask & (1L << p)) != 0) {
          size += bytes[p];
        }
      }
      assertThat(size).isBetween(10L, 35L); // every pass holds rows, none past the budget
    }
    assertThat(all).isEqualTo(HashProbe.ALL);
    assertThat(masks).hasSize(14); // 42 partitions of 10 bytes, 3 per pass
  }

  @Test
  void aPartitionBiggerThanTheBudgetIsAPassOfItsOwn() {
    long[] bytes = new long[HashProbe.PARTITIONS];
    bytes[5] = 100;
    bytes[6] = 1;
    bytes[7] = 1;
    assertThat(ProbePasses.pack(bytes, 10))
        .containsExactly(~((1L << 6) | (1L << 7)), (1L << 6) | (1L << 7));
  }

  @Test
  void anEmptyBuildSideIsOnePass() {
    assertThat(ProbePasses.pack(new long[HashProbe.PARTITIONS], 10)).containsExactly(HashProbe.ALL);
  }
}
