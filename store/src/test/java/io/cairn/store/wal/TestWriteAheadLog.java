package io.cairn.store.wal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestWriteAheadLog {
  private static final WalConfig SMALL_SEGMENTS = WalConfig.DEFAULT.withSegmentBytes(300);

  @TempDir Path dir;

  /** A deterministic record for a sequence id: 1 to 3 edits, puts and deletes. */
  static WalRecord record(long sequenceId) {
    List<WalEdit> edits = new ArrayList<>();
    int count = (int) (sequenceId % 3) + 1;
    for (int i = 0; i < count; i++) {
      Bytes key = Bytes.wrap(("key-" + sequenceId + "-" + i).getBytes(UTF_8));
      if ((sequenceId + i) % 4 == 3) {
        edits.add(WalEdit.delete(sequenceId % 5, key));
      } else {
        edits.add(WalEdit.put(sequenceId % 5, key, Bytes.wrap(("v" + sequenceId).getBytes(UTF_8))));
      }
    }
    return new WalRecord(sequenceId, edits);
  }

  static List<WalRecord> replayAll(Path dir, WalConfig config) {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, config)) {
      List<WalRecord> records = new ArrayList<>();
      wal.replay(records::add);
      return records;
    }
  }

  static void append(Path dir, WalConfig config, long from, long to, Durability durability) {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, config)) {
      wal.replay(r -> {});
      for (long seq = from; seq < to; seq++) {
        wal.await(wal.enqueue(record(seq)), durability);
      }
    }
  }

  static List<WalRecord> records(long from, long to) {
    List<WalRecord> records = new ArrayList<>();
    for (long seq = from; seq < to; seq++) {
      records.add(record(seq));
    }
    return records;
  }

  static List<Path> segmentFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList();
    }
  }

  @Test
  void emptyLog() {
    try (WriteAheadLog wal = WriteAheadLog.open(dir.resolve("new"), WalConfig.DEFAULT)) {
      List<WalRecord> seen = new ArrayList<>();
      assertThat(wal.replay(seen::add)).isZero();
      assertThat(seen).isEmpty();
      assertThat(wal.segmentCount()).isZero();
      assertThat(wal.totalBytes()).isZero();
    }
    assertThat(replayAll(dir.resolve("new"), WalConfig.DEFAULT)).isEmpty();
  }

  @Test
  void roundTripEveryDurability() {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      assertThat(wal.replay(r -> {})).isZero();
      Durability[] durabilities = Durability.values();
      for (int i = 0; i < 20; i++) {
        wal.await(wal.enqueue(record(i)), durabilities[i % durabilities.length]);
      }
      assertThat(wal.segmentCount()).isEqualTo(1);
    }
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      List<WalRecord> seen = new ArrayList<>();
      assertThat(wal.replay(seen::add)).isEqualTo(19);
      assertThat(seen).isEqualTo(records(0, 20));
    }
  }

  @Test
  void largeRecordsAndEdgeValues() {
    Bytes big = Bytes.wrap(new byte[3 << 20]);
    List<WalRecord> expected =
        List.of(
            new WalRecord(0, List.of(WalEdit.put(-1, Bytes.EMPTY, Bytes.EMPTY))),
            new WalRecord(Long.MAX_VALUE, List.of(WalEdit.put(Long.MIN_VALUE, big, big))),
            new WalRecord(7, List.of(new WalEdit(3, Bytes.EMPTY, true, null))));
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      wal.replay(r -> {});
      long last = 0;
      for (WalRecord record : expected) {
        last = wal.enqueue(record);
      }
      wal.await(last, Durability.SYNC);
    }
    assertThat(replayAll(dir, WalConfig.DEFAULT)).isEqualTo(expected);
  }

  @Test
  void manySegments() throws IOException {
    append(dir, SMALL_SEGMENTS, 0, 100, Durability.SYNC);
    append(dir, SMALL_SEGMENTS, 100, 150, Durability.FSYNC);
    List<Path> files = segmentFiles(dir);
    assertThat(files.size()).isGreaterThan(10);
    try (WriteAheadLog wal = WriteAheadLog.open(dir, SMALL_SEGMENTS)) {
      assertThat(wal.segmentCount()).isEqualTo(files.size());
      long total = 0;
      for (Path file : files) {
        total += Files.size(file);
      }
      assertThat(wal.totalBytes()).isEqualTo(total);
      List<WalRecord> seen = new ArrayList<>();
      assertThat(wal.replay(seen::add)).isEqualTo(149);
      assertThat(seen).isEqualTo(records(0, 150));
    }
  }

  @Test
  void asyncRecordsAreWrittenSoonAndOnClose() {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      wal.replay(r -> {});
      for (int i = 0; i < 10; i++) {
        wal.await(wal.enqueue(record(i)), Durability.ASYNC);
      }
    }
    assertThat(replayAll(dir, WalConfig.DEFAULT)).isEqualTo(records(0, 10));
  }

  @Test
  void crashAfterSyncAcknowledgementLosesNothing() {
    WriteAheadLog abandoned = WriteAheadLog.open(dir, SMALL_SEGMENTS);
    try {
      abandoned.replay(r -> {});
      for (int i = 0; i < 50; i++) {
        abandoned.await(abandoned.enqueue(record(i)), Durability.SYNC);
      }
      // No close: a second process (here: a second log object) opens the files as they are.
      assertThat(replayAll(dir, SMALL_SEGMENTS)).isEqualTo(records(0, 50));
    } finally {
      abandoned.close();
    }
  }

  @Test
  void reopenAppendsToANewSegment() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 5, Durability.SYNC);
    append(dir, WalConfig.DEFAULT, 5, 10, Durability.SYNC);
    assertThat(segmentFiles(dir))
        .extracting(f -> f.getFileName().toString())
        .containsExactly("wal-00000000000000000001.log", "wal-00000000000000000002.log");
    assertThat(replayAll(dir, WalConfig.DEFAULT)).isEqualTo(records(0, 10));
    // Opening without appending creates no segment.
    replayAll(dir, WalConfig.DEFAULT);
    assertThat(segmentFiles(dir)).hasSize(2);
  }

  @Test
  void tornTailAtEveryOffsetOfTheLastRecord() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 3, Durability.SYNC);
    Path file = segmentFiles(dir).get(0);
    byte[] original = Files.readAllBytes(file);
    int lastStart = original.length - WalFormat.encodeFrame(record(2)).length;
    for (int cut = lastStart; cut < original.length; cut++) {
      Path copy = dir.resolve("cut-" + cut);
      Files.createDirectory(copy);
      Path torn = copy.resolve(file.getFileName());
      Files.write(torn, java.util.Arrays.copyOf(original, cut));

      assertThat(replayAll(copy, WalConfig.DEFAULT)).as("cut at %s", cut).isEqualTo(records(0, 2));
      assertThat(Files.size(torn)).isEqualTo(lastStart);
      append(copy, WalConfig.DEFAULT, 10, 12, Durability.SYNC);
      List<WalRecord> expected = new ArrayList<>(records(0, 2));
      expected.addAll(records(10, 12));
      assertThat(replayAll(copy, WalConfig.DEFAULT)).as("cut at %s", cut).isEqualTo(expected);
    }
  }

  @Test
  void bitFlipInAMiddleRecordIsCorruption() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 3, Durability.SYNC);
    Path file = segmentFiles(dir).get(0);
    byte[] original = Files.readAllBytes(file);
    int middleStart = WalFormat.HEADER_BYTES + WalFormat.encodeFrame(record(0)).length;
    int middleEnd = middleStart + WalFormat.encodeFrame(record(1)).length;
    for (int i = middleStart; i < middleEnd; i++) {
      byte[] flipped = original.clone();
      flipped[i] ^= (byte) (1 << (i % 8));
      Files.write(file, flipped);
      List<WalRecord> seen = new ArrayList<>();
      try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
        assertThatThrownBy(() -> wal.replay(seen::add))
            .as("flip at %s", i)
            .isInstanceOfSatisfying(
                CairnException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATA_CORRUPTED))
            .hasMessageContaining(file.toString())
            .hasMessageContaining("offset [" + middleStart + "]");
      }
      assertThat(seen).isEqualTo(records(0, 1));
      assertThat(Files.readAllBytes(file)).isEqualTo(flipped);
    }
  }

  @Test
  void bitFlipInTheLastRecordIsATornTail() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 3, Durability.SYNC);
    Path file = segmentFiles(dir).get(0);
    byte[] original = Files.readAllBytes(file);
    int lastStart = original.length - WalFormat.encodeFrame(record(2)).length;
    for (int i = lastStart; i < original.length; i++) {
      byte[] flipped = original.clone();
      flipped[i] ^= (byte) (0x80 >>> (i % 8));
      Files.write(file, flipped);
      assertThat(replayAll(dir, WalConfig.DEFAULT)).as("flip at %s", i).isEqualTo(records(0, 2));
      assertThat(Files.size(file)).isEqualTo(lastStart);
    }
  }

  @Test
  void corruptionInAnEarlierSegmentIsNeverATornTail() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 3, Durability.SYNC);
    append(dir, WalConfig.DEFAULT, 3, 4, Durability.SYNC);
    Path first = segmentFiles(dir).get(0);
    long size = Files.size(first);
    try (FileChannel channel = FileChannel.open(first, StandardOpenOption.WRITE)) {
      channel.truncate(size - 1);
    }
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      assertThatThrownBy(() -> wal.replay(r -> {}))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATA_CORRUPTED))
          .hasMessageContaining(first.toString())
          .hasMessageContaining("later segments follow");
    }
  }

  @Test
  void corruptHeaders() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 3, Durability.SYNC);
    Path file = segmentFiles(dir).get(0);
    byte[] original = Files.readAllBytes(file);

    byte[] badMagic = original.clone();
    badMagic[0] = 'X';
    assertReplayFails(file, badMagic, ErrorCode.DATA_CORRUPTED, "Not a WAL segment");

    byte[] newerVersion = original.clone();
    newerVersion[11] = 2;
    assertReplayFails(
        file, newerVersion, ErrorCode.UNSUPPORTED_FORMAT_VERSION, "expected [1], found [2]");

    byte[] badChecksum = original.clone();
    badChecksum[15] ^= 1;
    assertReplayFails(file, badChecksum, ErrorCode.DATA_CORRUPTED, "checksum mismatch");

    Path renamed = dir.resolve(WalFormat.segmentFileName(7));
    Files.write(file, original);
    Files.move(file, renamed);
    // without the marker (which would miss segment 1 first) the header's number is what is wrong
    Files.delete(dir.resolve(WalMarker.FILE_NAME));
    assertReplayFails(renamed, original, ErrorCode.DATA_CORRUPTED, "wrong segment number");
  }

  private void assertReplayFails(Path file, byte[] content, ErrorCode code, String message)
      throws IOException {
    Files.write(file, content);
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      assertThatThrownBy(() -> wal.replay(r -> {}))
          .isInstanceOfSatisfying(
              CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
          .hasMessageContaining(file.toString())
          .hasMessageContaining(message);
    }
  }

  @Test
  void lastSegmentTornInsideItsHeaderIsDeleted() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 3, Durability.SYNC);
    Path torn = dir.resolve(WalFormat.segmentFileName(2));
    Files.write(torn, new byte[] {0x43, 0x41, 0x49});
    assertThat(replayAll(dir, WalConfig.DEFAULT)).isEqualTo(records(0, 3));
    assertThat(torn).doesNotExist();
  }

  @Test
  void markFlushedBelowDeletesSegmentsByMaxSequenceId() throws IOException {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, SMALL_SEGMENTS)) {
      wal.replay(r -> {});
      // Sequence ids are not monotonic in log order: segment maxima interleave.
      long[] sequenceIds = new long[60];
      for (int i = 0; i < sequenceIds.length; i++) {
        sequenceIds[i] = i % 2 == 0 ? i : 1000 - i;
        wal.await(wal.enqueue(record(sequenceIds[i])), Durability.SYNC);
      }
      int before = wal.segmentCount();
      assertThat(before).isGreaterThan(3);
      wal.markFlushedBelow(0);
      assertThat(wal.segmentCount()).isEqualTo(before);
      wal.markFlushedBelow(900);
      assertThat(wal.segmentCount()).isEqualTo(before);
      wal.markFlushedBelow(Long.MAX_VALUE);
      // Only the segment being written remains (or none right after a roll).
      assertThat(wal.segmentCount()).isLessThanOrEqualTo(1);
      assertThat(segmentFiles(dir)).hasSize(wal.segmentCount());
      assertThat(wal.totalBytes()).isEqualTo(sumSizes(segmentFiles(dir)));
    }
  }

  @Test
  void markFlushedBelowKeepsSegmentsHoldingNewerEdits() throws IOException {
    // Segment 1 holds ids 0..9, segment 2 holds 100..109; segment 3 is current.
    append(dir, WalConfig.DEFAULT, 100, 110, Durability.SYNC);
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      wal.markFlushedBelow(Long.MAX_VALUE);
      assertThat(wal.segmentCount()).as("not yet replayed: kept").isEqualTo(1);
      wal.replay(r -> {});
      wal.await(wal.enqueue(record(5)), Durability.SYNC);
      wal.markFlushedBelow(50);
      assertThat(wal.segmentCount()).isEqualTo(2);
      wal.markFlushedBelow(110);
      assertThat(wal.segmentCount()).isEqualTo(1);
    }
    assertThat(replayAll(dir, WalConfig.DEFAULT)).isEqualTo(records(5, 6));
  }

  private static long sumSizes(List<Path> files) throws IOException {
    long total = 0;
    for (Path file : files) {
      total += Files.size(file);
    }
    return total;
  }

  @Test
  void concurrentSyncAppendsAreReplayedExactlyOnceAndWhole() throws Exception {
    int threads = 6;
    int perThread = 2000;
    ConcurrentLinkedQueue<Long> acknowledged = new ConcurrentLinkedQueue<>();
    try (WriteAheadLog wal =
        WriteAheadLog.open(dir, WalConfig.DEFAULT.withSegmentBytes(64 << 10))) {
      wal.replay(r -> {});
      List<Thread> workers = new ArrayList<>();
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        Thread worker =
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < perThread; i++) {
                      long seq = (long) thread * perThread + i;
                      Durability durability = i % 100 == 0 ? Durability.FSYNC : Durability.SYNC;
                      wal.await(wal.enqueue(record(seq)), durability);
                      acknowledged.add(seq);
                    }
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                });
        workers.add(worker);
        worker.start();
      }
      for (Thread worker : workers) {
        worker.join();
      }
      assertThat(failures).isEmpty();
    }
    List<WalRecord> replayed = replayAll(dir, WalConfig.DEFAULT);
    assertThat(replayed).hasSize(threads * perThread);
    assertThat(replayed.stream().map(WalRecord::sequenceId))
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(acknowledged);
    for (WalRecord record : replayed) {
      assertThat(record).isEqualTo(record(record.sequenceId()));
    }
    // Each thread's records are in its enqueue order.
    for (int t = 0; t < threads; t++) {
      long lo = (long) t * perThread;
      long hi = lo + perThread;
      assertThat(
              replayed.stream().map(WalRecord::sequenceId).filter(s -> s >= lo && s < hi).toList())
          .isSorted();
    }
  }

  @Test
  void replayOnlyOnceAndBeforeAppends() {
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      wal.replay(r -> {});
      assertThatThrownBy(() -> wal.replay(r -> {})).isInstanceOf(IllegalStateException.class);
    }
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      wal.enqueue(record(1));
      assertThatThrownBy(() -> wal.replay(r -> {})).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void closedLogRejectsAppends() {
    WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT);
    wal.close();
    wal.close();
    assertThatThrownBy(() -> wal.enqueue(record(1)))
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR));
  }

  @Test
  void diskFullFailsTheLogAndKeepsAcknowledgedRecords() throws IOException {
    long budget = WalFormat.HEADER_BYTES + sumFrames(0, 10) + 5;
    TestingFaultyFileChannel.Files files = new TestingFaultyFileChannel.Files(budget);
    List<Long> acknowledged = new ArrayList<>();
    CairnException failure = null;
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT, files)) {
      wal.replay(r -> {});
      for (long seq = 0; seq < 20 && failure == null; seq++) {
        long ticket = wal.enqueue(record(seq));
        try {
          wal.await(ticket, Durability.SYNC);
          acknowledged.add(seq);
        } catch (CairnException e) {
          failure = e;
        }
      }
      assertThat(failure).isNotNull();
      assertThat(failure.errorCode()).isEqualTo(ErrorCode.IO_ERROR);
      assertThat(failure)
          .hasMessageContaining(WalFormat.segmentFileName(1))
          .hasMessageContaining(TestingFaultyFileChannel.NO_SPACE);
      assertThat(acknowledged).hasSize(10);
      assertThatThrownBy(() -> wal.enqueue(record(99)))
          .isInstanceOfSatisfying(
              CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR))
          .hasMessageContaining(TestingFaultyFileChannel.NO_SPACE);
      assertThatThrownBy(() -> wal.await(1, Durability.FSYNC)).isInstanceOf(CairnException.class);
    }
    // The partly written record was cut off again; every acknowledged record is there.
    assertThat(replayAll(dir, WalConfig.DEFAULT)).isEqualTo(records(0, 10));
  }

  @Test
  void failedForceFailsFsyncWaiters() {
    TestingFaultyFileChannel.Files files = new TestingFaultyFileChannel.Files(Long.MAX_VALUE);
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT, files)) {
      wal.replay(r -> {});
      wal.await(wal.enqueue(record(0)), Durability.FSYNC);
      files.failForce = true;
      long ticket = wal.enqueue(record(1));
      assertThatThrownBy(() -> wal.await(ticket, Durability.FSYNC))
          .isInstanceOfSatisfying(
              CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR))
          .hasMessageContaining("Input/output error");
      // Written to the OS before the force failed: still SYNC-durable.
      wal.await(ticket, Durability.SYNC);
      assertThatThrownBy(() -> wal.enqueue(record(2))).isInstanceOf(CairnException.class);
    }
    assertThat(replayAll(dir, WalConfig.DEFAULT)).isEqualTo(records(0, 2));
  }

  private static long sumFrames(long from, long to) {
    long total = 0;
    for (long seq = from; seq < to; seq++) {
      total += WalFormat.encodeFrame(record(seq)).length;
    }
    return total;
  }

  @Test
  void headerBytes() throws IOException {
    append(dir, WalConfig.DEFAULT, 0, 1, Durability.SYNC);
    byte[] bytes = Files.readAllBytes(segmentFiles(dir).get(0));
    ByteBuffer header = ByteBuffer.wrap(bytes, 0, WalFormat.HEADER_BYTES);
    assertThat(new String(bytes, 0, 8, UTF_8)).isEqualTo("CAIRNWAL");
    assertThat(header.getInt(8)).isEqualTo(1);
    assertThat(header.getLong(12)).isEqualTo(1);
  }
}
