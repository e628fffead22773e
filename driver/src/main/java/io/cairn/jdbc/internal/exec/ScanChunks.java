package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a scan's byte key ranges at the boundaries of a table's chunks ({@link TableStatistics}):
 * one work unit per chunk that any range touches, holding every piece of every range that falls
 * into it, so the many small ranges of a skip scan inside one chunk are one request, never one
 * request per key.
 */
final class ScanChunks {
  private ScanChunks() {}

  /**
   * The ranges of one chunk, with the chunk's estimated rows and bytes (of the whole chunk, -1 when
   * unknown); for a read of a local index, the row keys whose entries it reads ({@code indexRows},
   * {@link io.cairn.kv.IndexRead#rows()}; ALL for a table's rows).
   */
  record Unit(List<KeyRange> ranges, long rows, long bytes, KeyRange indexRows) {
    Unit {
      ranges = List.copyOf(requireNonNull(ranges, "ranges is null"));
      requireNonNull(indexRows, "indexRows is null");
    }

    Unit(List<KeyRange> ranges, long rows, long bytes) {
      this(ranges, rows, bytes, KeyRange.ALL);
    }
  }

  /**
   * The units of {@code ranges} (sorted, disjoint, as {@link KeyRangeBuilder} makes them) in key
   * order. Empty when no range holds a key.
   */
  static List<Unit> cut(List<KeyRange> ranges, TableStatistics statistics) {
    List<Unit> units = new ArrayList<>();
    int i = 0;
    for (TableStatistics.Chunk chunk : statistics.chunks()) {
      if (i >= ranges.size()) {
        break;
      }
      List<KeyRange> pieces = new ArrayList<>();
      while (i < ranges.size()) {
        KeyRange r = ranges.get(i);
        if (!chunk.stop().isEmpty() && r.start().compareTo(chunk.stop()) >= 0) {
          break; // this range starts in a later chunk
        }
        Bytes start = r.start().compareTo(chunk.start()) >= 0 ? r.start() : chunk.start();
        Bytes stop = stopBefore(r.stop(), chunk.stop()) ? r.stop() : chunk.stop();
        KeyRange piece = new KeyRange(start, stop);
        if (!piece.isEmptyRange()) {
          pieces.add(piece);
        }
        if (!stopBefore(r.stop(), chunk.stop())) {
          break; // the range goes on into the next chunk
        }
        i++;
      }
      if (!pieces.isEmpty()) {
        units.add(new Unit(pieces, chunk.rows(), chunk.bytes()));
      }
    }
    return units;
  }

  /** Whether stop {@code a} is at or before stop {@code b}; an empty stop is after every key. */
  private static boolean stopBefore(Bytes a, Bytes b) {
    if (b.isEmpty()) {
      return true;
    }
    return !a.isEmpty() && a.compareTo(b) <= 0;
  }
}
