package io.cairn.store.stats;

import io.cairn.core.encoding.ByteReader;
import io.cairn.core.encoding.KeyEncoding;
import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexKeys;
import java.util.Arrays;

/**
 * Counts the distinct values of the first key part of index entries fed in key order: the changes
 * of its encoded value (key-part encodings are prefix-free, so an entry that starts with the
 * previous value's bytes has the same value). Exact over what it is fed; -1 once an entry does not
 * decode as the index's (never expected: unknown rather than wrong). Used by Cairn's own store per
 * region and by the region servers of HBase per region of an index's table. Not thread-safe.
 */
public final class FirstPartCounter {
  private final DataType firstPartType;
  private final SortOrder firstPartOrder;
  private byte[] previous = new byte[0];
  private int previousLength = -1;
  private long count;

  /** A counter of entries whose first key part is of {@code firstPartType} in {@code order}. */
  public FirstPartCounter(DataType firstPartType, SortOrder order) {
    this.firstPartType = firstPartType.withNullable(true);
    this.firstPartOrder = order;
  }

  /** Counts the entry whose whole key (prefix, parts, row key, suffix) is {@code key[offset..]}. */
  public void add(byte[] key, int offset, int length) {
    if (count < 0) {
      return;
    }
    int start = offset + IndexKeys.PREFIX_LENGTH;
    int end = offset + length - IndexKeys.SUFFIX_LENGTH;
    if (previousLength >= 0
        && previousLength <= end - start
        && Arrays.equals(previous, 0, previousLength, key, start, start + previousLength)) {
      return; // same first part: its encoding is prefix-free
    }
    int partLength;
    try {
      ByteReader in = new ByteReader(key, start, end - start);
      KeyEncoding.decode(in, firstPartType, firstPartOrder);
      partLength = in.position() - start;
    } catch (CairnException | IllegalStateException | IndexOutOfBoundsException e) {
      count = -1;
      return;
    }
    if (previous.length < partLength) {
      previous = new byte[Math.max(partLength, previous.length * 2)];
    }
    System.arraycopy(key, start, previous, 0, partLength);
    previousLength = partLength;
    count++;
  }

  /** The distinct first-part values counted, -1 when unknown. */
  public long count() {
    return count;
  }
}
