package io.cairn.store.table;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import io.cairn.kv.Mutation;
import io.cairn.store.file.BlockFileOptions;
import io.cairn.store.file.BlockFileReader;
import io.cairn.store.file.FileSeal;
import io.cairn.store.io.AtomicFiles;
import io.cairn.store.region.Region;
import io.cairn.store.region.StoreFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's regions (sorted, covering all keys), its options and counters, and, when durable, its
 * manifest: the state every flush, compaction, split and ALTER changes, published together (the
 * role of LevelDB's {@code VersionSet}). A change is written to the manifest before readers see it:
 * under {@link #lock()}, write the manifest of the next state ({@link #writeManifest(Region[],
 * Region, List, long)}), then publish it ({@link #publish(Region[])} or the region's own state).
 * Where the manifest and block files go is the {@link TableFiles}' (none in the in-memory mode).
 */
public final class RegionMap {
  private static final Logger LOG = LoggerFactory.getLogger(RegionMap.class);
  private static final long ID_BLOCK = 65_536;

  private final long tableId;
  private final String name;
  private final TableFiles tableFiles;

  /** Guards the manifest and the counters and options written in it. */
  private final Object lock = new Object();

  private volatile Region[] regions;
  private volatile Map<String, String> options;
  private volatile Durability defaultDurability;
  private volatile BlockFileOptions fileOptions;

  /** The TTL option in milliseconds; 0 when rows never expire. */
  private volatile long ttlMillis;

  private long nextId;
  private long idLimit;
  private long nextFileId;
  private long nextRegionId;
  private volatile boolean dropped;

  /**
   * The manifest option that marks a table whose keys starting with {@code 0x80} are local index
   * entries (set when it gets its first index, never unset: entries of dropped indexes linger until
   * compactions drop them). Not a table option: {@code KvTable.options()} leaves it out.
   */
  public static final String INDEX_SPACE_OPTION = "INDEX_SPACE";

  private volatile boolean indexSpace;

  /**
   * The ids of the indexes whose entries are live (the others were dropped: compactions drop their
   * entries); null until the table's owner tells (until then every entry is kept).
   */
  private volatile java.util.function.IntPredicate liveIndexes;

  /** A new block file's id, path and options, its id taken from the table's counter. */
  public record NewFile(long fileId, Path path, BlockFileOptions options) {}

  /**
   * The state of a table keeping its files in {@code files}; ids are handed out from {@code
   * idLimit} on (what a crash may have handed out before is never handed out again).
   */
  public static RegionMap of(
      long tableId,
      String name,
      TableFiles files,
      Map<String, String> options,
      Region[] regions,
      long idLimit,
      long nextFileId,
      long nextRegionId) {
    return new RegionMap(tableId, name, files, options, regions, idLimit, nextFileId, nextRegionId);
  }

  private RegionMap(
      long tableId,
      String name,
      TableFiles files,
      Map<String, String> options,
      Region[] regions,
      long idLimit,
      long nextFileId,
      long nextRegionId) {
    this.tableId = tableId;
    this.name = requireNonNull(name, "name is null");
    this.tableFiles = requireNonNull(files, "files is null");
    this.regions = regions;
    this.nextId = idLimit;
    this.idLimit = idLimit;
    this.nextFileId = nextFileId;
    this.nextRegionId = nextRegionId;
    setOptions(options);
    publish(regions);
  }

  /**
   * Opens a block file the table's manifest lists, checking it against the manifest's seal; null
   * when salvage set the file aside (damaged).
   */
  @FunctionalInterface
  public interface ListedFileOpener {
    BlockFileReader open(Path manifest, Path file, FileSeal seal);
  }

  /**
   * Opens a durable table's regions from its manifest, deleting the files of {@code dir} no
   * manifest lists (an unfinished write). Files {@code opener} sets aside are left out, and the
   * manifest is rewritten without them so the next open does not miss them. Single-threaded, at
   * open.
   */
  public static RegionMap load(Path dir, TableManifest manifest, ListedFileOpener opener) {
    Map<String, StoreFile> open = new HashMap<>();
    Set<String> listed = new HashSet<>();
    manifest.regions().forEach(r -> listed.addAll(r.files()));
    long maxFileId = 0;
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path p : entries.toList()) {
        String fileName = p.getFileName().toString();
        if (fileName.equals(TableManifest.FILE_NAME)) {
          continue;
        }
        if (!listed.contains(fileName)) {
          LOG.info("Removing {}: not listed in the table's manifest (an unfinished write)", p);
          Files.deleteIfExists(p);
          continue;
        }
        maxFileId = Math.max(maxFileId, fileId(fileName));
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot list " + dir + ": " + AtomicFiles.describe(e), e);
    }
    Region[] regions = new Region[manifest.regions().size()];
    Set<String> setAside = new HashSet<>(); // by salvage: damaged, now under DIR/salvaged/
    try {
      for (int i = 0; i < regions.length; i++) {
        TableManifest.RegionEntry e = manifest.regions().get(i);
        List<StoreFile> files = new ArrayList<>();
        for (String f : e.files()) {
          if (setAside.contains(f)) {
            continue;
          }
          StoreFile sf = open.get(f);
          if (sf == null) {
            // exists, checksums of header, trailer and index, the file id its name says, and the
            // seal the manifest recorded
            BlockFileReader reader =
                opener.open(
                    dir.resolve(TableManifest.FILE_NAME), dir.resolve(f), manifest.seals().get(f));
            if (reader == null) {
              setAside.add(f);
              continue;
            }
            sf = new StoreFile(reader);
            open.put(f, sf);
          } else {
            sf.retain(); // shared by the daughters of a split
          }
          files.add(sf);
        }
        regions[i] =
            new Region(
                e.regionId(), manifest.name(), e.range(), files, List.of(), e.flushedSequenceId());
      }
    } catch (RuntimeException e) {
      open.values().forEach(StoreFile::closeKeepingFile);
      throw e;
    }
    RegionMap map =
        RegionMap.of(
            manifest.tableId(),
            manifest.name(),
            TableFiles.inDirectory(dir),
            manifest.options(),
            regions,
            manifest.idLimit(),
            Math.max(manifest.nextFileId(), maxFileId + 1),
            manifest.nextRegionId());
    if (!setAside.isEmpty()) {
      synchronized (map.lock) {
        map.writeManifest(); // without the files set aside, so the next open does not miss them
      }
    }
    return map;
  }

  /** The file id a block file's name says; 0 when it says none. */
  public static long fileId(String fileName) {
    try {
      return Long.parseLong(fileName.substring(0, fileName.indexOf('.')));
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /** Guards the manifest, the counters and the options; publishers of a change hold it. */
  public Object lock() {
    return lock;
  }

  public long tableId() {
    return tableId;
  }

  public String name() {
    return name;
  }

  /** Where the table keeps its files (nowhere in the in-memory mode). */
  public TableFiles files() {
    return tableFiles;
  }

  /** The regions now, in key order (the array is never changed: a change publishes a new one). */
  public Region[] regions() {
    return regions;
  }

  /** Makes {@code next} the table's regions; caller holds {@link #lock()}, manifest written. */
  public void publish(Region[] next) {
    for (Region r : next) {
      r.setIndexSpace(indexSpace);
    }
    regions = next;
  }

  /** Whether keys starting with {@code 0x80} are local index entries (see {@link Region#owns}). */
  public boolean indexSpace() {
    return indexSpace;
  }

  /**
   * Marks the table as holding local index entries, durably (its manifest) before any is written.
   */
  public void enableIndexSpace() {
    synchronized (lock) {
      if (indexSpace) {
        return;
      }
      Map<String, String> merged = new TreeMap<>(options);
      merged.put(INDEX_SPACE_OPTION, "TRUE");
      Map<String, String> previous = options;
      setOptions(merged);
      try {
        writeManifest();
      } catch (RuntimeException e) {
        setOptions(previous);
        throw e;
      }
      publish(regions);
    }
  }

  /** See {@link #liveIndexes}: null while unknown. */
  public java.util.function.IntPredicate liveIndexes() {
    return liveIndexes;
  }

  public void setLiveIndexes(java.util.function.IntPredicate live) {
    liveIndexes = live;
  }

  public Map<String, String> options() {
    return options;
  }

  public Durability defaultDurability() {
    return defaultDurability;
  }

  /** The TTL option in milliseconds; 0 when rows never expire. */
  public long ttlMillis() {
    return ttlMillis;
  }

  /** The table's GUIDE_POSTS_WIDTH, read at each collection (ALTER TABLE applies to the next). */
  public long guidePostWidth() {
    return fileOptions.guidePostWidth();
  }

  public boolean isDropped() {
    return dropped;
  }

  /** From now on no manifest is written; flushes, compactions and splits stop. */
  public void markDropped() {
    dropped = true;
  }

  private void setOptions(Map<String, String> options) {
    this.options = Collections.unmodifiableMap(new TreeMap<>(options));
    this.indexSpace = "TRUE".equals(options.get(INDEX_SPACE_OPTION));
    this.defaultDurability =
        Durability.valueOf(options.getOrDefault("DURABILITY", "SYNC").toUpperCase(Locale.ROOT));
    this.fileOptions = BlockFileOptions.fromTableOptions(options);
    String ttl = options.get("TTL");
    long seconds = ttl == null ? 0 : Long.parseLong(ttl);
    this.ttlMillis = seconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : seconds * 1000;
  }

  /** Merges validated option changes into the options and writes the manifest (ALTER TABLE). */
  public void alter(Map<String, String> validated) {
    synchronized (lock) {
      Map<String, String> merged = new TreeMap<>(options);
      merged.putAll(validated);
      setOptions(merged);
      writeManifest();
    }
  }

  /** Writes the manifest of the regions now. Caller holds {@link #lock()}. */
  public void writeManifest() {
    writeManifest(regions, null, null, 0);
  }

  /**
   * Writes the manifest of {@code rs}, with {@code changed}'s files and flushed sequence id
   * replaced by {@code files} and {@code flushed} (a change about to be published: the manifest is
   * durable before any reader or log trim sees the change). Caller holds {@link #lock()}.
   */
  public void writeManifest(Region[] rs, Region changed, List<StoreFile> files, long flushed) {
    if (dropped) {
      return;
    }
    tableFiles.writeManifest(() -> manifest(rs, changed, files, flushed));
  }

  private TableManifest manifest(Region[] rs, Region changed, List<StoreFile> files, long flushed) {
    List<TableManifest.RegionEntry> entries = new ArrayList<>();
    Map<String, FileSeal> seals = new HashMap<>();
    for (Region r : rs) {
      boolean isChanged = r == changed;
      List<StoreFile> list = isChanged ? files : r.peekState().files();
      list.forEach(f -> seals.put(f.fileName(), f.seal()));
      entries.add(
          new TableManifest.RegionEntry(
              r.regionId(),
              r.range(),
              isChanged ? Math.max(flushed, r.flushedSequenceId()) : r.flushedSequenceId(),
              list.stream().map(StoreFile::fileName).toList()));
    }
    return new TableManifest(
        tableId, name, options, idLimit, nextFileId, nextRegionId, entries, seals);
  }

  /**
   * Deletes the manifest (DROP TABLE): from then on the table is gone, whatever its files; nothing
   * in memory.
   */
  public void deleteManifest() {
    synchronized (lock) {
      tableFiles.deleteManifest(name);
    }
  }

  /**
   * Hands out {@code count} ids (count > 0); the manifest records a limit past them first (in
   * memory the limit only moves: no manifest is written).
   */
  public long allocateIds(long count) {
    synchronized (lock) {
      long first = nextId;
      long end = first + count;
      if (end > idLimit) {
        long previous = idLimit;
        idLimit = end + Math.max(ID_BLOCK, count);
        try {
          writeManifest(); // ids handed out before a crash are never handed out again
        } catch (RuntimeException e) {
          idLimit = previous;
          throw e;
        }
      }
      nextId = end;
      return first;
    }
  }

  /** A new block file of the table (durable mode only: in memory there are no files). */
  public NewFile newFile() {
    long fileId;
    BlockFileOptions opts;
    synchronized (lock) {
      fileId = nextFileId++;
      opts = fileOptions;
    }
    return new NewFile(fileId, tableFiles.blockFile(fileId), opts);
  }

  /** The next region id; caller holds {@link #lock()}. */
  public long takeRegionId() {
    return nextRegionId++;
  }

  /** Gives back the last {@code n} region ids taken (a change that failed); caller holds lock. */
  public void returnRegionIds(int n) {
    nextRegionId -= n;
  }

  /** Adds the batch's mutations to {@code byRegion}: see {@link WriteRouter#groupByRegion}. */
  public static void groupByRegion(
      Region[] rs, List<Mutation> batch, Map<Region, List<Mutation>> byRegion) {
    WriteRouter.groupByRegion(rs, batch, byRegion);
  }

  /** Index of the region holding {@code key}: the last whose start is at or below it. */
  public static int regionIndex(Region[] rs, Bytes key) {
    int lo = 0;
    int hi = rs.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (rs[mid].range().start().compareTo(key) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Runs {@code job} once on each region, and on each region published while it runs (the daughters
   * of a split meanwhile), until a pass over the regions finds none not done.
   */
  public void forEachRegionOnce(Consumer<Region> job) {
    Set<Region> done = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean progress = true;
    while (progress) {
      progress = false;
      for (Region r : regions) {
        if (done.add(r)) {
          job.accept(r);
          progress = true;
        }
      }
    }
  }

  /** Closes every file of the regions, keeping them on disk (store close). */
  public void closeFiles() {
    Set<StoreFile> all = new HashSet<>();
    for (Region r : regions) {
      all.addAll(r.peekState().files());
    }
    all.forEach(StoreFile::closeKeepingFile);
  }
}
