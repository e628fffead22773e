package io.cairn.hbase.server;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a count scan ({@link WireNames#COUNT_ATTRIBUTE}) of one region found: its rows, and with a
 * guide post width its rows cut into chunks of about that many bytes of Cairn rows (key and value),
 * each chunk after the first starting at a guide post (a row's key). The region server builds it
 * while counting ({@link #add}); the client reads it back from the answer's cell ({@link #decode}).
 *
 * <p>Encoded: rows (long), chunks (int), then per chunk its start key (int length, bytes; empty for
 * the first, which starts where the scan started), rows (long) and bytes (long).
 */
public final class RegionCount {
  /** A chunk: its first key (empty: where the scan started), rows and bytes. */
  public record Chunk(byte[] start, long rows, long bytes) {}

  private final long guidePostWidth;
  private final List<Chunk> closed = new ArrayList<>();
  private byte[] start = new byte[0];
  private long rows;
  private long chunkRows;
  private long chunkBytes;

  /** A count cutting chunks every {@code guidePostWidth} bytes; 0: one chunk. */
  public RegionCount(long guidePostWidth) {
    this.guidePostWidth = guidePostWidth;
  }

  /** Counts a row of this key and value length (key and value in key order). */
  void add(byte[] key, int keyOffset, int keyLength, int valueLength) {
    if (guidePostWidth > 0 && chunkBytes >= guidePostWidth) {
      closed.add(new Chunk(start, chunkRows, chunkBytes));
      start = Arrays.copyOfRange(key, keyOffset, keyOffset + keyLength);
      chunkRows = 0;
      chunkBytes = 0;
    }
    rows++;
    chunkRows++;
    chunkBytes += keyLength + valueLength;
  }

  /** The rows counted so far. */
  public long rows() {
    return rows;
  }

  /** The chunks, in key order: the closed ones and the one being counted. */
  public List<Chunk> chunks() {
    List<Chunk> all = new ArrayList<>(closed);
    all.add(new Chunk(start, chunkRows, chunkBytes));
    return all;
  }

  byte[] encode() {
    List<Chunk> chunks = chunks();
    int size = Long.BYTES + Integer.BYTES;
    for (Chunk c : chunks) {
      size += Integer.BYTES + c.start().length + 2 * Long.BYTES;
    }
    ByteBuffer out = ByteBuffer.allocate(size).putLong(rows).putInt(chunks.size());
    for (Chunk c : chunks) {
      out.putInt(c.start().length).put(c.start()).putLong(c.rows()).putLong(c.bytes());
    }
    return out.array();
  }

  /**
   * The answer of an index region's count ({@link WireNames#INDEX_COUNT_QUALIFIER}): {@code
   * distinct} first-part values (long), then this count as {@link #encode} makes it.
   */
  byte[] encodeWithDistinct(long distinct) {
    byte[] counted = encode();
    return ByteBuffer.allocate(Long.BYTES + counted.length).putLong(distinct).put(counted).array();
  }

  /** The distinct first-part values of an index region's answer ({@link #encodeWithDistinct}). */
  public static long distinct(byte[] value) {
    return ByteBuffer.wrap(value).getLong();
  }

  /** The chunks of an index region's answer ({@link #encodeWithDistinct}). */
  public static List<Chunk> decodeWithDistinct(byte[] value) {
    return decode(Arrays.copyOfRange(value, Long.BYTES, value.length));
  }

  /** The chunks of an answer's cell value. */
  public static List<Chunk> decode(byte[] value) {
    ByteBuffer in = ByteBuffer.wrap(value);
    in.getLong(); // the rows: the chunks' sum
    int n = in.getInt();
    List<Chunk> chunks = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] start = new byte[in.getInt()];
      in.get(start);
      chunks.add(new Chunk(start, in.getLong(), in.getLong()));
    }
    return chunks;
  }
}
