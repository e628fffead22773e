package io.cairn.tpch.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class TestProcessMeter {
  /**
   * Threads that end while their process's context switches are summed: a thread's status file then
   * vanishes (no such file) or fails to read (no such process); neither fails the reading.
   */
  @Test
  void threadsEndingWhileReadAreSkipped() throws Exception {
    long pid = ProcessHandle.current().pid();
    if (!Files.isDirectory(Path.of("/proc/self/task"))) {
      assertThat(ProcessMeter.contextSwitches(pid)).isEqualTo(-1);
      return;
    }
    AtomicBoolean stop = new AtomicBoolean();
    Thread churn =
        new Thread(
            () -> {
              while (!stop.get()) {
                Thread[] brief = new Thread[16];
                for (int i = 0; i < brief.length; i++) {
                  brief[i] = new Thread(Thread::yield);
                  brief[i].start();
                }
                for (Thread t : brief) {
                  try {
                    t.join();
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            });
    churn.start();
    try {
      long deadline = System.nanoTime() + 3_000_000_000L;
      long readings = 0;
      while (System.nanoTime() < deadline) {
        assertThat(ProcessMeter.contextSwitches(pid)).isNotNegative();
        readings++;
      }
      assertThat(readings).isPositive();
    } finally {
      stop.set(true);
      churn.join();
    }
  }
}
