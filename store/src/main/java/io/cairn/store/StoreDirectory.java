package io.cairn.store;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.io.FileTrees;
import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.CombinedBlockCache;
import io.cairn.store.file.BlockFileFormat;
import io.cairn.store.file.ReadContext;
import io.cairn.store.file.VectorCache;
import io.cairn.store.io.AtomicFiles;
import io.cairn.store.table.TableFiles;
import io.cairn.store.table.TableManifest;
import io.cairn.store.wal.WalConfig;
import io.cairn.store.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a store keeps its data, and the one owner of the names in it (like LevelDB's {@code DbLock}
 * and {@code Filename}): {@value #STORE_MANIFEST} (a {@link StoreManifest}), {@value #LOCK_FILE}
 * (held while the store is open), {@value #WAL_DIRECTORY}/ (the log's segments) and {@value
 * #TABLES_DIRECTORY}/{@code <table id>}/ (a table's {@value TableManifest#FILE_NAME} and its block
 * files, {@code <file id>}{@value #BLOCK_FILE_SUFFIX}). Format in docs/format-store.md.
 *
 * <p>Two implementations: on disk ({@link #lock}), and in memory ({@link #inMemory}), which has no
 * files: no manifest to write, no table directories, a read context without a cache, a time index
 * that is never written. The store asks its directory rather than checking which one it has.
 *
 * <p>The static queries ({@link #blockFileBytesByTable}) read a store's directory for tools (the
 * benchmarks), whether or not the store is open.
 *
 * <p>Locks: none of its own. The store calls {@link #writeManifest} and {@link #createTableFiles}
 * holding its monitor, or while it closes (alone); the rest at open.
 */
public abstract class StoreDirectory implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreDirectory.class);

  /** The store manifest's file name. */
  public static final String STORE_MANIFEST = "store.manifest";

  /** The lock file's name, held (an OS file lock) while a process has the store open. */
  public static final String LOCK_FILE = "LOCK";

  /** The directory of the write-ahead log's segments. */
  public static final String WAL_DIRECTORY = "wal";

  /** The directory holding a directory per table, named by table id. */
  public static final String TABLES_DIRECTORY = "tables";

  /** How the name of a table's block file ends ({@link BlockFileFormat#FILE_SUFFIX}). */
  public static final String BLOCK_FILE_SUFFIX = BlockFileFormat.FILE_SUFFIX;

  private StoreDirectory() {}

  /**
   * Bytes of block files in each table directory of the store in {@code storeDir}, by the
   * directory's name (the table id), read now (the store may be open; a file being replaced may be
   * counted or not).
   *
   * @throws IOException when a directory cannot be listed or a file's size read
   */
  public static Map<String, Long> blockFileBytesByTable(Path storeDir) throws IOException {
    Map<String, Long> bytes = new TreeMap<>();
    try (Stream<Path> tables = Files.list(storeDir.resolve(TABLES_DIRECTORY))) {
      for (Path tableDir : tables.toList()) {
        long sum = 0;
        try (Stream<Path> files = Files.list(tableDir)) {
          for (Path f : files.toList()) {
            if (f.getFileName().toString().endsWith(BLOCK_FILE_SUFFIX)) {
              sum += Files.size(f);
            }
          }
        }
        bytes.put(tableDir.getFileName().toString(), sum);
      }
    }
    return bytes;
  }

  /** A store's directory in memory: no files. */
  static StoreDirectory inMemory(String name) {
    return new InMemory(name);
  }

  /**
   * Locks the store's directory {@code dir} (creating it when missing) for this process.
   *
   * @throws CairnException NOT_A_STORE (a file, or a directory holding other things than a store),
   *     STORE_IN_USE (locked by this or another process), IO_ERROR
   */
  static StoreDirectory lock(Path dir) {
    return new OnDisk(dir, lockChannel(dir));
  }

  /** Whether the store keeps its data in files. */
  abstract boolean isDurable();

  /**
   * Reads the store manifest, creating the store's files first when it has none; in memory, a new
   * store's. Removes what an unfinished manifest replacement left.
   */
  abstract StoreManifest openOrCreateManifest();

  /**
   * Replaces the store manifest atomically (saying whether the log keeps its marker); nothing in
   * memory.
   */
  abstract void writeManifest(String storeId, long nextTableId, long lastSequenceId);

  /**
   * The directories of the tables to open, in name order; removes those whose create or drop did
   * not finish (no table manifest). None in memory.
   */
  abstract List<Path> tableDirectories();

  /**
   * Where a new table keeps its files: a new (empty) directory; in memory, no files ({@link
   * TableFiles#inMemory}).
   */
  abstract TableFiles createTableFiles(long tableId);

  /**
   * Opens the log (replaying is the caller's), which the directory closes ({@link #closeLog}); null
   * in memory, where nothing is logged (the in-memory store's commits go to {@link
   * Commits.Log#NONE}).
   */
  abstract WriteAheadLog openLog(StoreConfig config);

  /**
   * Deletes the log segments whose edits are all below {@code floor} (in files); false in memory,
   * which has no log.
   */
  abstract boolean trimLog(long floor);

  /**
   * Closes the log; then, when {@code deleteSegments} (every edit is in files the manifests list),
   * deletes its segments (a failure is logged: the next open replays them).
   */
  abstract void closeLog(boolean deleteSegments);

  /**
   * The buffer pool and block cache the store's files read through.
   *
   * @throws CairnException INVALID_ARGUMENT when the cache and the pool do not fit in the JVM's
   *     direct memory, naming both sizes
   */
  abstract ReadContext newReadContext(StoreConfig config);

  /** The checks at open (and salvage); null in memory, where nothing is read at open. */
  abstract StoreSalvage newSalvage(StoreConfig config);

  /** Reads the commit times back (up to {@code lastSequenceId}); empty in memory. */
  abstract TimeIndex openTimeIndex(long lastSequenceId);

  /** Writes the time index when it changed; a failure costs only TTL precision (logged). */
  abstract void persistTimeIndex(TimeIndex timeIndex);

  /** Registers the store's MXBeans; the returned metrics unregister them at close. */
  abstract StoreMetrics newMetrics(ReadContext readContext);

  /** Releases the lock (nothing in memory). */
  @Override
  public abstract void close();

  /** Deletes {@code path} and all below it; logs what it cannot delete. */
  static void deleteRecursively(Path path) {
    try {
      FileTrees.deleteRecursively(path);
    } catch (IOException e) {
      LOG.warn("Cannot delete {}", path, e);
    }
  }

  private static FileChannel lockChannel(Path dir) {
    requireNonNull(dir, "dir is null");
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new CairnException(
          ErrorCode.NOT_A_STORE,
          "Not a Cairn store: expected a directory, found a file at [" + dir + "]");
    }
    try {
      Files.createDirectories(dir);
      if (!Files.exists(dir.resolve(STORE_MANIFEST))) {
        try (Stream<Path> entries = Files.list(dir)) {
          List<String> others =
              entries
                  .map(p -> p.getFileName().toString())
                  .filter(n -> !n.equals(LOCK_FILE))
                  .sorted()
                  .limit(5)
                  .toList();
          if (!others.isEmpty()) {
            throw new CairnException(
                ErrorCode.NOT_A_STORE,
                "Not a Cairn store: ["
                    + dir
                    + "] has no "
                    + STORE_MANIFEST
                    + " and is not empty (found "
                    + others
                    + "); expected an empty directory or a Cairn store");
          }
        }
      }
      FileChannel ch =
          FileChannel.open(
              dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        ch.close();
        throw new CairnException(
            ErrorCode.STORE_IN_USE,
            "Store ["
                + dir
                + "] is already open (in this or another process, lock file "
                + dir.resolve(LOCK_FILE)
                + ")");
      }
      return ch;
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot open store [" + dir + "]: " + AtomicFiles.describe(e), e);
    }
  }

  /** The store's directory on disk, locked until {@link #close}. */
  private static final class OnDisk extends StoreDirectory {
    private final Path dir;
    private final FileChannel lockChannel;
    private WriteAheadLog log;

    OnDisk(Path dir, FileChannel lockChannel) {
      this.dir = dir;
      this.lockChannel = lockChannel;
    }

    @Override
    boolean isDurable() {
      return true;
    }

    @Override
    StoreManifest openOrCreateManifest() {
      Path path = dir.resolve(STORE_MANIFEST);
      StoreManifest manifest;
      if (!Files.exists(path)) {
        try {
          Files.createDirectories(dir.resolve(TABLES_DIRECTORY));
          Files.createDirectories(dir.resolve(WAL_DIRECTORY));
          // the log is checked against its marker from the start (before the manifest: a crash in
          // between leaves a directory without manifest, which is not opened as a store)
          WriteAheadLog.createMarker(dir.resolve(WAL_DIRECTORY));
        } catch (IOException e) {
          throw new CairnException(
              ErrorCode.IO_ERROR,
              "Cannot create store [" + dir + "]: " + AtomicFiles.describe(e),
              e);
        }
        manifest = new StoreManifest(UUID.randomUUID().toString(), 1, 0, true);
        manifest.write(path);
        LOG.info("Created store {}", dir);
      } else {
        manifest = StoreManifest.read(dir, path);
      }
      Path temporary = dir.resolve(STORE_MANIFEST + ".tmp");
      try {
        // a manifest replacement that did not finish (a crash, a full disk) leaves its temporary
        Files.deleteIfExists(temporary);
      } catch (IOException e) {
        LOG.warn("Cannot delete {}", temporary, e);
      }
      return manifest;
    }

    @Override
    void writeManifest(String storeId, long nextTableId, long lastSequenceId) {
      // once the log has its marker, a missing marker is damage
      boolean marker = log != null && log.hasMarker();
      new StoreManifest(storeId, nextTableId, lastSequenceId, marker)
          .write(dir.resolve(STORE_MANIFEST));
    }

    @Override
    List<Path> tableDirectories() {
      Path tablesDir = dir.resolve(TABLES_DIRECTORY);
      List<Path> out = new ArrayList<>();
      try (Stream<Path> entries = Files.list(tablesDir)) {
        for (Path tableDir : entries.sorted().toList()) {
          if (!Files.exists(tableDir.resolve(TableManifest.FILE_NAME))) {
            LOG.warn("Removing {}: a table whose create or drop did not finish", tableDir);
            deleteRecursively(tableDir);
            continue;
          }
          out.add(tableDir);
        }
      } catch (IOException e) {
        throw new CairnException(
            ErrorCode.IO_ERROR, "Cannot list " + tablesDir + ": " + AtomicFiles.describe(e), e);
      }
      return out;
    }

    @Override
    TableFiles createTableFiles(long tableId) {
      Path tableDir = dir.resolve(TABLES_DIRECTORY).resolve(Long.toString(tableId));
      try {
        Files.createDirectories(tableDir);
        AtomicFiles.forceDirectory(tableDir.getParent());
      } catch (IOException e) {
        throw new CairnException(
            ErrorCode.IO_ERROR, "Cannot create " + tableDir + ": " + AtomicFiles.describe(e), e);
      }
      return TableFiles.inDirectory(tableDir);
    }

    @Override
    WriteAheadLog openLog(StoreConfig config) {
      log =
          WriteAheadLog.open(
              dir.resolve(WAL_DIRECTORY),
              WalConfig.DEFAULT.withSegmentBytes(config.walSegmentBytes()));
      return log;
    }

    @Override
    boolean trimLog(long floor) {
      log.markFlushedBelow(floor);
      return true;
    }

    @Override
    void closeLog(boolean deleteSegments) {
      log.close();
      if (deleteSegments) {
        try {
          log.deleteAllSegments(); // and the marker says so
        } catch (RuntimeException e) {
          LOG.warn("Cannot delete the log segments of {}; the next open replays them", dir, e);
        }
      }
    }

    @Override
    ReadContext newReadContext(StoreConfig config) {
      CombinedBlockCache cache =
          new CombinedBlockCache(config.blockCache(), config.bufferPool().poolBytes());
      return new ReadContext(
          new BufferPool("reads of " + dir, config.bufferPool()),
          cache,
          new VectorCache(config.vectorCacheBytes()));
    }

    @Override
    StoreSalvage newSalvage(StoreConfig config) {
      return new StoreSalvage(dir, config.openSalvage());
    }

    @Override
    TimeIndex openTimeIndex(long lastSequenceId) {
      return TimeIndex.open(dir, lastSequenceId, System::currentTimeMillis);
    }

    @Override
    void persistTimeIndex(TimeIndex timeIndex) {
      try {
        timeIndex.persist(dir);
      } catch (RuntimeException e) {
        LOG.warn("Cannot write the time index of {}; rows with a TTL may expire later", dir, e);
      }
    }

    @Override
    StoreMetrics newMetrics(ReadContext readContext) {
      return new StoreMetrics(dir, readContext);
    }

    @Override
    public void close() {
      try {
        lockChannel.close();
      } catch (IOException e) {
        LOG.warn("Cannot release the lock of {}", dir, e);
      }
    }

    @Override
    public String toString() {
      return dir.toString();
    }
  }

  /** An in-memory store's: no files, nothing written. */
  private static final class InMemory extends StoreDirectory {
    private final String name;

    InMemory(String name) {
      this.name = name;
    }

    @Override
    boolean isDurable() {
      return false;
    }

    @Override
    StoreManifest openOrCreateManifest() {
      return new StoreManifest(UUID.randomUUID().toString(), 1, 0, false);
    }

    @Override
    void writeManifest(String storeId, long nextTableId, long lastSequenceId) {}

    @Override
    List<Path> tableDirectories() {
      return List.of();
    }

    @Override
    TableFiles createTableFiles(long tableId) {
      return TableFiles.inMemory();
    }

    @Override
    WriteAheadLog openLog(StoreConfig config) {
      return null;
    }

    @Override
    boolean trimLog(long floor) {
      return false;
    }

    @Override
    void closeLog(boolean deleteSegments) {}

    @Override
    ReadContext newReadContext(StoreConfig config) {
      return ReadContext.uncached();
    }

    @Override
    StoreSalvage newSalvage(StoreConfig config) {
      return null;
    }

    @Override
    TimeIndex openTimeIndex(long lastSequenceId) {
      return TimeIndex.empty();
    }

    @Override
    void persistTimeIndex(TimeIndex timeIndex) {}

    @Override
    StoreMetrics newMetrics(ReadContext readContext) {
      return null;
    }

    @Override
    public void close() {}

    @Override
    public String toString() {
      return name;
    }
  }
}
