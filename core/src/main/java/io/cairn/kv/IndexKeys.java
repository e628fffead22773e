package io.cairn.kv;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.ByteBuilder;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;

/**
 * The key space of local index entries inside a table that has indexes. An entry's key is
 *
 * <pre>
 *   0x80 | index id (4 bytes, big-endian) | encoded key parts | row key | row key length (2 bytes)
 * </pre>
 *
 * <p>No row key of a table with a primary key starts with {@code 0x80} (an order-preserving key
 * component starts with a NULL or value marker, 0x00/0x01, or their inversions 0xFF/0xFE), so the
 * entries sort apart from the rows. The trailing length lets the store find an entry's row key
 * without knowing the index: an entry lives in the region that holds its row, and goes with it when
 * the region splits. Key-part encodings are prefix-free, so entries sort by index, then parts, then
 * row key.
 */
public final class IndexKeys {
  /** First byte of every index entry's key. */
  public static final byte SPACE_MARKER = (byte) 0x80;

  /** The whole index key space: [0x80, 0x81). */
  public static final KeyRange SPACE =
      new KeyRange(Bytes.wrap(new byte[] {SPACE_MARKER}), Bytes.wrap(new byte[] {(byte) 0x81}));

  /** Bytes of the prefix (marker and index id). */
  public static final int PREFIX_LENGTH = 5;

  /** Bytes of the trailing row-key length. */
  public static final int SUFFIX_LENGTH = 2;

  /** The longest row key an index entry can carry. */
  public static final int MAX_ROW_KEY_LENGTH = 0xFFFF;

  private IndexKeys() {}

  /** The prefix every entry of index {@code indexId} starts with. */
  public static Bytes prefix(int indexId) {
    ByteBuilder b = new ByteBuilder(PREFIX_LENGTH);
    appendPrefix(b, indexId);
    return b.toBytes();
  }

  /** All entries of index {@code indexId}. */
  public static KeyRange range(int indexId) {
    return KeyRange.prefix(prefix(indexId));
  }

  /**
   * The range of index {@code indexId}'s entries whose encoded parts and row key (without prefix
   * and suffix) fall in {@code overParts} (prefix ranges: an empty start or stop means the index's
   * first or last entry).
   */
  public static KeyRange range(int indexId, KeyRange overParts) {
    Bytes prefix = prefix(indexId);
    Bytes start = prefix.concat(overParts.start());
    Bytes stop = overParts.stop().isEmpty() ? prefix.prefixEnd() : prefix.concat(overParts.stop());
    return new KeyRange(start, stop);
  }

  /** Appends the prefix of index {@code indexId}'s entries (the start of an entry key). */
  public static void appendPrefix(ByteBuilder out, int indexId) {
    out.write(SPACE_MARKER).writeBigEndian(indexId, PREFIX_LENGTH - 1);
  }

  /**
   * Appends the row key {@code key[offset, offset + length)} and its length (the end of an entry
   * key, after the prefix and the encoded key parts).
   *
   * @throws CairnException INVALID_ARGUMENT for a row key longer than {@value #MAX_ROW_KEY_LENGTH}
   */
  public static void appendRowKey(ByteBuilder out, byte[] key, int offset, int length) {
    if (length > MAX_ROW_KEY_LENGTH) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "An indexed row's key: expected at most "
              + MAX_ROW_KEY_LENGTH
              + " bytes, found ["
              + length
              + "]");
    }
    out.write(key, offset, length).writeBigEndian(length, SUFFIX_LENGTH);
  }

  /** Whether {@code key} (of a table with indexes) is an index entry's. */
  public static boolean isEntry(byte[] key, int offset, int length) {
    return length >= PREFIX_LENGTH + SUFFIX_LENGTH && key[offset] == SPACE_MARKER;
  }

  /** Whether {@code key} (of a table with indexes) is an index entry's. */
  public static boolean isEntry(Bytes key) {
    return isEntry(key.peekArray(), 0, key.length());
  }

  /** The index id of an entry's key. */
  public static int indexId(byte[] key, int offset) {
    return ((key[offset + 1] & 0xFF) << 24)
        | ((key[offset + 2] & 0xFF) << 16)
        | ((key[offset + 3] & 0xFF) << 8)
        | (key[offset + 4] & 0xFF);
  }

  /** The length of the row key an entry's key ends with (before the suffix). */
  public static int rowKeyLength(byte[] key, int offset, int length) {
    int end = offset + length;
    return ((key[end - 2] & 0xFF) << 8) | (key[end - 1] & 0xFF);
  }

  /** The row key an entry's key carries. */
  public static Bytes rowKey(Bytes entryKey) {
    byte[] k = entryKey.peekArray();
    int n = rowKeyLength(k, 0, k.length);
    return Bytes.copyOf(k, k.length - SUFFIX_LENGTH - n, n);
  }
}
