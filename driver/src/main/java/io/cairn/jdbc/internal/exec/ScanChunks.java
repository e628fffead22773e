package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

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

  /**
   * {@code units} (in key order) joined into {@code count} runs of consecutive units of about equal
   * estimated rows (equal numbers of units when a count is unknown), each one request.
   */
  static List<Unit> coalesce(List<Unit> units, int count) {
    boolean known = units.stream().allMatch(u -> u.rows() >= 0);
    ToLongFunction<Unit> weight = u -> known ? u.rows() : 1;
    long whole = units.stream().mapToLong(weight).sum();
    List<Unit> out = new ArrayList<>(count);
    List<KeyRange> ranges = new ArrayList<>();
    long rows = 0;
    long bytes = 0;
    long done = 0; // the weight of the units taken so far
    for (int i = 0; i < units.size(); i++) {
      Unit u = units.get(i);
      for (KeyRange r : u.ranges()) {
        int last = ranges.size() - 1;
        if (last >= 0 && ranges.get(last).stop().equals(r.start())) {
          ranges.set(last, new KeyRange(ranges.get(last).start(), r.stop()));
        } else {
          ranges.add(r);
        }
      }
      rows = rows < 0 || u.rows() < 0 ? -1 : rows + u.rows();
      bytes = bytes < 0 || u.bytes() < 0 ? -1 : bytes + u.bytes();
      done += weight.applyAsLong(u);
      int left = units.size() - 1 - i;
      // close this run at the boundary nearest its share: when it reached it, or when the next
      // unit would pass it by more than this run falls short
      long share = (out.size() + 1) * whole;
      long next = left == 0 ? 0 : weight.applyAsLong(units.get(i + 1));
      boolean full = done * count >= share || (done + next) * count - share > share - done * count;
      if (i == units.size() - 1 || (full || left < count - out.size()) && out.size() < count - 1) {
        out.add(new Unit(ranges, rows, bytes));
        ranges = new ArrayList<>();
        rows = 0;
        bytes = 0;
      }
    }
    return out;
  }

  /** Whether stop {@code a} is at or before stop {@code b}; an empty stop is after every key. */
  private static boolean stopBefore(Bytes a, Bytes b) {
    if (b.isEmpty()) {
      return true;
    }
    return !a.isEmpty() && a.compareTo(b) <= 0;
  }
}
