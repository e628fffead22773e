package io.cairn.server.cache;

import static java.util.Objects.requireNonNull;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds {@link PooledBuffer}s that were never released, and says where they were allocated.
 *
 * <p>In {@link Mode#PARANOID} mode every allocation records its stack and a phantom reference to
 * the buffer. A leak is found when a buffer becomes unreachable while still holding a reference
 * (reported the next time the pool allocates, or at {@link #takeLeaks()}), or when {@link
 * BufferPool#checkLeaks()} or {@link BufferPool#close()} finds it still out. Each leak is logged at
 * error level with its allocation stack and kept until {@link #takeLeaks()} or {@link
 * #assertNoLeaks()} takes it, so that a test harness can run every test in this mode and fail on
 * any leak. In {@link Mode#OFF} mode (the default) nothing is recorded and allocation costs nothing
 * extra.
 *
 * <p>The mode comes from the system property {@value #PROPERTY} ({@code off} or {@code paranoid})
 * and can be switched by tests with {@link #setMode}; it applies to buffers allocated afterwards.
 */
public final class LeakDetector {
  /** The system property that sets the initial mode. */
  public static final String PROPERTY = "cairn.leakDetection";

  private static final Logger log = LoggerFactory.getLogger(LeakDetector.class);

  /** How much the detector records. */
  public enum Mode {
    /** Record nothing. */
    OFF,
    /** Record every allocation's stack and check every buffer. */
    PARANOID;

    /** The mode named {@code off} or {@code paranoid} (any case). */
    public static Mode parse(String name) {
      requireNonNull(name, "name is null");
      return switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "off" -> OFF;
        case "paranoid" -> PARANOID;
        default ->
            throw new IllegalArgumentException(
                "-D" + PROPERTY + " must be [off] or [paranoid], found [" + name + "]");
      };
    }
  }

  private static volatile Mode mode = Mode.parse(System.getProperty(PROPERTY, "off"));

  private static final ReferenceQueue<PooledBuffer> unreachable = new ReferenceQueue<>();

  /** Trackers of buffers not yet released nor reported; keeps the phantom references alive. */
  private static final Set<Tracker> open = ConcurrentHashMap.newKeySet();

  private static final ConcurrentLinkedQueue<BufferLeak> leaks = new ConcurrentLinkedQueue<>();

  private LeakDetector() {}

  /** The current mode. */
  public static Mode mode() {
    return mode;
  }

  /**
   * Sets the mode for buffers allocated from now on.
   *
   * @return the previous mode, to restore afterwards
   */
  public static Mode setMode(Mode newMode) {
    Mode previous = mode;
    mode = requireNonNull(newMode, "newMode is null");
    return previous;
  }

  /**
   * Reports buffers that became unreachable unreleased, then returns and forgets every leak found
   * so far.
   */
  public static List<BufferLeak> takeLeaks() {
    drainUnreachable();
    List<BufferLeak> taken = new ArrayList<>();
    for (BufferLeak leak; (leak = leaks.poll()) != null; ) {
      taken.add(leak);
    }
    return taken;
  }

  /**
   * Takes the leaks found so far and throws if there are any.
   *
   * @throws IllegalStateException naming each leaked buffer, with the first allocation stack as its
   *     cause and the others suppressed
   */
  public static void assertNoLeaks() {
    List<BufferLeak> taken = takeLeaks();
    if (taken.isEmpty()) {
      return;
    }
    StringBuilder message =
        new StringBuilder().append(taken.size()).append(" buffer(s) leaked (never released):");
    for (BufferLeak leak : taken) {
      message.append("\n  ").append(leak);
    }
    IllegalStateException failure =
        new IllegalStateException(message.toString(), taken.get(0).allocatedAt());
    for (BufferLeak leak : taken.subList(1, taken.size())) {
      failure.addSuppressed(leak.allocatedAt());
    }
    throw failure;
  }

  /** Buffers not yet released nor reported, of every pool; paranoid mode only. */
  static int openCount() {
    return open.size();
  }

  /** Starts tracking a new buffer, or returns null when the detector is off. */
  static Tracker track(PooledBuffer buffer, Object owner, String poolName) {
    if (mode == Mode.OFF) {
      return null;
    }
    drainUnreachable();
    Tracker tracker = new Tracker(buffer, owner, poolName);
    open.add(tracker);
    return tracker;
  }

  /** Reports the buffers of the given owner (a pool's recycler) still out; returns them. */
  static List<BufferLeak> reportOutstanding(Object owner) {
    drainUnreachable();
    List<BufferLeak> found = new ArrayList<>();
    for (Tracker tracker : open) {
      if (tracker.owner == owner && open.remove(tracker)) {
        found.add(tracker.report(false));
      }
    }
    return found;
  }

  private static void drainUnreachable() {
    for (Reference<? extends PooledBuffer> ref; (ref = unreachable.poll()) != null; ) {
      Tracker tracker = (Tracker) ref;
      if (open.remove(tracker)) {
        tracker.report(true);
      }
    }
  }

  /** Where a tracked buffer was allocated; closed when the buffer is released. */
  static final class Tracker extends PhantomReference<PooledBuffer> {
    private final String buffer;
    private final Object owner;
    private final String poolName;
    private final Throwable allocatedAt;

    Tracker(PooledBuffer buffer, Object owner, String poolName) {
      super(buffer, unreachable);
      this.owner = owner;
      this.buffer = buffer.toString();
      this.poolName = poolName;
      this.allocatedAt =
          new Throwable(
              "buffer "
                  + this.buffer
                  + " of pool ["
                  + poolName
                  + "] allocated by thread ["
                  + Thread.currentThread().getName()
                  + "]");
    }

    /** The buffer was released: stop tracking it. */
    void close() {
      if (open.remove(this)) {
        clear();
      }
    }

    private BufferLeak report(boolean becameUnreachable) {
      clear();
      BufferLeak leak = new BufferLeak(buffer, poolName, becameUnreachable, allocatedAt);
      leaks.add(leak);
      log.error("Leak: {}", leak, allocatedAt);
      return leak;
    }
  }
}
