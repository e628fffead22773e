package io.cairn.store.cache;

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
 * Finds reference-counted objects that were never released, and says where they were taken: {@link
 * PooledBuffer}s, and blocks of a {@link BlockCache} held by readers.
 *
 * <p>In {@link Mode#PARANOID} mode every tracked object records the stack where it was taken and a
 * phantom reference to it; a block cache entry also records the stack of its last retain, since the
 * reader that leaked it is usually the last one to retain it. A leak is found when a tracked object
 * becomes unreachable while still holding a reference (reported the next time something is tracked,
 * or at {@link #takeLeaks()}), or when its owner finds it still out: {@link
 * BufferPool#checkLeaks()} or {@link BufferPool#close()} for a buffer, the cache's {@code close()}
 * for a block a reader still holds. Each leak is logged at error level with its stack and kept
 * until {@link #takeLeaks()} or {@link #assertNoLeaks()} takes it, so that a test harness can run
 * every test in this mode and fail on any leak. In {@link Mode#OFF} mode (the default) nothing is
 * recorded and allocation costs nothing extra.
 *
 * <p>The mode comes from the system property {@value #PROPERTY} ({@code off} or {@code paranoid})
 * and can be switched by tests with {@link #setMode}; it applies to objects taken afterwards.
 */
public final class LeakDetector {
  /** The system property that sets the initial mode. */
  public static final String PROPERTY = "cairn.leakDetection";

  private static final Logger log = LoggerFactory.getLogger(LeakDetector.class);

  /** How much the detector records. */
  public enum Mode {
    /** Record nothing. */
    OFF,
    /** Record every allocation's (and cache entry retain's) stack and check every object. */
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

  private static final ReferenceQueue<Object> unreachable = new ReferenceQueue<>();

  /** Trackers of objects not yet released nor reported; keeps the phantom references alive. */
  private static final Set<Tracker> open = ConcurrentHashMap.newKeySet();

  private static final ConcurrentLinkedQueue<BufferLeak> leaks = new ConcurrentLinkedQueue<>();

  private LeakDetector() {}

  /** The current mode. */
  public static Mode mode() {
    return mode;
  }

  /**
   * Sets the mode for objects taken from now on.
   *
   * @return the previous mode, to restore afterwards
   */
  public static Mode setMode(Mode newMode) {
    Mode previous = mode;
    mode = requireNonNull(newMode, "newMode is null");
    return previous;
  }

  /**
   * Reports objects that became unreachable unreleased, then returns and forgets every leak found
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
   * @throws IllegalStateException naming each leaked object, with the first stack as its cause and
   *     the others suppressed
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

  /** Objects not yet released nor reported, of every owner; paranoid mode only. */
  static int openCount() {
    return open.size();
  }

  /** Starts tracking a new buffer, or returns null when the detector is off. */
  static Tracker track(PooledBuffer buffer, Object owner, String poolName) {
    return track(buffer, buffer.toString(), owner, poolName);
  }

  /**
   * Starts tracking a new reference-counted object, or returns null when the detector is off.
   *
   * @param resource the object: a leak is reported if it becomes unreachable before its tracker is
   *     closed
   * @param description names the object in reports (computed once, here)
   * @param owner what {@link #reportOutstanding} is asked about (a pool's recycler, a cache)
   * @param ownerName names the owner in reports
   */
  static Tracker track(Object resource, String description, Object owner, String ownerName) {
    if (mode == Mode.OFF) {
      return null;
    }
    drainUnreachable();
    Tracker tracker = new Tracker(resource, description, owner, ownerName);
    open.add(tracker);
    return tracker;
  }

  /**
   * Reports the objects of the given owner (a pool's recycler, a cache) still out; returns them.
   */
  static List<BufferLeak> reportOutstanding(Object owner) {
    drainUnreachable();
    List<BufferLeak> found = new ArrayList<>();
    for (Tracker tracker : List.copyOf(open)) {
      if (tracker.owner == owner && open.remove(tracker)) {
        found.add(tracker.report(false));
      }
    }
    return found;
  }

  private static void drainUnreachable() {
    for (Reference<?> ref; (ref = unreachable.poll()) != null; ) {
      Tracker tracker = (Tracker) ref;
      if (open.remove(tracker)) {
        tracker.report(true);
      }
    }
  }

  /**
   * Where a tracked object was taken (and, for a cache entry, last retained); closed when the
   * object is released for the last time.
   */
  static final class Tracker extends PhantomReference<Object> {
    private final String description;
    private final Object owner;
    private final String ownerName;
    private final Throwable takenAt;
    private volatile Throwable lastRetainedAt;

    Tracker(Object resource, String description, Object owner, String ownerName) {
      super(resource, unreachable);
      this.owner = owner;
      this.description = description;
      this.ownerName = ownerName;
      this.takenAt = new Throwable(stackMessage("allocated"));
    }

    /** Records the stack of a retain, reported instead of the allocation if the object leaks. */
    void retained() {
      if (mode != Mode.OFF) {
        lastRetainedAt = new Throwable(stackMessage("last retained"));
      }
    }

    /** The object was released for the last time: stop tracking it. */
    void close() {
      if (open.remove(this)) {
        clear();
      }
    }

    private String stackMessage(String what) {
      return description
          + " of ["
          + ownerName
          + "] "
          + what
          + " by thread ["
          + Thread.currentThread().getName()
          + "]";
    }

    private BufferLeak report(boolean becameUnreachable) {
      clear();
      Throwable retained = lastRetainedAt;
      Throwable stack = retained != null ? retained : takenAt;
      BufferLeak leak = new BufferLeak(description, ownerName, becameUnreachable, stack);
      leaks.add(leak);
      log.error("Leak: {}", leak, stack);
      return leak;
    }
  }
}
