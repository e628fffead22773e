package io.cairn.cli;

import io.cairn.core.SuppressForbidden;
import io.cairn.jdbc.internal.engine.ProgressLog;
import java.io.IOException;

/**
 * {@code bin/cairn shell}: sqlline on the Cairn driver, with the progress of long statements (an
 * index build) printed to standard error ({@link TerminalProgress}) while they run, embedded and
 * remote. Everything else is sqlline's, exit code included.
 */
public final class CairnShell {
  private CairnShell() {}

  /** Runs sqlline with {@code args}; sqlline exits the JVM with its status. */
  @SuppressForbidden(reason = "command-line entry point: progress goes to the terminal")
  public static void main(String[] args) throws IOException {
    ProgressLog.install(new TerminalProgress(System.err));
    sqlline.SqlLine.main(args);
  }
}
