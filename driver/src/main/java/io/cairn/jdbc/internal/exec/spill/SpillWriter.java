package io.cairn.jdbc.internal.exec.spill;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.wire.WireValues;
import io.cairn.relocated.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes rows to a spill file: the magic {@value #MAGIC} and the format version, then per row its
 * width (varint) and its values in Cairn's tagged value encoding ({@link WireValues}), which decode
 * to exactly the classes they were written from. Buffered; {@link #finish} seals the file and hands
 * over a {@link SpillRun} to read it back. The file is deleted by {@link #close} unless finished
 * (then the run owns it).
 */
public final class SpillWriter implements AutoCloseable {
  /** "CSPL": the first four bytes of every spill file. */
  static final int MAGIC = 0x4353504C;

  /** The format version (the files never outlive their process, but say what they are). */
  static final int VERSION = 1;

  static final int BUFFER_BYTES = 32 << 10;

  private final Path file;
  private final OutputStream stream;
  private final CodedOutputStream out;
  private long rows;
  private boolean finished;

  public SpillWriter(Path file) {
    this.file = file;
    try {
      this.stream = Files.newOutputStream(file);
      this.out = CodedOutputStream.newInstance(stream, BUFFER_BYTES);
      out.writeFixed32NoTag(MAGIC);
      out.writeUInt32NoTag(VERSION);
    } catch (IOException e) {
      throw failed(file, e);
    }
  }

  static CairnException failed(Path file, IOException e) {
    return new CairnException(
        ErrorCode.IO_ERROR, "Spill file [" + file + "] failed: " + e.getMessage(), e);
  }

  public void write(Object[] row) {
    try {
      out.writeUInt32NoTag(row.length);
      for (Object value : row) {
        WireValues.write(out, value);
      }
      rows++;
    } catch (IOException e) {
      throw failed(file, e);
    }
  }

  public long rows() {
    return rows;
  }

  /** The bytes written so far. */
  public long bytes() {
    return out.getTotalBytesWritten();
  }

  /** Flushes and closes the file; its rows can now be read from the run. */
  public SpillRun finish() {
    try {
      out.flush();
      stream.close();
    } catch (IOException e) {
      throw failed(file, e);
    }
    finished = true;
    return new SpillRun(file, rows, out.getTotalBytesWritten());
  }

  @Override
  public void close() {
    if (finished) {
      return;
    }
    finished = true;
    try {
      stream.close();
    } catch (IOException e) {
      // deleted below
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw failed(file, e);
    }
  }
}
