package io.cairn.store.coprocessor;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.RowCursor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * A cursor over fixed (key, value) rows that, like a block decoder, hands out views of one scratch
 * array and one buffer that it overwrites on every row, at a different offset each time, with junk
 * around the row and a position and limit that readers must leave alone.
 */
final class TestingRowCursor implements RowCursor {
  private final List<Bytes[]> rows;
  private final byte[] keys;
  private final ByteBuffer values;
  private int current = -1;
  private int offset;
  private boolean closed;

  TestingRowCursor(List<Bytes[]> rows, boolean direct) {
    this.rows = rows;
    int maxKey = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
    int maxValue = rows.stream().mapToInt(r -> r[1].length()).max().orElse(0);
    keys = new byte[maxKey + 8];
    values = direct ? ByteBuffer.allocateDirect(maxValue + 8) : ByteBuffer.allocate(maxValue + 8);
  }

  @Override
  public boolean next() {
    if (closed) {
      throw new IllegalStateException("closed");
    }
    if (++current >= rows.size()) {
      return false;
    }
    Arrays.fill(keys, (byte) 0xA5);
    for (int i = 0; i < values.capacity(); i++) {
      values.put(i, (byte) 0x5A);
    }
    offset = 1 + current % 3;
    Bytes key = rows.get(current)[0];
    Bytes value = rows.get(current)[1];
    System.arraycopy(key.peekArray(), 0, keys, offset, key.length());
    values.put(offset, value.peekArray());
    values.limit(values.capacity()).position(values.capacity() - 1);
    return true;
  }

  @Override
  public byte[] keyArray() {
    return keys;
  }

  @Override
  public int keyOffset() {
    return offset;
  }

  @Override
  public int keyLength() {
    return rows.get(current)[0].length();
  }

  @Override
  public ByteBuffer valueBuffer() {
    return values;
  }

  @Override
  public int valueOffset() {
    return offset;
  }

  @Override
  public int valueLength() {
    return rows.get(current)[1].length();
  }

  boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
  }
}
