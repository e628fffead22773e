package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.io.ByteBufferInput;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A read-only view of an index block (layout in {@link IndexBlockWriter}), searched in place by
 * binary search over its entry offsets. Immutable: the root index is shared by every cursor of a
 * reader. Malformed entries throw {@link IllegalArgumentException}.
 */
final class IndexBlock {
  private final Block block;
  private final ByteBuffer data;
  private final int start;
  private final int entriesEnd;
  private final int count;

  IndexBlock(Block block) {
    this.block = requireNonNull(block, "block is null");
    this.data = block.buffer();
    this.start = block.start();
    int length = block.length();
    if (length < 4) {
      throw new IllegalArgumentException("Index block shorter than its entry count");
    }
    int n = data.getInt(start + length - 4);
    if (n < 0 || n > (length - 4) / 4) {
      throw new IllegalArgumentException("Index entry count out of range: [" + n + "]");
    }
    this.count = n;
    this.entriesEnd = start + length - 4 - 4 * n;
  }

  Block block() {
    return block;
  }

  int count() {
    return count;
  }

  /** Decodes every entry once: keys ascending, children inside the file. */
  void validate(long dataEnd) {
    byte[] previous = null;
    for (int i = 0; i < count; i++) {
      byte[] key = key(i);
      if (previous != null && Arrays.compareUnsigned(previous, key) > 0) {
        throw new IllegalArgumentException("Index keys out of order at entry [" + i + "]");
      }
      long offset = childOffset(i);
      int size = childOnDiskSize(i);
      if (offset < 0 || offset + size > dataEnd) {
        throw new IllegalArgumentException("Index entry [" + i + "] points outside the file");
      }
      previous = key;
    }
  }

  /** The first entry whose key is at or after {@code target}, or {@link #count()}. */
  int ceiling(byte[] target) {
    int low = 0;
    int high = count;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (compareKey(mid, target) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** The last entry whose key is at or before {@code target}, or -1. */
  int floor(byte[] target) {
    int low = 0;
    int high = count;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (compareKey(mid, target) <= 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low - 1;
  }

  int compareKey(int index, byte[] target) {
    int p = entryStart(index);
    int length = readInt(p);
    int keyStart = p + varintSize(length);
    checkRange(keyStart, length);
    return ByteBufferInput.compareUnsigned(data, keyStart, length, target);
  }

  byte[] key(int index) {
    int p = entryStart(index);
    int length = readInt(p);
    int keyStart = p + varintSize(length);
    checkRange(keyStart, length);
    byte[] key = new byte[length];
    data.get(keyStart, key);
    return key;
  }

  Bytes keyBytes(int index) {
    return Bytes.wrap(key(index));
  }

  long childOffset(int index) {
    int p = afterKey(index);
    return readLong(p);
  }

  int childOnDiskSize(int index) {
    int p = afterKey(index);
    long offset = readLong(p);
    return readInt(p + varintSize(offset));
  }

  private int afterKey(int index) {
    int p = entryStart(index);
    int length = readInt(p);
    int keyStart = p + varintSize(length);
    checkRange(keyStart, length);
    return keyStart + length;
  }

  private int entryStart(int index) {
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException("Index entry [" + index + "] of [" + count + "]");
    }
    int offset = data.getInt(entriesEnd + 4 * index);
    if (offset < 0 || offset >= entriesEnd - start) {
      throw new IllegalArgumentException("Index entry offset out of range: [" + offset + "]");
    }
    return start + offset;
  }

  private void checkRange(int from, int length) {
    if (length < 0 || from > entriesEnd - length) {
      throw new IllegalArgumentException("Index entry runs past the entries");
    }
  }

  private int readInt(int p) {
    long value = readLong(p);
    if (value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Index field out of int range: [" + value + "]");
    }
    return (int) value;
  }

  /** A canonical varint at {@code p} (writers never pad varints, so its size is implied). */
  private long readLong(int p) {
    long result = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (p >= entriesEnd) {
        throw new IllegalArgumentException("Index varint runs past the entries");
      }
      byte b = data.get(p++);
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        if (b == 0 && shift > 0) {
          throw new IllegalArgumentException("Padded varint in an index entry");
        }
        return result;
      }
    }
    throw new IllegalArgumentException("Index varint too long");
  }

  private static int varintSize(long value) {
    return io.cairn.store.io.Varints.size(value);
  }
}
