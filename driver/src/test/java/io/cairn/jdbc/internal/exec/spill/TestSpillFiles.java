package io.cairn.jdbc.internal.exec.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spill files give back exactly the rows written; a space deletes all it created. */
class TestSpillFiles {
  @TempDir Path root;

  private long filesUnderRoot() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void rowsComeBackAsWritten() {
    Object[] row = {
      null,
      true,
      (byte) 1,
      (short) 2,
      3,
      4L,
      5.5f,
      6.25,
      new BigDecimal("12.34"),
      new BigDecimal("123456789012345678901234567890.5"),
      "text é",
      new byte[] {1, 2, 3},
      LocalDate.of(2024, 2, 29),
      LocalTime.of(23, 59, 59, 1),
      LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999)
    };
    try (SpillSpace space = SpillSpace.under(root)) {
      SpillRun run;
      try (SpillWriter writer = new SpillWriter(space.newFile("test"))) {
        for (int i = 0; i < 10_000; i++) {
          writer.write(row);
          writer.write(new Object[] {i});
        }
        run = writer.finish();
      }
      assertThat(run.rows()).isEqualTo(20_000);
      try (SpillReader reader = run.openReader()) {
        for (int i = 0; i < 10_000; i++) {
          assertThat(reader.next()).isEqualTo(row);
          assertThat(reader.next()).containsExactly(i);
        }
        assertThat(reader.next()).isNull();
      }
    }
  }

  @Test
  void equalKeysShareAPartitionAndLevelsSpreadThemAgain() {
    try (SpillSpace space = SpillSpace.under(root);
        SpillPartitions first = new SpillPartitions(space, "a", 0);
        SpillPartitions second = new SpillPartitions(space, "b", 1)) {
      Map<Integer, List<Integer>> byPartition = new HashMap<>();
      for (int k = 0; k < 10_000; k++) {
        GroupKey key = GroupKey.of(new Object[] {(long) k}, new int[] {0});
        int p = first.partition(key);
        assertThat(first.partition(GroupKey.of(new Object[] {(long) k}, new int[] {0})))
            .isEqualTo(p);
        byPartition.computeIfAbsent(p, x -> new ArrayList<>()).add(k);
      }
      assertThat(byPartition).hasSize(SpillPartitions.FANOUT);
      // the keys of one partition of level 0 spread over every partition of level 1
      List<Integer> keys = byPartition.get(0);
      assertThat(
              keys.stream()
                  .map(k -> second.partition(GroupKey.of(new Object[] {(long) k}, new int[] {0})))
                  .distinct()
                  .count())
          .isEqualTo(SpillPartitions.FANOUT);
      assertThat(first.partition(GroupKey.of(new Object[] {null}, new int[] {0}))).isZero();
    }
  }

  @Test
  void closingTheSpaceDeletesEveryFile() throws IOException {
    SpillSpace space = SpillSpace.under(root);
    assertThat(space.directory()).isNull(); // nothing until the first file
    SpillPartitions partitions = new SpillPartitions(space, "p", 0);
    for (int i = 0; i < 1000; i++) {
      partitions.write(GroupKey.of(new Object[] {i}, new int[] {0}), new Object[] {i, "x"});
    }
    List<SpillRun> runs = partitions.finish();
    assertThat(runs).hasSize(SpillPartitions.FANOUT);
    assertThat(filesUnderRoot()).isEqualTo(SpillPartitions.FANOUT);
    space.close();
    assertThat(filesUnderRoot()).isZero();
    try (Stream<Path> entries = Files.list(root)) {
      assertThat(entries).isEmpty();
    }
    space.close(); // idempotent
    assertThatThrownBy(() -> space.newFile("late"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELED));
  }

  @Test
  void anUnfinishedWriterDeletesItsFile() throws IOException {
    try (SpillSpace space = SpillSpace.under(root)) {
      try (SpillWriter writer = new SpillWriter(space.newFile("w"))) {
        writer.write(new Object[] {1});
        assertThat(filesUnderRoot()).isEqualTo(1);
      }
      assertThat(filesUnderRoot()).isZero();
    }
  }

  @Test
  void aFileOfAnotherFormatIsRefused() throws IOException {
    Path file = root.resolve("other.spill");
    Files.write(file, new byte[] {1, 2, 3, 4, 5, 6});
    assertThatThrownBy(() -> new SpillRun(file, 1, 6).openReader())
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR);
              assertThat(e.getMessage()).contains("expected magic [4353504c]");
            });
  }
}
