package io.cairn.store.table;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KeyRange;
import io.cairn.store.file.FileSeal;
import io.cairn.store.io.AtomicFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The durable description of a table in its directory ({@code table.manifest}): its id, name,
 * options, id and file counters, and its regions with their key ranges, flushed sequence ids and
 * files (newest first), and each listed file's seal (length and trailer checksum, checked on open;
 * absent in manifests written before seals). Replaced atomically on every flush, compaction, split
 * and ALTER; a file is part of the table exactly when a manifest lists it. Format in
 * docs/format-store.md.
 */
public record TableManifest(
    long tableId,
    String name,
    Map<String, String> options,
    long idLimit,
    long nextFileId,
    long nextRegionId,
    List<RegionEntry> regions,
    Map<String, FileSeal> seals) {
  public static final String FILE_NAME = "table.manifest";
  public static final String MAGIC = "cairn-table-manifest";
  public static final int VERSION = 1;

  /** One region: its id, key range, flushed sequence id and file names (newest first). */
  public record RegionEntry(
      long regionId, KeyRange range, long flushedSequenceId, List<String> files) {
    public RegionEntry {
      requireNonNull(range, "range is null");
      files = List.copyOf(files);
    }
  }

  public TableManifest {
    requireNonNull(name, "name is null");
    options = java.util.Collections.unmodifiableMap(new TreeMap<>(options));
    regions = List.copyOf(regions);
    seals = Map.copyOf(seals);
  }

  /** Replaces the manifest in {@code dir} atomically. */
  public void write(Path dir) {
    List<String> lines = new ArrayList<>();
    lines.add(MAGIC + " " + VERSION);
    lines.add("id " + tableId);
    lines.add("name " + AtomicFiles.hex(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    for (Map.Entry<String, String> e : options.entrySet()) {
      lines.add("option " + e.getKey() + " " + e.getValue());
    }
    lines.add("id-limit " + idLimit);
    lines.add("next-file-id " + nextFileId);
    lines.add("next-region-id " + nextRegionId);
    for (RegionEntry r : regions) {
      lines.add(
          "region "
              + r.regionId()
              + " "
              + AtomicFiles.hex(r.range().start().toByteArray())
              + " "
              + AtomicFiles.hex(r.range().stop().toByteArray())
              + " "
              + r.flushedSequenceId()
              + " "
              + (r.files().isEmpty() ? "-" : String.join(",", r.files())));
    }
    for (Map.Entry<String, FileSeal> e : new TreeMap<>(seals).entrySet()) {
      lines.add(
          "file " + e.getKey() + " " + e.getValue().bytes() + " " + e.getValue().checksumHex());
    }
    AtomicFiles.write(dir.resolve(FILE_NAME), lines);
  }

  /** Reads the manifest in {@code dir}. */
  public static TableManifest read(Path dir) {
    Path path = dir.resolve(FILE_NAME);
    List<String> lines = AtomicFiles.read(path);
    try {
      String[] header = lines.get(0).split(" ");
      if (!header[0].equals(MAGIC)) {
        throw corrupt(path, "first line [" + MAGIC + " <version>]", lines.get(0));
      }
      int version = Integer.parseInt(header[1]);
      if (version != VERSION) {
        throw new CairnException(
            ErrorCode.UNSUPPORTED_FORMAT_VERSION,
            "Table manifest "
                + path
                + " has format version "
                + version
                + ": this Cairn reads version "
                + VERSION);
      }
      long id = -1;
      String name = null;
      Map<String, String> options = new TreeMap<>();
      long idLimit = 1;
      long nextFileId = 1;
      long nextRegionId = 1;
      List<RegionEntry> regions = new ArrayList<>();
      Map<String, FileSeal> seals = new TreeMap<>();
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.split(" ");
        switch (f[0]) {
          case "id" -> id = Long.parseLong(f[1]);
          case "name" ->
              name = new String(AtomicFiles.unhex(f[1]), java.nio.charset.StandardCharsets.UTF_8);
          case "option" -> options.put(f[1], f[2]);
          case "id-limit" -> idLimit = Long.parseLong(f[1]);
          case "next-file-id" -> nextFileId = Long.parseLong(f[1]);
          case "next-region-id" -> nextRegionId = Long.parseLong(f[1]);
          case "region" ->
              regions.add(
                  new RegionEntry(
                      Long.parseLong(f[1]),
                      new KeyRange(
                          Bytes.wrap(AtomicFiles.unhex(f[2])), Bytes.wrap(AtomicFiles.unhex(f[3]))),
                      Long.parseLong(f[4]),
                      f[5].equals("-") ? List.of() : Arrays.asList(f[5].split(","))));
          case "file" ->
              seals.put(
                  f[1], new FileSeal(Long.parseLong(f[2]), Integer.parseUnsignedInt(f[3], 16)));
          default -> throw corrupt(path, "a known field", line);
        }
      }
      if (id < 0 || name == null || regions.isEmpty()) {
        throw corrupt(path, "id, name and at least one region", String.join(" | ", lines));
      }
      return new TableManifest(
          id, name, options, idLimit, nextFileId, nextRegionId, regions, seals);
    } catch (RuntimeException e) {
      if (e instanceof CairnException c) {
        throw c;
      }
      throw corrupt(path, "a well-formed manifest", e.toString());
    }
  }

  private static CairnException corrupt(Path path, String expected, String found) {
    return new CairnException(
        ErrorCode.DATA_CORRUPTED,
        "Corrupt table manifest " + path + ": expected " + expected + ", found [" + found + "]");
  }
}
