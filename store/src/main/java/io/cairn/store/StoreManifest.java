package io.cairn.store;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.io.AtomicFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The durable description of a store in its directory ({@value StoreDirectory#STORE_MANIFEST}): its
 * id, the table id counter, the sequence id every flushed edit is at or below, and whether the log
 * keeps a marker that the open checks. Replaced atomically (on a create of a table and at close).
 * Format in docs/format-store.md: one field a line, after a {@code cairn-store 1} header.
 *
 * @param walMarker whether the log keeps a marker (wal/wal.marker): written by every Cairn that
 *     writes the marker, missing in older stores; once written, a missing marker is damage
 */
record StoreManifest(String storeId, long nextTableId, long lastSequenceId, boolean walMarker) {
  static final String MAGIC = "cairn-store";
  static final int VERSION = 1;

  /** The line saying the log keeps a marker. */
  static final String WAL_MARKER_LINE = "wal-marker 1";

  StoreManifest {
    requireNonNull(storeId, "storeId is null");
  }

  /** The manifest's lines, byte for byte as every Cairn writes them. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add(MAGIC + " " + VERSION);
    lines.add("store-id " + storeId);
    lines.add("next-table-id " + nextTableId);
    lines.add("last-sequence-id " + lastSequenceId);
    if (walMarker) {
      lines.add(WAL_MARKER_LINE);
    }
    return lines;
  }

  /** Replaces the manifest at {@code path} atomically. */
  void write(Path path) {
    AtomicFiles.write(path, lines());
  }

  /**
   * Reads the manifest at {@code path} of the store in {@code dir}.
   *
   * @throws CairnException NOT_A_STORE (another header), UNSUPPORTED_FORMAT_VERSION, DATA_CORRUPTED
   *     (a field missing)
   */
  static StoreManifest read(Path dir, Path path) {
    List<String> lines = AtomicFiles.read(path);
    String[] header = lines.isEmpty() ? new String[0] : lines.get(0).split(" ");
    if (header.length != 2 || !header[0].equals(MAGIC)) {
      throw new CairnException(
          ErrorCode.NOT_A_STORE,
          "Not a Cairn store: "
              + path
              + " starts with ["
              + (lines.isEmpty() ? "" : lines.get(0))
              + "], expected ["
              + MAGIC
              + " "
              + VERSION
              + "]");
    }
    int version;
    try {
      version = Integer.parseInt(header[1]);
    } catch (NumberFormatException e) {
      version = -1;
    }
    if (version != VERSION) {
      throw new CairnException(
          ErrorCode.UNSUPPORTED_FORMAT_VERSION,
          "Store "
              + dir
              + " has format version ["
              + header[1]
              + "]: this Cairn reads version "
              + VERSION
              + " (a newer Cairn wrote it?)");
    }
    return new StoreManifest(
        field(lines, "store-id"),
        Long.parseLong(field(lines, "next-table-id")),
        Long.parseLong(field(lines, "last-sequence-id")),
        lines.contains(WAL_MARKER_LINE));
  }

  private static String field(List<String> lines, String name) {
    for (String line : lines) {
      if (line.startsWith(name + " ")) {
        return line.substring(name.length() + 1);
      }
    }
    throw new CairnException(
        ErrorCode.DATA_CORRUPTED, "Store manifest lacks the field [" + name + "]");
  }
}
