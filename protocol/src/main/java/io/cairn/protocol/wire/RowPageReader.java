package io.cairn.protocol.wire;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import java.io.IOException;

/** Reads the rows of a page written by {@link RowPageWriter}. */
public final class RowPageReader {
  private RowPageReader() {}

  /**
   * The {@code rowCount} rows of {@code columnCount} values in {@code rows}.
   *
   * @throws io.cairn.core.error.CairnException PROTOCOL_ERROR when the bytes do not hold exactly
   *     that many values
   */
  public static Object[][] read(ByteString rows, int rowCount, int columnCount) {
    if (rowCount < 0 || columnCount < 0 || (rowCount > 0 && columnCount == 0 && !rows.isEmpty())) {
      throw WireValues.malformed(
          "a page of [" + rowCount + "] rows of [" + columnCount + "] columns");
    }
    if ((long) rowCount * columnCount > rows.size()) {
      throw WireValues.malformed(
          "a page of ["
              + rowCount
              + "] rows of ["
              + columnCount
              + "] columns in only ["
              + rows.size()
              + "] bytes");
    }
    Object[][] result = new Object[rowCount][];
    CodedInputStream in = rows.newCodedInput();
    try {
      for (int r = 0; r < rowCount; r++) {
        Object[] row = new Object[columnCount];
        for (int c = 0; c < columnCount; c++) {
          row[c] = WireValues.read(in);
        }
        result[r] = row;
      }
      if (!in.isAtEnd()) {
        throw WireValues.malformed("bytes after the last row of a page");
      }
    } catch (IOException e) {
      throw WireValues.malformed("a page cut short (" + e.getMessage() + ")");
    }
    return result;
  }
}
