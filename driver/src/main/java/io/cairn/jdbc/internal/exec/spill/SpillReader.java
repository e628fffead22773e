package io.cairn.jdbc.internal.exec.spill;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.wire.WireValues;
import io.cairn.relocated.protobuf.CodedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads back the rows of a {@link SpillRun}, in the order they were written. */
public final class SpillReader implements AutoCloseable {
  private final Path file;
  private final InputStream stream;
  private final CodedInputStream in;
  private long remaining;

  SpillReader(Path file, long rows) {
    this.file = file;
    this.remaining = rows;
    try {
      this.stream = Files.newInputStream(file);
      this.in = CodedInputStream.newInstance(stream, SpillWriter.BUFFER_BYTES);
      int magic = in.readFixed32();
      int version = in.readUInt32();
      if (magic != SpillWriter.MAGIC || version != SpillWriter.VERSION) {
        stream.close();
        throw new CairnException(
            ErrorCode.IO_ERROR,
            "Spill file ["
                + file
                + "]: expected magic ["
                + Integer.toHexString(SpillWriter.MAGIC)
                + "] version ["
                + SpillWriter.VERSION
                + "], found ["
                + Integer.toHexString(magic)
                + "] version ["
                + version
                + "]");
      }
    } catch (IOException e) {
      throw SpillWriter.failed(file, e);
    }
  }

  /** The next row, or null after the last. */
  public Object[] next() {
    if (remaining <= 0) {
      return null;
    }
    try {
      in.resetSizeCounter();
      Object[] row = new Object[in.readUInt32()];
      for (int i = 0; i < row.length; i++) {
        row[i] = WireValues.read(in);
      }
      remaining--;
      return row;
    } catch (IOException e) {
      throw SpillWriter.failed(file, e);
    }
  }

  @Override
  public void close() {
    remaining = 0;
    try {
      stream.close();
    } catch (IOException e) {
      throw SpillWriter.failed(file, e);
    }
  }
}
