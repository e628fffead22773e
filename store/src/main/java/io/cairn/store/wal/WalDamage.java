package io.cairn.store.wal;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * A part of the log that a salvaging replay could not read: a segment that is missing, torn inside
 * its header or corrupt, or the marker itself.
 *
 * @param file the missing or damaged file (for a run of missing segments, the first of them)
 * @param problem what was expected and what was found, and which edits are lost
 * @param present whether the file exists (a damaged file may be kept for inspection)
 */
public record WalDamage(Path file, String problem, boolean present) {
  public WalDamage {
    requireNonNull(file, "file is null");
    requireNonNull(problem, "problem is null");
  }
}
