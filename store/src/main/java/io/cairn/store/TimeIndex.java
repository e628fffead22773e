package io.cairn.store;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.store.io.AtomicFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's clock for sequence ids: samples (sequence id, wall-clock millisecond) meaning "every
 * batch with a sequence id at or below this one had committed by then". Cells carry sequence ids,
 * not timestamps; TTL asks which cells are older than a duration, and this index answers with a
 * cutoff sequence id ({@link #expiredAtOrBelow}).
 *
 * <p>Every answer errs late, never early: a sequence id maps to the time of the first sample at or
 * above it, which is at or after its real commit time. So dropping a sample, losing the file, or a
 * sequence id committed but not yet sampled only makes cells expire later. Samples are taken at
 * commits, at most one per {@link #RESOLUTION_MILLIS} (a commit in the same slot moves the slot's
 * sample up); older samples are thinned so that their spacing stays under about {@code age / }
 * {@link #RELATIVE_RESOLUTION}, which bounds the index to some ten thousand samples over years. The
 * durable store keeps it in {@value #FILE_NAME} (docs/format-store.md), written at flushes and at
 * close.
 */
final class TimeIndex {
  private static final Logger LOG = LoggerFactory.getLogger(TimeIndex.class);
  static final String FILE_NAME = "time.index";
  static final String MAGIC = "cairn-time-index";
  static final int VERSION = 1;

  /** Commits within this many milliseconds share one sample. */
  static final long RESOLUTION_MILLIS = 100;

  /** Samples older than a duration d are kept at most about d / this apart. */
  static final long RELATIVE_RESOLUTION = 256;

  /** The smallest bucket thinning keeps one sample of. */
  static final long BUCKET_MILLIS = 128;

  /** Thinning runs when the samples exceed this (and then twice what thinning left). */
  static final int MIN_THIN_SIZE = 1024;

  private final LongSupplier clock;
  private long[] sequenceIds = new long[64];
  private long[] times = new long[64];
  private int size;
  private int thinAt = MIN_THIN_SIZE;

  /** The latest time seen: cutoffs never move back when the wall clock does. */
  private long latestTime;

  private boolean dirty;

  TimeIndex(LongSupplier clock) {
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** An index without samples (a new store, or one written before the index existed). */
  static TimeIndex empty() {
    return new TimeIndex(System::currentTimeMillis);
  }

  /**
   * The index of the durable store in {@code dir}, as its file says (none when missing or damaged:
   * expiry then counts from now), with samples above {@code lastSequenceId} dropped (batches lost
   * in a crash, whose ids will be handed out again) and every sequence id up to {@code
   * lastSequenceId} recorded as committed now at the latest (the log's replayed batches, and data
   * of stores written before the index existed).
   */
  static TimeIndex open(Path dir, long lastSequenceId, LongSupplier clock) {
    TimeIndex index = new TimeIndex(clock);
    Path path = dir.resolve(FILE_NAME);
    boolean exists = Files.exists(path);
    if (exists) {
      try {
        index.load(AtomicFiles.read(path), path);
      } catch (CairnException | IllegalArgumentException e) {
        // only expiry precision is lost: every cell counts as written at this open
        LOG.warn(
            "Ignoring {}: {}; rows written before count as written now for TTL",
            path,
            e.getMessage());
        index.size = 0;
      }
      index.truncateAbove(lastSequenceId);
    }
    index.dirty |= !exists;
    index.committed(lastSequenceId);
    return index;
  }

  private void load(List<String> lines, Path path) {
    if (lines.isEmpty() || !lines.get(0).equals(MAGIC + " " + VERSION)) {
      throw new IllegalArgumentException(
          "expected header ["
              + MAGIC
              + " "
              + VERSION
              + "], found ["
              + (lines.isEmpty() ? "" : lines.get(0))
              + "] in "
              + path);
    }
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(" ");
      if (f.length != 3 || !f[0].equals("sample")) {
        throw new IllegalArgumentException("expected [sample <id> <millis>], found [" + line + "]");
      }
      long sequenceId = Long.parseLong(f[1]);
      long time = Long.parseLong(f[2]);
      if (size > 0 && (sequenceId <= sequenceIds[size - 1] || time < times[size - 1])) {
        throw new IllegalArgumentException("expected increasing samples, found [" + line + "]");
      }
      append(sequenceId, time);
    }
  }

  /** Records that every batch up to {@code sequenceId} has committed (call after it is visible). */
  synchronized void committed(long sequenceId) {
    long now = Math.max(clock.getAsLong(), latestTime);
    latestTime = now;
    if (size > 0) {
      int last = size - 1;
      if (sequenceId <= sequenceIds[last]) {
        return; // already covered by an earlier (or equal) time
      }
      if (now / RESOLUTION_MILLIS == times[last] / RESOLUTION_MILLIS) {
        sequenceIds[last] = sequenceId;
        times[last] = now;
        dirty = true;
        return;
      }
    }
    append(sequenceId, now);
    dirty = true;
    if (size > thinAt) {
      thin(now);
      thinAt = Math.max(MIN_THIN_SIZE, 2 * size);
    }
  }

  /**
   * The largest sequence id that committed at least {@code ttlMillis} ago, as far as the samples
   * tell; -1 when none did. Cells at or below it are expired under that TTL.
   */
  synchronized long expiredAtOrBelow(long ttlMillis) {
    long now = Math.max(clock.getAsLong(), latestTime);
    latestTime = now;
    if (ttlMillis <= 0 || ttlMillis >= now) {
      return -1;
    }
    long cutoffTime = now - ttlMillis;
    int i = Arrays.binarySearch(times, 0, size, cutoffTime);
    if (i < 0) {
      i = -i - 2; // the last sample before the cutoff time
    } else {
      while (i + 1 < size && times[i + 1] == cutoffTime) {
        i++;
      }
    }
    return i < 0 ? -1 : sequenceIds[i];
  }

  /** Writes the index to {@code dir} when it changed since the last write. */
  void persist(Path dir) {
    List<String> lines;
    synchronized (this) {
      if (!dirty) {
        return;
      }
      lines = new ArrayList<>(size + 1);
      lines.add(MAGIC + " " + VERSION);
      for (int i = 0; i < size; i++) {
        lines.add("sample " + sequenceIds[i] + " " + times[i]);
      }
      dirty = false;
    }
    try {
      AtomicFiles.write(dir.resolve(FILE_NAME), lines);
    } catch (RuntimeException e) {
      synchronized (this) {
        dirty = true;
      }
      throw e;
    }
  }

  synchronized int size() {
    return size;
  }

  private void append(long sequenceId, long time) {
    if (size == sequenceIds.length) {
      sequenceIds = Arrays.copyOf(sequenceIds, size * 2);
      times = Arrays.copyOf(times, size * 2);
    }
    sequenceIds[size] = sequenceId;
    times[size] = time;
    size++;
  }

  private void truncateAbove(long sequenceId) {
    while (size > 0 && sequenceIds[size - 1] > sequenceId) {
      size--;
      dirty = true;
    }
  }

  /**
   * Keeps, of the samples in each time bucket, the newest; a sample's bucket is aligned to its
   * width, a power of two near its age over {@link #RELATIVE_RESOLUTION} (at least {@link
   * #BUCKET_MILLIS}). Widths grow with age and aligned powers of two nest, so a commit always maps
   * to the newest sample of the bucket holding its time: at most one bucket width late, however
   * often thinning runs. Dropping a sample maps its ids to a later time: expiry only gets later.
   */
  private void thin(long now) {
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (i + 1 < size) {
        long width =
            Long.highestOneBit(Math.max(BUCKET_MILLIS, (now - times[i]) / RELATIVE_RESOLUTION));
        if (Math.floorDiv(times[i + 1], width) == Math.floorDiv(times[i], width)) {
          continue; // a newer sample in the same bucket covers this one
        }
      }
      sequenceIds[kept] = sequenceIds[i];
      times[kept] = times[i];
      kept++;
    }
    size = kept;
  }
}
