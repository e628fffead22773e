package io.cairn.store.wal;

import static io.cairn.store.wal.TestWriteAheadLog.record;
import static io.cairn.store.wal.TestWriteAheadLog.segmentFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log's marker ({@code wal.marker}): which segments must be present, checked by replay;
 * trimming deletes only the oldest segments; numbers are never reused.
 */
class TestWalCompleteness {
  /** Every write round passes the segment size: one segment per acknowledged record. */
  private static final WalConfig ONE_RECORD_PER_SEGMENT = WalConfig.DEFAULT.withSegmentBytes(25);

  @TempDir Path dir;

  /** Appends the records of {@code sequenceIds}, each in its own segment, and closes. */
  private void appendEach(long... sequenceIds) {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, ONE_RECORD_PER_SEGMENT)) {
      wal.replay(r -> {});
      for (long seq : sequenceIds) {
        wal.await(wal.enqueue(record(seq)), Durability.SYNC);
      }
    }
  }

  private List<Long> replaySequenceIds() {
    List<Long> seen = new ArrayList<>();
    try (WriteAheadLog wal = WriteAheadLog.open(dir, ONE_RECORD_PER_SEGMENT)) {
      wal.replay(r -> seen.add(r.sequenceId()));
    }
    return seen;
  }

  private List<String> segmentNames() throws IOException {
    return segmentFiles(dir).stream().map(p -> p.getFileName().toString()).toList();
  }

  @Test
  void theMarkerNamesEverySegmentCreated() throws IOException {
    appendEach(1, 2, 3);
    assertThat(segmentNames()).hasSize(3);
    assertThat(WalMarker.read(dir)).contains(new WalMarker(1, 3));
    assertThat(replaySequenceIds()).containsExactly(1L, 2L, 3L);
  }

  @Test
  void aMissingSegmentIsCorruptionNamingIt() throws IOException {
    appendEach(1, 2, 3, 4);
    Path second = dir.resolve(WalFormat.segmentFileName(2));
    Files.delete(second);
    Files.delete(dir.resolve(WalFormat.segmentFileName(3)));
    List<Long> seen = new ArrayList<>();
    try (WriteAheadLog wal = WriteAheadLog.open(dir, ONE_RECORD_PER_SEGMENT)) {
      assertThatThrownBy(() -> wal.replay(r -> seen.add(r.sequenceId())))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATA_CORRUPTED))
          .hasMessageContaining("WAL segments [" + second + "] to [" + WalFormat.segmentFileName(3))
          .hasMessageContaining("segments [1..4]")
          .hasMessageContaining("found [1, 4]");
    }
    assertThat(seen).as("nothing is handed over before the check").isEmpty();
  }

  @Test
  void salvageReplaysAroundTheGapAndReportsIt() throws IOException {
    appendEach(1, 2, 3, 4);
    Path newest = dir.resolve(WalFormat.segmentFileName(4));
    Files.delete(dir.resolve(WalFormat.segmentFileName(2)));
    Files.delete(newest);
    List<Long> seen = new ArrayList<>();
    try (WriteAheadLog wal = WriteAheadLog.open(dir, ONE_RECORD_PER_SEGMENT)) {
      WalReplay replay = wal.replay(r -> seen.add(r.sequenceId()), true, true);
      assertThat(replay.highestSequenceId()).isEqualTo(3);
      assertThat(replay.damages()).hasSize(2);
      assertThat(replay.damages().get(0).problem())
          .contains("wal-00000000000000000002.log] is missing")
          .contains("after about [1] and before about [3]");
      assertThat(replay.damages().get(1).file()).isEqualTo(newest);
      assertThat(replay.damages().get(1).problem())
          .contains("newest segment")
          .contains("after about [3] and before about [the end of the log]");
      wal.deleteAllSegments(); // what the store does once it flushed the replayed records
    }
    assertThat(seen).containsExactly(1L, 3L);
    assertThat(segmentNames()).isEmpty();
    assertThat(WalMarker.read(dir)).contains(new WalMarker(5, 4));
    appendEach(5);
    assertThat(segmentNames()).containsExactly(WalFormat.segmentFileName(5));
    assertThat(replaySequenceIds()).containsExactly(5L);
  }

  @Test
  void trimmingDeletesOnlyTheOldestSegments() throws IOException {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, ONE_RECORD_PER_SEGMENT)) {
      wal.replay(r -> {});
      // sequence ids need not grow in log order: segment 2's record is older than segment 1's
      for (long seq : new long[] {10, 5, 11, 12}) {
        wal.await(wal.enqueue(record(seq)), Durability.SYNC);
      }
      wal.markFlushedBelow(8);
      assertThat(segmentNames())
          .as("segment 2 is obsolete, but segment 1 before it is not: a gap would look like loss")
          .hasSize(4);
      wal.markFlushedBelow(11);
      assertThat(segmentNames())
          .containsExactly(WalFormat.segmentFileName(3), WalFormat.segmentFileName(4));
      assertThat(WalMarker.read(dir)).contains(new WalMarker(3, 4));
    }
    assertThat(replaySequenceIds()).containsExactly(11L, 12L);
  }

  @Test
  void aLogWithoutMarkerIsReplayedUncheckedUntilItWritesOne() throws IOException {
    appendEach(1, 2, 3);
    Files.delete(dir.resolve(WalMarker.FILE_NAME)); // as a Cairn before markers left it
    Files.delete(dir.resolve(WalFormat.segmentFileName(2)));
    assertThat(replaySequenceIds()).containsExactly(1L, 3L);
    try (WriteAheadLog wal = WriteAheadLog.open(dir, ONE_RECORD_PER_SEGMENT)) {
      assertThatThrownBy(() -> wal.replay(r -> {}, true, false))
          .isInstanceOf(CairnException.class)
          .hasMessageContaining(WalMarker.FILE_NAME + "] is missing");
    }
    appendEach(4);
    assertThat(WalMarker.read(dir))
        .as("the older segments are not checked: they may have gaps")
        .contains(new WalMarker(4, 4));
    assertThat(replaySequenceIds()).containsExactly(1L, 3L, 4L);
  }

  @Test
  void aCorruptMarkerIsCorruptionNamingIt() throws IOException {
    appendEach(1);
    Path marker = dir.resolve(WalMarker.FILE_NAME);
    byte[] bytes = Files.readAllBytes(marker);
    bytes[bytes.length / 2] ^= 1;
    Files.write(marker, bytes);
    try (WriteAheadLog wal = WriteAheadLog.open(dir, ONE_RECORD_PER_SEGMENT)) {
      assertThatThrownBy(() -> wal.replay(r -> {}))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATA_CORRUPTED))
          .hasMessageContaining(marker.toString());
    }
  }
}
