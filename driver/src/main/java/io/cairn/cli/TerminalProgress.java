package io.cairn.cli;

import static java.util.Objects.requireNonNull;

import io.cairn.jdbc.internal.engine.BuildProgress;
import io.cairn.jdbc.internal.engine.ProgressListener;
import java.io.PrintStream;

/**
 * Prints each progress report as one line ({@link BuildProgress#describe()}), at most about once a
 * second while the work runs, then a final line: lines rather than one line rewritten in place, so
 * that a script's output and a log read the same as the terminal.
 */
final class TerminalProgress implements ProgressListener {
  private final PrintStream out;

  TerminalProgress(PrintStream out) {
    this.out = requireNonNull(out, "out is null");
  }

  @Override
  public void progress(BuildProgress progress) {
    out.println(progress.describe());
    out.flush();
  }
}
