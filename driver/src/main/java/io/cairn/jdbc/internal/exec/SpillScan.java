package io.cairn.jdbc.internal.exec;

import io.cairn.jdbc.internal.exec.spill.SpillReader;
import io.cairn.jdbc.internal.exec.spill.SpillRun;

/** The rows of a spill run (none for a null run) as an operator; closing deletes the file. */
final class SpillScan implements Operator {
  private final SpillRun run;
  private SpillReader reader;

  SpillScan(SpillRun run) {
    this.run = run;
  }

  @Override
  public Object[] next() {
    if (run == null) {
      return null;
    }
    if (reader == null) {
      reader = run.openReader();
    }
    return reader.next();
  }

  @Override
  public void close() {
    if (run == null) {
      return;
    }
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      run.delete();
    }
  }
}
