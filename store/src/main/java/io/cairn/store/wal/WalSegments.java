package io.cairn.store.wal;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of one log: its numbered segments and its marker. Knows which segments exist (with the
 * highest sequence id and the size of each), creates the segment the writer appends to and retires
 * it when full, and deletes the oldest segments once their edits are flushed, keeping the marker
 * ahead of the files.
 *
 * <p>Thread-safe: the segment list is guarded by itself, the marker by its own lock (the marker
 * file is written under it). Only the writer thread of {@link WriteAheadLog} creates, appends to,
 * retires and closes the current segment.
 */
final class WalSegments {
  private static final Logger log = LoggerFactory.getLogger(WalSegments.class);

  /** The max sequence id of a segment not yet replayed: never deleted by markFlushedBelow. */
  private static final long UNKNOWN_SEQUENCE_ID = Long.MAX_VALUE;

  private final Path directory;
  private final WalFiles files;

  /** Guarded by itself; in segment number order. */
  private final List<Segment> segments;

  /** The segment the writer appends to, null before the first write and after a roll. */
  private Segment current; // guarded by segments

  private long nextSegmentNumber; // writer thread only (after open)

  /**
   * The marker as last written or read (null: the log has none yet, or it could not be read); the
   * file is written under this lock.
   */
  private final Object markerLock = new Object();

  private WalMarker marker; // guarded by markerLock

  /** Why the marker could not be read at open, or null; reported by replay. */
  private final CairnException markerError;

  private WalSegments(
      Path directory,
      WalFiles files,
      List<Segment> existing,
      WalMarker marker,
      CairnException markerError) {
    this.directory = directory;
    this.files = files;
    this.segments = new ArrayList<>(existing);
    this.marker = marker;
    this.markerError = markerError;
    long highest = existing.isEmpty() ? 0 : existing.get(existing.size() - 1).number;
    // numbers are never reused, not even after a clean close deleted every segment
    this.nextSegmentNumber = Math.max(highest, marker == null ? 0 : marker.lastSegment()) + 1;
  }

  /**
   * Lists the segments in {@code dir} (created if missing) and reads its marker.
   *
   * @throws CairnException IO_ERROR when the directory cannot be created or listed, or the marker
   *     cannot be read; another error of the marker is kept for {@link #markerError()}
   */
  static WalSegments open(Path dir, WalFiles files) {
    List<Segment> existing = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
        for (Path file : stream) {
          long number = WalFormat.parseSegmentNumber(file.getFileName().toString());
          if (number >= 0) {
            existing.add(new Segment(number, file, UNKNOWN_SEQUENCE_ID, Files.size(file)));
          }
        }
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot open WAL directory [" + dir + "]: " + e.getMessage(), e);
    }
    existing.sort((a, b) -> Long.compare(a.number, b.number));
    WalMarker marker = null;
    CairnException markerError = null;
    try {
      marker = WalMarker.read(dir).orElse(null);
    } catch (CairnException e) {
      if (e.errorCode() == ErrorCode.IO_ERROR) {
        throw e;
      }
      markerError = e; // reported by replay, which salvage may pass
    }
    return new WalSegments(dir, files, existing, marker, markerError);
  }

  Path directory() {
    return directory;
  }

  /** Why the marker could not be read at open, or null. */
  CairnException markerError() {
    return markerError;
  }

  /** The marker as last written or read, or null. */
  WalMarker marker() {
    synchronized (markerLock) {
      return marker;
    }
  }

  /** The segments as they are now, in number order. */
  List<Segment> snapshot() {
    synchronized (segments) {
      return List.copyOf(segments);
    }
  }

  /** Records what replay found in {@code segment}: its bounds, or that it was deleted. */
  void replayed(Segment segment, SegmentReader.Result result) {
    synchronized (segments) {
      if (result.deleted()) {
        segments.remove(segment);
      } else {
        segment.maxSequenceId = result.maxSequenceId();
        segment.bytes = result.bytes();
      }
    }
  }

  /** Records that a round of {@code bytes} bytes ending at {@code maxSequenceId} went in. */
  void appended(Segment segment, long bytes, long maxSequenceId) {
    synchronized (segments) {
      segment.bytes = bytes;
      segment.maxSequenceId = Math.max(segment.maxSequenceId, maxSequenceId);
    }
  }

  /** See {@link WriteAheadLog#markFlushedBelow}. */
  void markFlushedBelow(long floor) {
    List<Segment> obsolete = new ArrayList<>();
    synchronized (segments) {
      for (Iterator<Segment> it = segments.iterator(); it.hasNext(); ) {
        Segment segment = it.next();
        if (segment == current || segment.maxSequenceId >= floor) {
          break;
        }
        obsolete.add(segment);
        it.remove();
      }
    }
    if (obsolete.isEmpty()) {
      return;
    }
    try {
      synchronized (markerLock) {
        long first = obsolete.get(obsolete.size() - 1).number + 1;
        if (marker != null && first > marker.firstSegment()) {
          writeMarker(
              new WalMarker(Math.min(first, marker.lastSegment() + 1), marker.lastSegment()));
        }
      }
      for (Segment segment : obsolete) {
        Files.deleteIfExists(segment.file);
        log.debug(
            "Deleted WAL segment [{}]: max sequence id [{}] below [{}]",
            segment.file,
            segment.maxSequenceId,
            floor);
      }
      files.syncDirectory(directory);
    } catch (IOException | CairnException e) {
      synchronized (segments) {
        segments.addAll(0, obsolete); // they may still be there: the next trim tries again
      }
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot delete WAL segment in [" + directory + "]: " + e.getMessage(),
          e);
    }
  }

  /** See {@link WriteAheadLog#deleteAllSegments}; the caller checked that no append runs. */
  void deleteAll() {
    try {
      List<Path> found = new ArrayList<>();
      long highest = 0;
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
        for (Path file : stream) {
          long number = WalFormat.parseSegmentNumber(file.getFileName().toString());
          if (number >= 0) {
            found.add(file);
            highest = Math.max(highest, number);
          }
        }
      }
      synchronized (markerLock) {
        long last = Math.max(highest, marker == null ? 0 : marker.lastSegment());
        writeMarker(new WalMarker(last + 1, last));
      }
      for (Path file : found) {
        Files.deleteIfExists(file);
      }
      files.syncDirectory(directory);
      synchronized (segments) {
        segments.clear();
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot delete the WAL segments in [" + directory + "]: " + e.getMessage(),
          e);
    }
  }

  boolean hasMarker() {
    synchronized (markerLock) {
      return marker != null;
    }
  }

  /** Caller holds markerLock. */
  private void writeMarker(WalMarker next) {
    next.write(directory);
    marker = next;
  }

  int count() {
    synchronized (segments) {
      return segments.size();
    }
  }

  long totalBytes() {
    synchronized (segments) {
      long total = 0;
      for (Segment segment : segments) {
        total += segment.bytes;
      }
      return total;
    }
  }

  /** The segment being appended to, or null. */
  Segment peekCurrent() {
    synchronized (segments) {
      return current;
    }
  }

  /**
   * The segment to append to; creates it (header written and forced, named by the marker) when
   * there is none. Writer thread only.
   */
  Segment currentSegment() throws IOException {
    Segment segment = peekCurrent();
    if (segment != null) {
      return segment;
    }
    long number = nextSegmentNumber++;
    Path file = directory.resolve(WalFormat.segmentFileName(number));
    FileChannel channel = files.createSegment(file);
    try {
      writeFully(channel, WalFormat.encodeHeader(number));
      channel.force(true);
      files.syncDirectory(directory);
      // before any record goes in: every record lies in a segment the marker names
      synchronized (markerLock) {
        writeMarker(
            new WalMarker(
                marker == null ? number : Math.min(marker.firstSegment(), number), number));
      }
    } catch (IOException | CairnException e) {
      closeQuietly(channel);
      throw new IOException("Cannot create WAL segment [" + file + "]: " + e.getMessage(), e);
    }
    segment = new Segment(number, file, -1, WalFormat.HEADER_BYTES);
    segment.channel = channel;
    synchronized (segments) {
      segments.add(segment);
      current = segment;
    }
    return segment;
  }

  /**
   * Closes the current segment, which the caller has forced; the next write starts a new one.
   * Writer thread only.
   */
  void retire(Segment segment) throws IOException {
    segment.channel.close();
    synchronized (segments) {
      current = null;
    }
    log.debug("Rolled WAL segment [{}] at [{}] bytes", segment.file, segment.bytes);
  }

  /** Closes the current segment, if any, logging a failure. Writer thread only. */
  void closeCurrentQuietly() {
    Segment segment;
    synchronized (segments) {
      segment = current;
      current = null;
    }
    if (segment != null) {
      closeQuietly(segment.channel);
    }
  }

  /** Cuts a segment back to {@code size} bytes after a failed write, logging a failure. */
  static void truncateQuietly(Segment segment, long size) {
    try {
      segment.channel.truncate(size);
      segment.bytes = size;
    } catch (IOException | RuntimeException e) {
      log.warn("Cannot truncate WAL segment [{}] back to [{}] bytes", segment.file, size, e);
    }
  }

  static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      log.warn("Cannot close WAL segment", e);
    }
  }

  /** A segment file; the writer's open channel while it is current. */
  static final class Segment {
    final long number;
    final Path file;
    volatile long maxSequenceId;
    volatile long bytes;
    FileChannel channel; // writer thread only

    Segment(long number, Path file, long maxSequenceId, long bytes) {
      this.number = number;
      this.file = file;
      this.maxSequenceId = maxSequenceId;
      this.bytes = bytes;
    }
  }
}
