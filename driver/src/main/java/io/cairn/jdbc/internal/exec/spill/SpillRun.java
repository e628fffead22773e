package io.cairn.jdbc.internal.exec.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A finished spill file of {@code rows} rows and {@code bytes} bytes; {@link #delete} it. */
public record SpillRun(Path file, long rows, long bytes) {
  public SpillRun {
    requireNonNull(file, "file is null");
  }

  /** A reader of the rows from the start; the caller closes it. */
  public SpillReader openReader() {
    return new SpillReader(file, rows);
  }

  /** Deletes the file (gone already: nothing to do). */
  public void delete() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw SpillWriter.failed(file, e);
    }
  }
}
