package io.cairn.tpch.bench;

import io.cairn.core.SuppressForbidden;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;

/**
 * The CPU time this process has used so far, user and system, over all its threads: the JVM's
 * (query workers, garbage collector, JIT compiler) and native ones (DuckDB's). The operating system
 * counts it in clock ticks (10 ms on Linux), so a figure over a few runs of a query is exact to a
 * few percent and one of a single short run is not.
 *
 * <p>Read from {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime} (module
 * jdk.management, in HotSpot and OpenJ9 JDKs), else {@link ProcessHandle.Info#totalCpuDuration}; -1
 * where neither tells.
 */
@SuppressForbidden(reason = "com.sun.management: the process CPU time")
final class ProcessCpu {
  private ProcessCpu() {}

  /** Process CPU nanoseconds so far, or -1 when this JVM cannot tell. */
  static long nanos() {
    OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
    if (bean instanceof com.sun.management.OperatingSystemMXBean sun) {
      long cpu = sun.getProcessCpuTime();
      if (cpu >= 0) {
        return cpu;
      }
    }
    return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  /** How {@link #nanos()} is measured, for the report. */
  static String method() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean
        ? "com.sun.management.OperatingSystemMXBean.getProcessCpuTime (all threads of the process)"
        : "ProcessHandle.Info.totalCpuDuration (all threads of the process)";
  }
}
