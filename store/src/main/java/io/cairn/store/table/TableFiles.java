package io.cairn.store.table;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.io.FileTrees;
import io.cairn.store.file.BlockFileFormat;
import io.cairn.store.io.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a table keeps its files: its directory ({@link #inDirectory}: the manifest and the block
 * files), or nowhere ({@link #inMemory}: no manifest is written, no file is made, so nothing is
 * flushed, compacted or split). Chosen once, when the table is created or loaded; the table asks it
 * rather than checking which one it has.
 *
 * <p>Locks: none of its own; {@link RegionMap} calls the manifest's methods holding its lock.
 */
public interface TableFiles {
  /** The files of the table in {@code dir} (the durable mode). */
  static TableFiles inDirectory(Path dir) {
    return new InDirectory(dir);
  }

  /** No files (the in-memory mode). */
  static TableFiles inMemory() {
    return InMemory.INSTANCE;
  }

  /** Whether the table keeps files: false in memory, where flushes, compactions and splits stop. */
  boolean exist();

  /** Writes the manifest {@code manifest} makes (atomically replacing it); nothing in memory. */
  void writeManifest(Supplier<TableManifest> manifest);

  /**
   * Deletes the manifest of the table {@code tableName} (DROP TABLE): from then on the table is
   * gone, whatever its files. Nothing in memory.
   */
  void deleteManifest(String tableName);

  /** The path of the table's block file {@code fileId}; in memory there is none. */
  Path blockFile(long fileId);

  /** Deletes the table's directory and all in it (the end of DROP TABLE); nothing in memory. */
  void deleteAll();

  /** The files of a durable table: its directory. */
  final class InDirectory implements TableFiles {
    private static final Logger LOG = LoggerFactory.getLogger(TableFiles.class);

    private final Path dir;

    private InDirectory(Path dir) {
      this.dir = dir;
    }

    @Override
    public boolean exist() {
      return true;
    }

    @Override
    public void writeManifest(Supplier<TableManifest> manifest) {
      manifest.get().write(dir);
    }

    @Override
    public void deleteManifest(String tableName) {
      try {
        Files.deleteIfExists(dir.resolve(TableManifest.FILE_NAME));
        AtomicFiles.forceDirectory(dir); // gone for good before its files go
      } catch (IOException e) {
        throw new CairnException(
            ErrorCode.IO_ERROR,
            "Cannot drop table [" + tableName + "]: " + AtomicFiles.describe(e),
            e);
      }
    }

    @Override
    public Path blockFile(long fileId) {
      return dir.resolve(BlockFileFormat.fileName(fileId));
    }

    @Override
    public void deleteAll() {
      try {
        FileTrees.deleteRecursively(dir);
      } catch (IOException e) {
        LOG.warn("Cannot delete {}", dir, e);
      }
    }

    @Override
    public String toString() {
      return dir.toString();
    }
  }

  /** The files of an in-memory table: none. */
  final class InMemory implements TableFiles {
    private static final InMemory INSTANCE = new InMemory();

    private InMemory() {}

    @Override
    public boolean exist() {
      return false;
    }

    @Override
    public void writeManifest(Supplier<TableManifest> manifest) {}

    @Override
    public void deleteManifest(String tableName) {}

    @Override
    public Path blockFile(long fileId) {
      throw new IllegalStateException("An in-memory table has no block files");
    }

    @Override
    public void deleteAll() {}

    @Override
    public String toString() {
      return "in memory";
    }
  }
}
