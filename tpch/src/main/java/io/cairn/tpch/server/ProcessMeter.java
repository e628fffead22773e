package io.cairn.tpch.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;

/**
 * What a process has used so far: CPU time (user + system, {@link ProcessHandle}) and, on Linux,
 * context switches (voluntary and involuntary, summed over the threads alive at the moment of
 * reading, from {@code /proc/PID/task/TID/status}; a thread that ended, or ends while it is read,
 * takes its count with it).
 */
final class ProcessMeter {
  private static final String VOLUNTARY = "voluntary_ctxt_switches:";
  private static final String NONVOLUNTARY = "nonvoluntary_ctxt_switches:";

  /** One reading; {@code contextSwitches} is -1 where the system does not tell. */
  record Sample(long cpuNanos, long contextSwitches) {
    /** The use between {@code before} and this reading. */
    Sample minus(Sample before) {
      long switches =
          contextSwitches < 0 || before.contextSwitches < 0
              ? -1
              : contextSwitches - before.contextSwitches;
      return new Sample(cpuNanos - before.cpuNanos, switches);
    }
  }

  private ProcessMeter() {}

  static Sample read(ProcessHandle process) {
    long cpu = process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos();
    return new Sample(cpu, contextSwitches(process.pid()));
  }

  /** The sum over the process's threads, or -1 without {@code /proc}. */
  static long contextSwitches(long pid) {
    Path tasks = Paths.get("/proc", Long.toString(pid), "task");
    if (!Files.isDirectory(tasks)) {
      return -1;
    }
    long sum = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        try {
          for (String line : Files.readAllLines(thread.resolve("status"), UTF_8)) {
            if (line.startsWith(VOLUNTARY)) {
              sum += Long.parseLong(line.substring(VOLUNTARY.length()).strip());
            } else if (line.startsWith(NONVOLUNTARY)) {
              sum += Long.parseLong(line.substring(NONVOLUNTARY.length()).strip());
            }
          }
        } catch (IOException e) {
          // the thread ended while we looked: its status is gone (NoSuchFileException), or it was
          // opened and the read fails with ESRCH ("No such process", even while the directory is
          // still listed); its count ended with it
        }
      }
    } catch (NoSuchFileException e) {
      return -1;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sum;
  }
}
