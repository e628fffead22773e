package io.cairn.tpch.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.cairn.core.SuppressForbidden;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the JVM says about heap allocation and garbage collection, for before/after deltas around a
 * measured piece of work ({@code bench cache}, and the allocation per row of {@code bench
 * lineitem}).
 *
 * <p>Allocation comes from {@code com.sun.management.ThreadMXBean}: {@code
 * getTotalThreadAllocatedBytes()} (every thread, those that ended included) where the JVM
 * implements it, else the sum of {@code getThreadAllocatedBytes} over the threads alive at the
 * moment of reading (a thread that ends between two readings takes its bytes with it). Both count
 * TLAB-granular bytes; JMH's {@code -prof gc} ({@code gc.alloc.rate.norm}) is the precise
 * per-operation figure.
 *
 * <p>Uses {@code com.sun.management} (module jdk.management, in HotSpot and OpenJ9 JDKs): the
 * portable {@code java.lang.management} API has no allocation counters. A JVM whose thread bean
 * does not measure allocation gets -1 (reported as unknown), not a failure.
 */
@SuppressForbidden(reason = "com.sun.management: the only allocation counters")
public final class JvmMeters {
  /**
   * {@code getTotalThreadAllocatedBytes()}, looked up at run time: it came with JDK 21 and a later
   * JDK 17 update, so a build for Java 17 cannot call it directly (javac --release 17 on a newer
   * JDK knows only 17's first API). Null where the JVM lacks it.
   */
  private static final MethodHandle TOTAL_ALLOCATED = totalAllocated();

  private static MethodHandle totalAllocated() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(
              com.sun.management.ThreadMXBean.class,
              "getTotalThreadAllocatedBytes",
              MethodType.methodType(long.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }

  private static long totalAllocated(com.sun.management.ThreadMXBean threads) {
    if (TOTAL_ALLOCATED == null) {
      return -1;
    }
    try {
      return (long) TOTAL_ALLOCATED.invoke(threads);
    } catch (UnsupportedOperationException e) {
      return -1;
    } catch (Throwable e) {
      throw new IllegalStateException("getTotalThreadAllocatedBytes failed", e);
    }
  }

  private final com.sun.management.ThreadMXBean threads;
  private final boolean total;

  private JvmMeters(com.sun.management.ThreadMXBean threads, boolean total) {
    this.threads = threads;
    this.total = total;
  }

  /** The meters of this JVM; allocation is unavailable (-1) where the JVM cannot measure it. */
  public static JvmMeters create() {
    ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    if (!(bean instanceof com.sun.management.ThreadMXBean sun)
        || !sun.isThreadAllocatedMemorySupported()) {
      return new JvmMeters(null, false);
    }
    if (!sun.isThreadAllocatedMemoryEnabled()) {
      sun.setThreadAllocatedMemoryEnabled(true);
    }
    return new JvmMeters(sun, totalAllocated(sun) >= 0);
  }

  /** Whether {@link #allocatedBytes()} measures anything. */
  public boolean allocationSupported() {
    return threads != null;
  }

  /** Heap bytes allocated by the JVM's threads so far (see the class comment); -1 if unknown. */
  public long allocatedBytes() {
    if (threads == null) {
      return -1;
    }
    if (total) {
      return totalAllocated(threads);
    }
    long sum = 0;
    for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      if (bytes > 0) {
        sum += bytes;
      }
    }
    return sum;
  }

  /** Heap bytes allocated by the calling thread so far; -1 if unknown. */
  public long currentThreadAllocatedBytes() {
    return threads == null ? -1 : threads.getCurrentThreadAllocatedBytes();
  }

  /** How {@link #allocatedBytes()} is measured, for the report. */
  public String allocationMethod() {
    if (threads == null) {
      return "not measured (this JVM does not report allocated bytes per thread)";
    }
    return total
        ? "ThreadMXBean.getTotalThreadAllocatedBytes (all threads)"
        : "the sum of ThreadMXBean.getThreadAllocatedBytes over live threads";
  }

  /** Collections and their accumulated time, summed over the JVM's collectors. */
  public record GcTotals(long count, long millis) {
    public static GcTotals now() {
      long count = 0;
      long millis = 0;
      List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
      for (GarbageCollectorMXBean gc : beans) {
        count += Math.max(0, gc.getCollectionCount());
        millis += Math.max(0, gc.getCollectionTime());
      }
      return new GcTotals(count, millis);
    }

    public GcTotals minus(GcTotals before) {
      return new GcTotals(count - before.count, millis - before.millis);
    }
  }

  /** Names of the JVM's collectors, e.g. "G1 Young Generation, G1 Old Generation". */
  public static String collectors() {
    return String.join(
        ", ",
        ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName)
            .toList());
  }

  /**
   * The direct (off-heap) memory limit: {@code -XX:MaxDirectMemorySize}, or the maximum heap when
   * it is not set (HotSpot's default).
   */
  public static long maxDirectMemory() {
    try {
      HotSpotDiagnosticMXBean hotspot =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      long set = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
      if (set > 0) {
        return set;
      }
    } catch (RuntimeException e) {
      // not HotSpot, or no such option: HotSpot's default below
    }
    return Runtime.getRuntime().maxMemory();
  }

  /**
   * The process's peak resident set so far ({@code VmHWM} of {@code /proc/self/status}: heap,
   * off-heap buffers, code, and any native library's memory, such as DuckDB's in the same process),
   * in bytes; -1 where the system does not tell.
   */
  public static long peakResidentBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("VmHWM:")) {
          String[] parts = line.substring("VmHWM:".length()).trim().split("\\s+");
          return Long.parseLong(parts[0]) * 1024; // kB
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or no such line
    }
    return -1;
  }
}
