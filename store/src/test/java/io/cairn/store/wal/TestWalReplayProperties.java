package io.cairn.store.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.io.FileTrees;
import io.cairn.kv.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Replay after a random truncation of the last segment, optionally followed by zero bytes (what a
 * file system may show after a power loss): every record before the cut comes back whole, the rest
 * is dropped, and appends continue cleanly. jqwik prints the seed of a failing run.
 */
class TestWalReplayProperties {
  @Provide
  Arbitrary<List<WalRecord>> records() {
    Arbitrary<Bytes> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(Bytes::wrap);
    Arbitrary<WalEdit> edit =
        Combinators.combine(Arbitraries.longs(), bytes, Arbitraries.of(true, false), bytes)
            .as(
                (table, key, delete, value) ->
                    new WalEdit(table, key, delete, delete ? null : value));
    Arbitrary<WalRecord> record =
        Combinators.combine(
                Arbitraries.longs().greaterOrEqual(0), edit.list().ofMinSize(1).ofMaxSize(4))
            .as(WalRecord::new);
    return record.list().ofMinSize(1).ofMaxSize(40);
  }

  @Property(tries = 100)
  void replayKeepsEveryRecordBeforeTheCut(
      @ForAll("records") List<WalRecord> records,
      @ForAll @IntRange(min = 100, max = 3000) int segmentBytes,
      @ForAll @IntRange(min = 0, max = 1_000_000) int cutPermille,
      @ForAll @IntRange(min = 0, max = 20) int zeroTail)
      throws IOException {
    Path dir = Files.createTempDirectory("wal-property");
    try {
      WalConfig config = WalConfig.DEFAULT.withSegmentBytes(segmentBytes);
      try (WriteAheadLog wal = WriteAheadLog.open(dir, config)) {
        wal.replay(r -> {});
        long last = 0;
        for (WalRecord record : records) {
          last = wal.enqueue(record);
        }
        wal.await(last, Durability.SYNC);
      }
      List<Path> segments;
      try (Stream<Path> files = Files.list(dir)) {
        segments = files.filter(f -> f.toString().endsWith(".log")).sorted().toList();
      }
      Path lastSegment = segments.get(segments.size() - 1);
      long size = Files.size(lastSegment);

      // The last segment holds the suffix of records whose frames fill it.
      int firstInLast = records.size();
      long bytes = WalFormat.HEADER_BYTES;
      while (bytes < size) {
        firstInLast--;
        bytes += WalFormat.encodeFrame(records.get(firstInLast)).length;
      }
      long cut = WalFormat.HEADER_BYTES + (size - WalFormat.HEADER_BYTES) * cutPermille / 1_000_000;
      byte[] original = Files.readAllBytes(lastSegment);
      byte[] damaged = Arrays.copyOf(original, (int) cut + zeroTail);
      Files.write(lastSegment, damaged);
      // A record survives when all its bytes do (a zero tail may even restore trailing zeros).
      int kept = firstInLast;
      int end = WalFormat.HEADER_BYTES;
      while (kept < records.size()) {
        int next = end + WalFormat.encodeFrame(records.get(kept)).length;
        if (next > damaged.length || !Arrays.equals(original, end, next, damaged, end, next)) {
          break;
        }
        end = next;
        kept++;
      }

      List<WalRecord> expected = new ArrayList<>(records.subList(0, kept));
      assertThat(TestWriteAheadLog.replayAll(dir, config)).isEqualTo(expected);
      assertThat(Files.size(lastSegment)).isEqualTo(end);

      WalRecord extra = TestWriteAheadLog.record(1);
      try (WriteAheadLog wal = WriteAheadLog.open(dir, config)) {
        wal.replay(r -> {});
        wal.await(wal.enqueue(extra), Durability.SYNC);
      }
      expected.add(extra);
      assertThat(TestWriteAheadLog.replayAll(dir, config)).isEqualTo(expected);
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }
}
