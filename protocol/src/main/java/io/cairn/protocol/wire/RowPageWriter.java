package io.cairn.protocol.wire;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.cairn.core.error.CairnException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Collects result rows into one page: {@code rowCount} rows of {@code columnCount} tagged values
 * each, concatenated (the {@code rows} of a ScanPage or PutHashCache message). Reusable after
 * {@link #finish()}.
 */
public final class RowPageWriter {
  private final int columnCount;
  private ByteString.Output bytes;
  private CodedOutputStream out;
  private int rowCount;

  public RowPageWriter(int columnCount) {
    this.columnCount = columnCount;
    reset();
  }

  private void reset() {
    bytes = ByteString.newOutput(4096);
    out = CodedOutputStream.newInstance(bytes, 8192);
    rowCount = 0;
  }

  /** Appends a row of exactly {@code columnCount} values. */
  public void add(Object[] row) {
    if (row.length != columnCount) {
      throw CairnException.internal(
          "Row width: expected [" + columnCount + "] values, found [" + row.length + "]");
    }
    try {
      for (Object value : row) {
        WireValues.write(out, value);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rowCount++;
  }

  public int columnCount() {
    return columnCount;
  }

  public int rowCount() {
    return rowCount;
  }

  /** Bytes written so far. */
  public long sizeBytes() {
    return out.getTotalBytesWritten();
  }

  /** The page's bytes; the writer starts a new, empty page. */
  public ByteString finish() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ByteString page = bytes.toByteString();
    reset();
    return page;
  }
}
