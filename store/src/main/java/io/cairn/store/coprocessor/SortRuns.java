package io.cairn.store.coprocessor;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.ScanProgram;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.UUID;

/**
 * The sorted runs a sort in the store wrote to disk when its rows passed its memory ({@link
 * ProgramSort}), and their merge. A run is a {@link SortBuffer}'s rows in sorted order, each as its
 * three lengths (sort key, row key, value) and bytes, in a file of the spill directory; the merge
 * reads every run through a small buffer and hands out the row of least sort key, of the earliest
 * run on equal keys (runs are written in the order the rows were read, so the merge is as stable as
 * the in-memory sort). The files are deleted when the sort closes them, whatever happened.
 *
 * <p>Used by one scan's thread.
 */
final class SortRuns implements AutoCloseable {
  /** Bytes each run's reader and the writer buffer. */
  private static final int BUFFER = 64 << 10;

  private final Path directory;
  private final String name = "sort-" + UUID.randomUUID();
  private final List<Path> files = new ArrayList<>();
  private final List<Run> open = new ArrayList<>();
  private PriorityQueue<Run> merge;
  private long bytes;

  SortRuns(Path directory) {
    this.directory = directory;
  }

  /** How many runs were written. */
  int count() {
    return files.size();
  }

  /** Bytes written to the runs so far. */
  long bytes() {
    return bytes;
  }

  /**
   * Writes the first {@code count} rows of {@code sorted} (sorted) as a new run.
   *
   * @throws CairnException IO_ERROR naming the file when it cannot be written
   */
  void write(SortBuffer sorted, int count) {
    Path file = directory.resolve(name + "-" + files.size() + ".run");
    try {
      if (files.isEmpty()) {
        Files.createDirectories(directory);
      }
      files.add(file);
      try (DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), BUFFER))) {
        for (int i = 0; i < count; i++) {
          byte[] page = sorted.page(i);
          int keyLength = sorted.keyLength(i);
          int sortKeyLength = sorted.sortKeyLength(i);
          int valueLength = sorted.valueLength(i);
          out.writeInt(sortKeyLength);
          out.writeInt(keyLength);
          out.writeInt(valueLength);
          // sort key, row key and value lie one after the other in the page
          out.write(
              page, sorted.keyOffset(i) - sortKeyLength, sortKeyLength + keyLength + valueLength);
          bytes += 12L + sortKeyLength + keyLength + valueLength;
        }
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "A sort in the store could not write its run " + file + " (" + e.getMessage() + ")",
          e);
    }
  }

  /** Rows of the merge to pass over, and to hand out after them (NO_LIMIT: all). */
  private long skip;

  private long left;

  /** Ends the writing: {@link #nextRow} hands out the merge's rows [offset, offset + limit). */
  void window(long offset, long limit) {
    skip = offset;
    left = limit == ScanProgram.NO_LIMIT ? Long.MAX_VALUE : limit;
  }

  /** The next row of the {@link #window}, projected by {@code rows}; null after the last. */
  Object[] nextRow(ProgramRows rows) {
    for (; skip > 0; skip--) {
      if (!next()) {
        return null;
      }
    }
    if (left <= 0 || !next()) {
      return null;
    }
    left--;
    Run r = current;
    return rows.projectCopy(
        r.row, r.sortKeyLength, r.keyLength, r.view, r.sortKeyLength + r.keyLength, r.valueLength);
  }

  /**
   * Moves to the next row of the merge of all runs (the first call opens them); false at the end.
   */
  private boolean next() {
    if (merge == null) {
      merge = new PriorityQueue<>(Math.max(1, files.size()), SortRuns::compare);
      for (int r = 0; r < files.size(); r++) {
        Run run = new Run(files.get(r), r);
        open.add(run);
        if (run.advance()) {
          merge.add(run);
        }
      }
    } else if (current != null && current.advance()) {
      merge.add(current);
    }
    current = merge.poll();
    return current != null;
  }

  private Run current;

  private static int compare(Run a, Run b) {
    int c = Arrays.compareUnsigned(a.row, 0, a.sortKeyLength, b.row, 0, b.sortKeyLength);
    return c != 0 ? c : Integer.compare(a.index, b.index);
  }

  /** Closes the runs' readers and deletes their files (idempotent). */
  @Override
  public void close() {
    for (Run run : open) {
      run.close();
    }
    open.clear();
    merge = null;
    current = null;
    for (Path file : files) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // the next store start leaves it too; nothing reads it
      }
    }
    files.clear();
  }

  /** One run being read: its current row (sort key, row key and value, one after the other). */
  private static final class Run {
    private final Path file;
    private final int index;
    private DataInputStream in;
    byte[] row = new byte[256];
    ByteBuffer view = ByteBuffer.wrap(row);
    int sortKeyLength;
    int keyLength;
    int valueLength;

    Run(Path file, int index) {
      this.file = file;
      this.index = index;
    }

    /** Reads the next row; false at the run's end. */
    boolean advance() {
      try {
        if (in == null) {
          in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER));
        }
        try {
          sortKeyLength = in.readInt();
        } catch (EOFException end) {
          close();
          Files.deleteIfExists(file); // read to its end: its disk space goes now
          return false;
        }
        keyLength = in.readInt();
        valueLength = in.readInt();
        int length = sortKeyLength + keyLength + valueLength;
        if (row.length < length) {
          row = new byte[Math.max(length, 2 * row.length)];
          view = ByteBuffer.wrap(row);
        }
        in.readFully(row, 0, length);
        return true;
      } catch (IOException e) {
        throw new CairnException(
            ErrorCode.IO_ERROR,
            "A sort in the store could not read its run " + file + " (" + e.getMessage() + ")",
            e);
      }
    }

    void close() {
      if (in != null) {
        try {
          in.close();
        } catch (IOException e) {
          // read to its end or abandoned: nothing to keep
        }
        in = null;
      }
    }
  }
}
