package io.cairn.store.wal;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.io.AtomicFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The log's marker file {@code wal.marker}: which segments the log must hold. Every segment
 * numbered {@code firstSegment .. lastSegment} must be present; segments below {@code firstSegment}
 * were deleted on purpose (every edit in them is in the store's files), and {@code lastSegment} is
 * the highest segment ever created. A small text file replaced atomically ({@link AtomicFiles}:
 * written to a temporary file, forced, renamed, directory forced; a {@code crc32c} line last):
 *
 * <pre>
 * cairn-wal-marker 1
 * first-segment &lt;n&gt;
 * last-segment &lt;n&gt;
 * crc32c &lt;hex&gt;
 * </pre>
 *
 * <p>Written when a segment is created (after its header is forced, before any record goes into
 * it), when trimming deletes segments (before they are deleted), and when the log is emptied at a
 * clean close. So every record ever written lies in a segment numbered at most {@code lastSegment},
 * and a segment in the range that is missing means lost records.
 *
 * @param firstSegment the lowest segment number the log must still hold
 * @param lastSegment the highest segment number ever created (0: none yet); {@code firstSegment >
 *     lastSegment} when the log must hold no segment at all
 */
record WalMarker(long firstSegment, long lastSegment) {
  static final String FILE_NAME = "wal.marker";
  static final String MAGIC = "cairn-wal-marker";
  static final int VERSION = 1;

  WalMarker {
    if (firstSegment < 1 || lastSegment < 0 || firstSegment > lastSegment + 1) {
      throw new IllegalArgumentException(
          "WAL marker: expected 1 <= first <= last + 1, found first ["
              + firstSegment
              + "], last ["
              + lastSegment
              + "]");
    }
  }

  /** Whether segment {@code number} must be present. */
  boolean requires(long number) {
    return number >= firstSegment && number <= lastSegment;
  }

  void write(Path logDir) {
    AtomicFiles.write(
        logDir.resolve(FILE_NAME),
        List.of(
            MAGIC + " " + VERSION, "first-segment " + firstSegment, "last-segment " + lastSegment));
  }

  /**
   * The marker of the log in {@code logDir}, empty when it has none (a log written before markers
   * existed, or a new one).
   *
   * @throws CairnException DATA_CORRUPTED naming the file when it fails its checksum or does not
   *     parse; UNSUPPORTED_FORMAT_VERSION for another version; IO_ERROR
   */
  static Optional<WalMarker> read(Path logDir) {
    Path path = logDir.resolve(FILE_NAME);
    if (!Files.exists(path)) {
      return Optional.empty();
    }
    List<String> lines = AtomicFiles.read(path);
    if (lines.size() != 3 || !lines.get(0).startsWith(MAGIC + " ")) {
      throw corrupt(path, "[" + MAGIC + " " + VERSION + "] and two fields", lines.toString());
    }
    String version = lines.get(0).substring(MAGIC.length() + 1);
    if (!version.equals(String.valueOf(VERSION))) {
      throw new CairnException(
          ErrorCode.UNSUPPORTED_FORMAT_VERSION,
          "WAL marker ["
              + path
              + "] has format version ["
              + version
              + "]: this Cairn reads version "
              + VERSION);
    }
    try {
      return Optional.of(
          new WalMarker(
              number(path, lines.get(1), "first-segment"),
              number(path, lines.get(2), "last-segment")));
    } catch (IllegalArgumentException e) {
      throw corrupt(path, "1 <= first-segment <= last-segment + 1", lines.toString());
    }
  }

  private static long number(Path path, String line, String field) {
    if (!line.startsWith(field + " ")) {
      throw corrupt(path, "[" + field + " <n>]", line);
    }
    try {
      return Long.parseLong(line.substring(field.length() + 1));
    } catch (NumberFormatException e) {
      throw corrupt(path, "[" + field + " <n>]", line);
    }
  }

  private static CairnException corrupt(Path path, String expected, String found) {
    return new CairnException(
        ErrorCode.DATA_CORRUPTED,
        "Corrupt WAL marker [" + path + "]: expected " + expected + ", found [" + found + "]");
  }
}
