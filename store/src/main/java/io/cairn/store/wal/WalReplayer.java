package io.cairn.store.wal;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.wal.WalSegments.Segment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery of a log at open: checks the segments against the marker ({@link WalCheck}), reads each
 * segment in order ({@link SegmentReader}), and with salvage reports the damage instead of failing.
 * What each segment held is recorded in its {@link WalSegments}, so that trimming knows what it may
 * delete.
 *
 * <p>Runs once per log, before the first append ({@link WriteAheadLog#replay(Consumer, boolean,
 * boolean)} enforces that); holds no lock while it hands records over.
 */
final class WalReplayer {
  private static final Logger log = LoggerFactory.getLogger(WalReplayer.class);

  private WalReplayer() {}

  /** See {@link WriteAheadLog#replay(Consumer, boolean, boolean)}. */
  static WalReplay replay(
      WalSegments segments, Consumer<WalRecord> handler, boolean markerRequired, boolean salvage) {
    Path directory = segments.directory();
    CairnException markerError = segments.markerError();
    List<Segment> snapshot = segments.snapshot();
    TreeMap<Long, Long> sizes = new TreeMap<>();
    snapshot.forEach(segment -> sizes.put(segment.number, segment.bytes));
    List<WalCheck.Problem> problems = new ArrayList<>();
    if (markerError != null) {
      Path markerPath = directory.resolve(WalMarker.FILE_NAME);
      problems.add(new WalCheck.Problem(markerPath, -1, -1, markerError.getMessage(), true));
    }
    WalMarker checked = segments.marker();
    problems.addAll(
        WalCheck.check(directory, checked, markerRequired && markerError == null, sizes));
    if (!problems.isEmpty() && !salvage) {
      WalCheck.Problem first = problems.get(0);
      throw new CairnException(
          markerError != null ? markerError.errorCode() : ErrorCode.DATA_CORRUPTED,
          first.problem()
              + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more problems)" : ""),
          markerError != null && problems.size() == 1 ? markerError : null);
    }
    Set<Long> skipped = new HashSet<>();
    List<WalDamage> damages = new ArrayList<>();
    for (WalCheck.Problem problem : problems) {
      if (!problem.missingRun()) {
        if (problem.present()
            && !problem.file().getFileName().toString().equals(WalMarker.FILE_NAME)) {
          skipped.add(WalFormat.parseSegmentNumber(problem.file().getFileName().toString()));
        }
        damages.add(new WalDamage(problem.file(), problem.problem(), problem.present()));
      }
    }
    // per segment number: the lowest and highest sequence id replayed from it
    TreeMap<Long, long[]> bounds = new TreeMap<>();
    long highest = 0;
    for (int i = 0; i < snapshot.size(); i++) {
      Segment segment = snapshot.get(i);
      if (skipped.contains(segment.number)) {
        segment.maxSequenceId = -1; // nothing of it was replayed: trimming may delete it
        continue;
      }
      boolean last = i == snapshot.size() - 1;
      long[] seen = {Long.MAX_VALUE, -1};
      Consumer<WalRecord> counting =
          record -> {
            handler.accept(record);
            seen[0] = Math.min(seen[0], record.sequenceId());
            seen[1] = Math.max(seen[1], record.sequenceId());
          };
      SegmentReader.Result result;
      try {
        result = SegmentReader.replay(segment.file, segment.number, last, counting);
      } catch (CairnException e) {
        if (!salvage || e.errorCode() == ErrorCode.IO_ERROR) {
          throw e;
        }
        damages.add(
            new WalDamage(
                segment.file,
                e.getMessage()
                    + "; the records before the damage were replayed"
                    + (seen[1] >= 0 ? " (sequence ids up to [" + seen[1] + "])" : " (none)")
                    + ", the rest of the segment was skipped",
                true));
        result = new SegmentReader.Result(seen[1], segment.bytes, false);
      }
      if (seen[1] >= 0) {
        bounds.put(segment.number, seen);
      }
      segments.replayed(segment, result);
      highest = Math.max(highest, result.maxSequenceId());
    }
    for (WalCheck.Problem problem : problems) {
      if (problem.missingRun()) {
        Map.Entry<Long, long[]> before = bounds.lowerEntry(problem.firstMissing());
        Map.Entry<Long, long[]> after = bounds.higherEntry(problem.lastMissing());
        damages.add(
            new WalDamage(
                problem.file(),
                problem.problem()
                    + "; lost: the logged sequence ids after about ["
                    + (before == null ? "the flushed ones" : before.getValue()[1])
                    + "] and before about ["
                    + (after == null ? "the end of the log" : after.getValue()[0])
                    + "]",
                false));
      }
    }
    for (WalDamage damage : damages) {
      log.warn("Salvaging the WAL in [{}]: {}", directory, damage.problem());
    }
    return new WalReplay(highest, damages);
  }
}
