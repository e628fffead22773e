package io.cairn.store.table;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.KeyRange;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.file.BlockFileOptions;
import io.cairn.store.file.BlockFileReader;
import io.cairn.store.file.BlockFileWriter;
import io.cairn.store.file.ReadContext;
import io.cairn.store.region.Region;
import io.cairn.store.region.StoreFile;
import io.cairn.store.stats.StatisticsCollector;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

/**
 * The one place that writes a table's block file from a cursor (flushes and compactions), dropping
 * the versions no reader needs, with throughput throttling for compactions. The file's id comes
 * from the table's {@link RegionMap}; the caller publishes the file (manifest, then region).
 */
public final class StoreFileWriter {
  private final RegionMap map;
  private final ReadContext readContext;
  private final long bytesPerSecond;

  /**
   * Writes files of {@code map}'s table, reading them back through {@code readContext}; throttled
   * writes go at most {@code bytesPerSecond} (0: no limit).
   */
  public StoreFileWriter(RegionMap map, ReadContext readContext, long bytesPerSecond) {
    this.map = map;
    this.readContext = readContext;
    this.bytesPerSecond = bytesPerSecond;
  }

  /**
   * Writes the cells of {@code cursor} the region owns ({@link Region#owns}: its range, and the
   * entries of live local indexes of its rows) to a new file; returns it (one reference, for the
   * region) or null when no cell survives. {@code smallestReadPoint}: versions shadowed by a newer
   * version at or below it are dropped; with {@code major} tombstones at or below it are dropped
   * too. Cells at or below {@code purgeAtOrBelow} (expired, TTL) are dropped. Sequence ids are kept
   * as they are: the time index maps them to commit times (TTL), also for a TTL set later by ALTER
   * TABLE.
   */
  public StoreFile write(
      Region region,
      CellCursor cursor,
      long smallestReadPoint,
      long purgeAtOrBelow,
      boolean major,
      boolean throttle,
      StatisticsCollector collector) {
    RegionMap.NewFile newFile = map.newFile();
    BlockFileWriter writer =
        BlockFileWriter.create(newFile.path(), newFile.fileId(), newFile.options());
    boolean finished = false;
    try {
      long cells = 0;
      long throttleStart = System.nanoTime();
      Bytes row = null;
      boolean rowDecided = false;
      for (Piece piece : pieces(region)) {
        KeyRange range = piece.range();
        IntPredicate live = map.liveIndexes();
        boolean valid = cursor.seek(range.start());
        while (valid) {
          Bytes r = cursor.row();
          if (!range.stop().isEmpty() && r.compareTo(range.stop()) >= 0) {
            break;
          }
          if (piece.entries()
              && (!region.owns(r.peekArray(), 0, r.length())
                  || (live != null && !live.test(IndexKeys.indexId(r.peekArray(), 0))))) {
            valid = cursor.advance(); // another region's entry (after a split), or dropped
            continue;
          }
          boolean newRow = !r.equals(row);
          if (newRow) {
            row = r;
            rowDecided = false;
          }
          long seq = cursor.sequenceId();
          if (seq <= purgeAtOrBelow) {
            rowDecided = true; // expired, and so is every older version of the row
          }
          if (!rowDecided) {
            boolean keep = true;
            if (seq <= smallestReadPoint) {
              rowDecided = true; // the newest version every reader sees; older ones are shadowed
              keep = !(major && cursor.isDelete());
            }
            if (keep) {
              Bytes value = cursor.value();
              writer.append(r, seq, cursor.isDelete(), value);
              if (!piece.entries()) {
                collector.add(r, newRow, !cursor.isDelete(), r.length() + value.length());
              }
              cells++;
            }
          }
          valid = cursor.advance();
          if (throttle && (cells & 4095) == 0) {
            throttle(writer.bytesWritten(), throttleStart);
          }
        }
      }
      StoreFile file = seal(writer, newFile, cells);
      finished = true;
      return file;
    } finally {
      if (!finished) {
        writer.abort();
      }
    }
  }

  /**
   * Writes the cells of {@code sorted} as they are, in one pass, to a new file without a row bloom
   * filter: an index build's entries, computed from the region's own rows (so the region owns
   * them), one version each, never read by key alone (so a bloom filter would be bytes and hashing
   * for nothing). Returns the file (one reference, for the region) or null when there is no cell.
   */
  public StoreFile writeSorted(CellCursor sorted) {
    RegionMap.NewFile newFile = map.newFile();
    BlockFileOptions o = newFile.options();
    BlockFileOptions options =
        new BlockFileOptions(
            o.encoding(), o.compression(), o.blockSize(), false, o.guidePostWidth());
    BlockFileWriter writer = BlockFileWriter.create(newFile.path(), newFile.fileId(), options);
    boolean finished = false;
    try {
      long cells = 0;
      byte[] copy = new byte[64]; // a value not in an array of the heap
      for (boolean valid = sorted.seek(Bytes.EMPTY); valid; valid = sorted.advance()) {
        ByteBuffer values = sorted.valueBuffer();
        int length = sorted.valueLength();
        byte[] value;
        int offset;
        if (values.hasArray()) {
          value = values.array();
          offset = values.arrayOffset() + sorted.valueOffset();
        } else {
          if (copy.length < length) {
            copy = new byte[Math.max(length, 2 * copy.length)];
          }
          values.get(sorted.valueOffset(), copy, 0, length);
          value = copy;
          offset = 0;
        }
        writer.append(
            sorted.rowArray(),
            sorted.rowOffset(),
            sorted.rowLength(),
            sorted.sequenceId(),
            sorted.isDelete(),
            value,
            offset,
            length);
        cells++;
      }
      StoreFile file = seal(writer, newFile, cells);
      finished = true;
      return file;
    } finally {
      if (!finished) {
        writer.abort();
      }
    }
  }

  /** Finishes {@code writer} and opens its file, or aborts it when it got no cell (null). */
  private StoreFile seal(BlockFileWriter writer, RegionMap.NewFile newFile, long cells) {
    if (cells == 0) {
      writer.abort();
      return null;
    }
    writer.finish();
    return new StoreFile(BlockFileReader.open(newFile.path(), readContext));
  }

  /** A key range to copy, of index entries (kept when the region owns them) or of rows. */
  private record Piece(KeyRange range, boolean entries) {}

  /**
   * What a region's file holds, in key order: its range, and, for a table with local indexes, the
   * index entries of its rows instead of the index key space.
   */
  private static List<Piece> pieces(Region region) {
    KeyRange range = region.range();
    if (!region.indexSpace()) {
      return List.of(new Piece(range, false));
    }
    List<Piece> pieces = new ArrayList<>(3);
    KeyRange before = Region.intersect(range, new KeyRange(Bytes.EMPTY, IndexKeys.SPACE.start()));
    if (before != null) {
      pieces.add(new Piece(before, false));
    }
    pieces.add(new Piece(IndexKeys.SPACE, true));
    KeyRange after = Region.intersect(range, new KeyRange(IndexKeys.SPACE.stop(), Bytes.EMPTY));
    if (after != null) {
      pieces.add(new Piece(after, false));
    }
    return pieces;
  }

  /** Closes and deletes a file that no manifest lists (a failed flush or compaction). */
  public static void discard(StoreFile file) {
    if (file != null) {
      file.release();
    }
  }

  private void throttle(long bytesWritten, long startNanos) {
    long rate = bytesPerSecond;
    if (rate <= 0) {
      return;
    }
    long dueNanos = startNanos + (long) (bytesWritten * 1e9 / rate);
    long wait = dueNanos - System.nanoTime();
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
