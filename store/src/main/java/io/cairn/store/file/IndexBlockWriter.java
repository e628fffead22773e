package io.cairn.store.file;

import io.cairn.store.io.ByteArrayOutput;
import java.util.Arrays;

/**
 * Builds an index block payload (root, intermediate, leaf or bloom index):
 *
 * <pre>
 * entry*n:  varint keyLength, key, varint childOffset, varint childOnDiskSize
 * u32*n     offset of each entry from the payload's start
 * u32       n
 * </pre>
 *
 * Entries come in key order. Reused across blocks via {@link #reset()}.
 */
final class IndexBlockWriter {
  private final ByteArrayOutput entries = new ByteArrayOutput(1024);
  private final ByteArrayOutput offsets = new ByteArrayOutput(256);
  private int count;
  private byte[] lastKey = new byte[0];

  void add(byte[] key, long childOffset, int childOnDiskSize) {
    offsets.writeInt(entries.size());
    entries.writeVarint(key.length);
    entries.writeBytes(key, 0, key.length);
    entries.writeVarint(childOffset);
    entries.writeVarint(childOnDiskSize);
    lastKey = key;
    count++;
  }

  int count() {
    return count;
  }

  byte[] lastKey() {
    return lastKey;
  }

  /** The payload's size once finished. */
  int size() {
    return entries.size() + offsets.size() + 4;
  }

  /** Writes the payload into {@code out} (which is reset first). */
  void finish(ByteArrayOutput out) {
    out.reset();
    out.writeBytes(entries.peekArray(), 0, entries.size());
    out.writeBytes(offsets.peekArray(), 0, offsets.size());
    out.writeInt(count);
  }

  void reset() {
    entries.reset();
    offsets.reset();
    count = 0;
    lastKey = new byte[0];
  }

  /**
   * A short key {@code s} with {@code last <= s < next}: the index needs only to separate two
   * blocks, so a long row is cut after the first byte where the two rows differ when that byte can
   * be incremented without reaching {@code next}'s.
   */
  static byte[] separator(byte[] last, byte[] next) {
    return separator(last, last.length, next, 0, next.length);
  }

  /** {@link #separator(byte[], byte[])} of slices, always a new array. */
  static byte[] separator(
      byte[] last, int lastLength, byte[] next, int nextOffset, int nextLength) {
    int p = Arrays.mismatch(last, 0, lastLength, next, nextOffset, nextOffset + nextLength);
    if (p < 0 || p >= lastLength - 1 || p >= nextLength) {
      return Arrays.copyOf(last, lastLength);
    }
    int a = last[p] & 0xFF;
    int b = next[nextOffset + p] & 0xFF;
    if (a + 1 >= b) {
      return Arrays.copyOf(last, lastLength);
    }
    byte[] s = Arrays.copyOf(last, p + 1);
    s[p] = (byte) (a + 1);
    return s;
  }
}
