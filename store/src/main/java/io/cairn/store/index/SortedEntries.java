package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Index entries built from a snapshot, sorted by key, as puts at one sequence id: a cell cursor the
 * table's file writer reads like a memstore's. Keys are distinct (an entry key ends with its row
 * key).
 */
final class SortedEntries implements CellCursor {
  private final byte[][] keys;
  private final byte[][] values;
  private final int count;
  private final long sequenceId;
  private int at = -1;

  /** A built entry: key and value arrays. */
  record Built(byte[] key, byte[] value) {}

  /** Sorts the first {@code count} of {@code entries} in place. */
  SortedEntries(Built[] entries, int count, long sequenceId) {
    Arrays.sort(entries, 0, count, (a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
    byte[][] k = new byte[count][];
    byte[][] v = new byte[count][];
    for (int i = 0; i < count; i++) {
      k[i] = entries[i].key();
      v[i] = entries[i].value();
    }
    this.keys = k;
    this.values = v;
    this.count = count;
    this.sequenceId = sequenceId;
  }

  @Override
  public boolean seek(Bytes row) {
    byte[] target = row.peekArray();
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(keys[mid], target) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    at = lo;
    return at < count;
  }

  @Override
  public boolean advance() {
    return ++at < count;
  }

  @Override
  public byte[] rowArray() {
    return keys[at];
  }

  @Override
  public int rowOffset() {
    return 0;
  }

  @Override
  public int rowLength() {
    return keys[at].length;
  }

  @Override
  public long sequenceId() {
    return sequenceId;
  }

  @Override
  public boolean isDelete() {
    return false;
  }

  @Override
  public ByteBuffer valueBuffer() {
    return ByteBuffer.wrap(values[at]);
  }

  @Override
  public int valueOffset() {
    return 0;
  }

  @Override
  public int valueLength() {
    return values[at].length;
  }

  @Override
  public void close() {}
}
