package io.cairn.store.wal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Checks, before replay, that the segments the {@link WalMarker} says the log must hold are all
 * there and that none of them is torn inside its header. What it cannot see (a record cut away at a
 * frame boundary, a segment replaced by another valid one of the same number) is listed in
 * docs/format-wal.md, "Completeness".
 */
final class WalCheck {
  private static final int MAX_RANGES_SHOWN = 8;

  /**
   * One problem found.
   *
   * @param file the marker, or the (first) missing or damaged segment
   * @param firstMissing the first segment number of a run of missing segments, else -1
   * @param lastMissing the last segment number of that run, else -1
   * @param problem the message: expected and found
   * @param present whether {@code file} exists
   */
  record Problem(Path file, long firstMissing, long lastMissing, String problem, boolean present) {
    boolean missingRun() {
      return firstMissing >= 0;
    }
  }

  private WalCheck() {}

  /**
   * The problems of the log in {@code dir} whose segments are {@code sizes} (number to bytes).
   *
   * @param marker the log's marker, null when it has none or it could not be read
   * @param markerRequired whether the log must have a marker (the store manifest says it was made
   *     by a Cairn that writes one)
   */
  static List<Problem> check(
      Path dir, WalMarker marker, boolean markerRequired, NavigableMap<Long, Long> sizes) {
    List<Problem> problems = new ArrayList<>();
    Path markerPath = dir.resolve(WalMarker.FILE_NAME);
    if (marker == null) {
      if (markerRequired) {
        problems.add(
            new Problem(
                markerPath,
                -1,
                -1,
                "WAL marker ["
                    + markerPath
                    + "] is missing: the store manifest says this log keeps one (deleted, or the"
                    + " log directory was emptied?); found segments ["
                    + ranges(sizes)
                    + "], so the edits not yet flushed to block files may be lost",
                false));
      }
      return problems;
    }
    if (marker.firstSegment() > marker.lastSegment()) {
      return problems; // the log must hold no segment: any present is older or newer
    }
    long expected = marker.firstSegment();
    for (Map.Entry<Long, Long> e :
        sizes.subMap(marker.firstSegment(), true, marker.lastSegment(), true).entrySet()) {
      long n = e.getKey();
      if (n > expected) {
        problems.add(missingRun(dir, marker, sizes, expected, n - 1));
      }
      if (e.getValue() < WalFormat.HEADER_BYTES) {
        Path file = dir.resolve(WalFormat.segmentFileName(n));
        problems.add(
            new Problem(
                file,
                -1,
                -1,
                "WAL segment ["
                    + file
                    + "] is shorter than its header: expected at least ["
                    + WalFormat.HEADER_BYTES
                    + "] bytes, found ["
                    + e.getValue()
                    + "]; the marker ["
                    + markerPath
                    + "] records it as created, and a header is forced before that, so it was cut"
                    + " afterwards and the records in it are lost",
                true));
      }
      expected = n + 1;
    }
    if (expected <= marker.lastSegment()) {
      problems.add(missingRun(dir, marker, sizes, expected, marker.lastSegment()));
    }
    return problems;
  }

  private static Problem missingRun(
      Path dir, WalMarker marker, NavigableMap<Long, Long> sizes, long from, long to) {
    Path first = dir.resolve(WalFormat.segmentFileName(from));
    String what =
        from == to
            ? "WAL segment [" + first + "] is missing"
            : "WAL segments ["
                + first
                + "] to ["
                + WalFormat.segmentFileName(to)
                + "] ("
                + (to - from + 1)
                + " segments) are missing";
    String consequence =
        to == marker.lastSegment()
            ? "it is the newest segment the log created, so the writes acknowledged since it was"
                + " created are lost"
            : "the edits logged in it and not yet flushed to block files are lost, acknowledged"
                + " ones included";
    return new Problem(
        first,
        from,
        to,
        what
            + ": the marker ["
            + dir.resolve(WalMarker.FILE_NAME)
            + "] says the log holds segments ["
            + marker.firstSegment()
            + ".."
            + marker.lastSegment()
            + "] (older ones were trimmed once flushed), found ["
            + ranges(sizes)
            + "]; "
            + consequence,
        false);
  }

  /** The segment numbers as ranges, e.g. {@code 1..2, 4..6}; {@code none} when empty. */
  static String ranges(NavigableMap<Long, Long> sizes) {
    if (sizes.isEmpty()) {
      return "none";
    }
    StringBuilder text = new StringBuilder();
    int shown = 0;
    long start = -1;
    long previous = -1;
    for (Map.Entry<Long, Long> e : sizes.entrySet()) {
      long n = e.getKey();
      if (start >= 0 && n == previous + 1) {
        previous = n;
        continue;
      }
      if (start >= 0) {
        if (shown++ == MAX_RANGES_SHOWN) {
          return text.append(", ...").toString();
        }
        append(text, start, previous);
      }
      start = n;
      previous = n;
    }
    if (shown == MAX_RANGES_SHOWN) {
      return text.append(", ...").toString();
    }
    append(text, start, previous);
    return text.toString();
  }

  private static void append(StringBuilder text, long from, long to) {
    if (!text.isEmpty()) {
      text.append(", ");
    }
    text.append(from);
    if (to != from) {
      text.append("..").append(to);
    }
  }
}
