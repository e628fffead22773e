package io.cairn.store.table;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The store's compactions for monitoring (the server's status page): those running now and the last
 * {@link #capacity()} that finished, newest first. Thread-safe; a compaction costs two short
 * critical sections, nothing per cell.
 */
public final class CompactionLog {
  public static final int DEFAULT_CAPACITY = 50;

  /** How a compaction ended, or that it has not yet. */
  public enum Outcome {
    RUNNING,
    SUCCEEDED,
    FAILED
  }

  /**
   * One compaction.
   *
   * @param major true when it merged all of the region's files (so it dropped tombstones), whether
   *     asked for or picked by the policy
   * @param bytesOut the size of the file written; 0 while running, when nothing survived, or when
   *     it failed
   * @param duration how long it took, or has taken so far while running
   */
  public record Compaction(
      String table,
      long regionId,
      boolean major,
      Instant startTime,
      int filesIn,
      long bytesIn,
      long bytesOut,
      Duration duration,
      Outcome outcome) {
    public Compaction {
      requireNonNull(table, "table is null");
      requireNonNull(startTime, "startTime is null");
      requireNonNull(duration, "duration is null");
      requireNonNull(outcome, "outcome is null");
    }
  }

  /**
   * A compaction under way: {@link #finish} it when its output is in place; closing it unfinished
   * records it as failed.
   */
  public final class Running implements AutoCloseable {
    private final String table;
    private final long regionId;
    private final boolean major;
    private final Instant startTime = Instant.now();
    private final long startNanos = System.nanoTime();
    private final int filesIn;
    private final long bytesIn;
    private boolean ended;

    private Running(String table, long regionId, boolean major, int filesIn, long bytesIn) {
      this.table = table;
      this.regionId = regionId;
      this.major = major;
      this.filesIn = filesIn;
      this.bytesIn = bytesIn;
    }

    /** Records the compaction as succeeded, having written {@code bytesOut}. */
    public void finish(long bytesOut) {
      end(bytesOut, Outcome.SUCCEEDED);
    }

    /** Records the compaction as failed unless {@link #finish} was called. */
    @Override
    public void close() {
      end(0, Outcome.FAILED);
    }

    private Compaction snapshot(long bytesOut, Outcome outcome) {
      return new Compaction(
          table,
          regionId,
          major,
          startTime,
          filesIn,
          bytesIn,
          bytesOut,
          Duration.ofNanos(System.nanoTime() - startNanos),
          outcome);
    }

    private void end(long bytesOut, Outcome outcome) {
      synchronized (CompactionLog.this) {
        if (ended) {
          return;
        }
        ended = true;
        running.remove(this);
        recent.addFirst(snapshot(bytesOut, outcome));
        if (recent.size() > capacity) {
          recent.removeLast();
        }
      }
    }
  }

  private final int capacity;
  private final Set<Running> running = new LinkedHashSet<>();
  private final Deque<Compaction> recent = new ArrayDeque<>();

  public CompactionLog() {
    this(DEFAULT_CAPACITY);
  }

  public CompactionLog(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("Capacity: expected >= 1, found [" + capacity + "]");
    }
    this.capacity = capacity;
  }

  public int capacity() {
    return capacity;
  }

  /** Records that a compaction of {@code filesIn} files ({@code bytesIn} bytes) starts now. */
  public synchronized Running begin(
      String table, long regionId, boolean major, int filesIn, long bytesIn) {
    Running r =
        new Running(requireNonNull(table, "table is null"), regionId, major, filesIn, bytesIn);
    running.add(r);
    return r;
  }

  /** The compactions running now, oldest first, with their duration so far. */
  public synchronized List<Compaction> running() {
    List<Compaction> out = new ArrayList<>(running.size());
    for (Running r : running) {
      out.add(r.snapshot(0, Outcome.RUNNING));
    }
    return out;
  }

  /** The last compactions that ended, newest first. */
  public synchronized List<Compaction> recent() {
    return List.copyOf(recent);
  }
}
