package io.cairn.store.region;

import static java.util.Objects.requireNonNull;

import io.cairn.store.file.BlockFileReader;
import io.cairn.store.file.FileInfo;
import io.cairn.store.file.FileSeal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An open block file of a table, shared by the regions that list it (a split leaves both daughters
 * reading their parent's files) and by the scans reading it. Reference counted: every region that
 * lists it holds one reference, every open scan one more. When the last reference goes the file is
 * closed and deleted: by then no region's manifest lists it (regions release a file only after the
 * manifest without it is durable). Closing the store closes files without deleting them ({@link
 * #closeKeepingFile}).
 */
public final class StoreFile {
  private final BlockFileReader reader;
  private final AtomicInteger references = new AtomicInteger(1);
  private volatile boolean storeClosed;
  private final java.util.concurrent.atomic.AtomicBoolean readerClosed =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** Wraps an open reader; the caller holds the first reference. */
  public StoreFile(BlockFileReader reader) {
    this.reader = requireNonNull(reader, "reader is null");
  }

  public BlockFileReader reader() {
    return reader;
  }

  public FileInfo info() {
    return reader.info();
  }

  /** The file's length and trailer checksum, which the table manifest records. */
  public FileSeal seal() {
    return reader.seal();
  }

  public String fileName() {
    return reader.path().getFileName().toString();
  }

  public long sizeBytes() {
    return reader.info().fileBytes();
  }

  /** Takes a reference unless the file is already released; true when taken. */
  public boolean tryRetain() {
    while (true) {
      int n = references.get();
      if (n <= 0) {
        return false;
      }
      if (references.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** Takes one more reference; the caller must already hold one. */
  public void retain() {
    if (!tryRetain()) {
      throw new IllegalStateException("File " + reader.path() + " is already released");
    }
  }

  /** Drops a reference; the last one closes and deletes the file. */
  public void release() {
    int n = references.decrementAndGet();
    if (n < 0) {
      throw new IllegalStateException("File " + reader.path() + " released more than retained");
    }
    if (n == 0) {
      closeReader();
      if (storeClosed) {
        return; // the next open deletes the file if no manifest lists it
      }
      try {
        Files.deleteIfExists(reader.path());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot delete obsolete file " + reader.path(), e);
      }
    }
  }

  /**
   * Closes the reader at store shutdown; the file stays. Scans still holding references fail when
   * they read on, and their releases only count down.
   */
  public void closeKeepingFile() {
    storeClosed = true;
    closeReader();
  }

  private void closeReader() {
    if (readerClosed.compareAndSet(false, true)) {
      reader.close();
    }
  }

  @Override
  public String toString() {
    return fileName();
  }
}
