package io.cairn.jdbc.internal.exec.spill;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.io.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The spill files of one query: a directory of its own, {@code <root>/<pid>-<n>}, created when the
 * first operator spills, and deleted with everything in it by {@link #close} (when the query ends,
 * fails or is cancelled, or when a dropped execution is cleaned), or at JVM exit for spaces still
 * open then. The root is the system property {@value #DIRECTORY_PROPERTY}, by default {@code
 * java.io.tmpdir/cairn-spill}; directories there of processes no longer alive (a JVM killed before
 * its exit hooks ran) are deleted when this JVM first spills. It also collects the notes of its
 * operators' spills ("hash join spilled 16 partitions to disk, 123 MB"), which the result set
 * reports as SQL warnings. Thread-safe: closing may come from a cleaner or a shutdown hook.
 */
public final class SpillSpace implements AutoCloseable {
  /** The system property of the spill root. */
  public static final String DIRECTORY_PROPERTY = "cairn.driver.spillDirectory";

  private static final AtomicLong SPACES = new AtomicLong();
  private static final Set<SpillSpace> OPEN = ConcurrentHashMap.newKeySet();
  private static volatile boolean rootPrepared;

  private final Path root;
  private final List<String> notes = new ArrayList<>();
  private final List<Revocable> revocables = new ArrayList<>();
  private Path directory;
  private long files;
  private boolean closed;

  private SpillSpace(Path root) {
    this.root = root;
  }

  /** A space under the configured root; nothing is created before the first file. */
  public static SpillSpace create() {
    return new SpillSpace(root());
  }

  /** A space under {@code root} (tests). */
  public static SpillSpace under(Path root) {
    return new SpillSpace(root);
  }

  /** The configured spill root. */
  public static Path root() {
    String configured = System.getProperty(DIRECTORY_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return Paths.get(configured).toAbsolutePath();
    }
    return Paths.get(System.getProperty("java.io.tmpdir"), "cairn-spill").toAbsolutePath();
  }

  /** The directory of this space, or null while nothing spilled. */
  public synchronized Path directory() {
    return directory;
  }

  /**
   * A new, empty file in this space, named after {@code what}.
   *
   * @throws CairnException IO_ERROR naming the directory when it cannot be created
   */
  public synchronized Path newFile(String what) {
    if (closed) {
      throw new CairnException(ErrorCode.QUERY_CANCELED, "The query's spill space is closed");
    }
    try {
      if (directory == null) {
        Files.createDirectories(root);
        if (!rootPrepared) {
          rootPrepared = true;
          deleteAbandoned(root);
          Runtime.getRuntime().addShutdownHook(new Thread(SpillSpace::closeAllOpen, "cairn-spill"));
        }
        Path dir = root.resolve(ProcessHandle.current().pid() + "-" + SPACES.incrementAndGet());
        Files.createDirectory(dir);
        directory = dir;
        OPEN.add(this);
      }
      return Files.createFile(directory.resolve(what + "-" + ++files + ".spill"));
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot create a spill file in ["
              + (directory == null ? root : directory)
              + "]: "
              + e
              + "; set the system property ["
              + DIRECTORY_PROPERTY
              + "] to a writable directory",
          e);
    }
  }

  /**
   * An operator that can give its memory back on request by spilling what it holds (a sort
   * buffering its input): another operator of the query whose reservation failed asks it first.
   */
  public interface Revocable {
    /** Spills what it holds and gives its memory back; returns the bytes given back (0: none). */
    long revoke();
  }

  /** Registers {@code revocable} until {@link #unregister}. */
  public synchronized void register(Revocable revocable) {
    revocables.add(revocable);
  }

  public synchronized void unregister(Revocable revocable) {
    revocables.remove(revocable);
  }

  /**
   * Asks every registered operator but {@code asking} to give its memory back.
   *
   * @return the bytes given back
   */
  public long revokeOthers(Object asking) {
    List<Revocable> others;
    synchronized (this) {
      others = new ArrayList<>(revocables);
    }
    long bytes = 0;
    for (Revocable r : others) {
      if (r != asking) {
        bytes += r.revoke();
      }
    }
    return bytes;
  }

  /** Records that an operator spilled, for the result's warnings. */
  public synchronized void note(String note) {
    notes.add(note);
  }

  /** The notes so far. */
  public synchronized List<String> notes() {
    return List.copyOf(notes);
  }

  /** Deletes the space's directory and every file in it; idempotent. */
  @Override
  public synchronized void close() {
    closed = true;
    Path dir = directory;
    if (dir == null) {
      return;
    }
    directory = null;
    OPEN.remove(this);
    try {
      FileTrees.deleteRecursively(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete the spill directory [" + dir + "]", e);
    }
  }

  private static void closeAllOpen() {
    for (SpillSpace space : List.copyOf(OPEN)) {
      try {
        space.close();
      } catch (RuntimeException e) {
        // at exit: the next JVM that spills deletes what is left
      }
    }
  }

  /** Deletes the directories of processes that are gone. */
  private static void deleteAbandoned(Path root) {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
      for (Path dir : dirs) {
        String name = dir.getFileName().toString();
        int dash = name.indexOf('-');
        if (dash <= 0) {
          continue;
        }
        long pid;
        try {
          pid = Long.parseLong(name.substring(0, dash));
        } catch (NumberFormatException e) {
          continue;
        }
        if (pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty()) {
          FileTrees.deleteRecursively(dir);
        }
      }
    } catch (IOException e) {
      // best effort: another process may be deleting the same directories
    }
  }
}
