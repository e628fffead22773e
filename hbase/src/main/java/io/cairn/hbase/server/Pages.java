package io.cairn.hbase.server;

import io.cairn.protocol.wire.RowPageReader;
import io.cairn.relocated.protobuf.ByteString;
import io.cairn.relocated.protobuf.UnsafeByteOperations;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A page of a program's result rows as one HBase cell: family {@code c}, qualifier {@link
 * #QUALIFIER}, value = column count (int), row count (int), then the rows as the wire protocol's
 * row pages encode them ({@code RowPageWriter}).
 */
public final class Pages {
  public static final byte[] FAMILY = Bytes.toBytes("c");
  public static final byte[] QUALIFIER = Bytes.toBytes("page");

  private Pages() {}

  static Cell cell(byte[] row, int columns, int rows, ByteString encoded) {
    byte[] value = new byte[2 * Integer.BYTES + encoded.size()];
    Bytes.putInt(value, 0, columns);
    Bytes.putInt(value, Integer.BYTES, rows);
    encoded.copyTo(value, 2 * Integer.BYTES);
    return new KeyValue(row, FAMILY, QUALIFIER, value);
  }

  /** The answer of a count scan ({@link WireNames#COUNT_ATTRIBUTE}): {@link RegionCount}. */
  static Cell counted(byte[] row, RegionCount count) {
    return new KeyValue(row, FAMILY, WireNames.COUNT_QUALIFIER, count.encode());
  }

  /** The rows of a page cell's value. */
  public static Object[][] rows(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    int columns = b.getInt();
    int rows = b.getInt();
    return RowPageReader.read(
        UnsafeByteOperations.unsafeWrap(value, 2 * Integer.BYTES, value.length - 2 * Integer.BYTES),
        rows,
        columns); // no copy: the page's array is not written again
  }
}
