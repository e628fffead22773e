package io.cairn.hbase.server;

import io.cairn.store.cell.RowCursor;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;

/**
 * A cursor over HBase cells, each Cairn's one cell of a row: {@link #point} makes a cell the
 * current row without copying its value (an array-backed cell's key neither); the row is valid
 * until the next {@link #next()}, as HBase keeps a cell's memory until the call that returned it
 * ends. Rows come in key order and never as blocks.
 */
public abstract class CellRows implements RowCursor {
  private byte[] key;
  private int keyOffset;
  private int keyLength;
  private byte[] valueArray;
  private ByteBuffer value;
  private int valueOffset;
  private int valueLength;

  /** Makes {@code cell} the current row. */
  protected final void point(Cell cell) {
    if (cell instanceof ByteBufferExtendedCell off) { // off the heap (a region server's cache)
      key = CellUtil.cloneRow(cell);
      keyOffset = 0;
      keyLength = key.length;
      value = off.getValueByteBuffer();
      valueOffset = off.getValuePosition();
      valueArray = null;
    } else {
      key = cell.getRowArray();
      keyOffset = cell.getRowOffset();
      keyLength = cell.getRowLength();
      if (cell.getValueArray() != valueArray) { // cells of one block share it: one wrapper
        valueArray = cell.getValueArray();
        value = ByteBuffer.wrap(valueArray);
      }
      valueOffset = cell.getValueOffset();
    }
    valueLength = cell.getValueLength();
  }

  @Override
  public final byte[] keyArray() {
    return key;
  }

  @Override
  public final int keyOffset() {
    return keyOffset;
  }

  @Override
  public final int keyLength() {
    return keyLength;
  }

  @Override
  public final ByteBuffer valueBuffer() {
    return value;
  }

  @Override
  public final int valueOffset() {
    return valueOffset;
  }

  @Override
  public final int valueLength() {
    return valueLength;
  }

  @Override
  public final boolean inKeyOrder() {
    return true;
  }

  @Override
  public final boolean mayOfferBlocks() {
    return false;
  }
}
