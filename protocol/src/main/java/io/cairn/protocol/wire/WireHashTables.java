package io.cairn.protocol.wire;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.JoinHashTable;
import io.cairn.protocol.PutHashCache;
import java.util.List;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;

/**
 * A broadcast join's build side ({@link JoinHashTable}) on the wire: a PutHashCache of its rows as
 * tagged values (the ScanPage row encoding), LZ4-compressed when that is smaller, and its key
 * columns; the server hashes them once into its own table. Rows with a NULL key travel as one such
 * row only (it never matches; only its existence counts, for NOT IN).
 */
public final class WireHashTables {
  private WireHashTables() {}

  /** The message that puts {@code table} as cache {@code cacheId}, its rows LZ4-compressed. */
  public static PutHashCache toProto(String cacheId, JoinHashTable table) {
    return toProto(cacheId, table, true);
  }

  /**
   * The message that puts {@code table} as cache {@code cacheId}; {@code compress}: its rows
   * LZ4-compressed when that saves (false: for a reader that may lack LZ4, an HBase region server).
   */
  public static PutHashCache toProto(String cacheId, JoinHashTable table, boolean compress) {
    RowPageWriter writer = new RowPageWriter(table.columnCount());
    for (List<Object[]> rows : table.rowsByKey()) {
      for (Object[] row : rows) {
        writer.add(row);
      }
    }
    if (table.hasNullKey()) {
      writer.add(new Object[table.columnCount()]); // all NULL: a NULL key
    }
    PutHashCache.Builder put =
        PutHashCache.newBuilder()
            .setCacheId(ByteString.copyFromUtf8(cacheId))
            .setColumnCount(table.columnCount())
            .setRowCount(writer.rowCount())
            .addAllKeyColumns(table.keyColumns());
    ByteString rows = writer.finish();
    ByteString compressed = compress && rows.size() >= COMPRESS_FROM ? compress(rows) : null;
    if (compressed != null && compressed.size() < rows.size()) {
      put.setRowsLz4(compressed).setRowsBytes(rows.size());
    } else {
      put.setRows(rows);
    }
    return put.build();
  }

  /** Rows shorter than this travel as they are (compressing them saves too little). */
  static final int COMPRESS_FROM = 4096;

  private static ByteString compress(ByteString rows) {
    LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
    byte[] in = rows.toByteArray();
    byte[] out = new byte[compressor.maxCompressedLength(in.length)];
    int length = compressor.compress(in, 0, in.length, out, 0, out.length);
    return UnsafeByteOperations.unsafeWrap(out, 0, length); // out is not kept elsewhere
  }

  /**
   * The rows of a PutHashCache, decompressed when they travelled compressed.
   *
   * @throws CairnException PROTOCOL_ERROR when the compressed rows do not decompress to {@code
   *     rows_bytes} bytes
   */
  static ByteString rows(PutHashCache put) {
    if (put.getRowsLz4().isEmpty()) {
      return put.getRows();
    }
    int length = put.getRowsBytes();
    byte[] compressed = put.getRowsLz4().toByteArray();
    // LZ4 cannot expand data more than 255 times: a larger length is a malformed message
    if (!put.getRows().isEmpty()
        || length < 0
        || length > (long) compressed.length * MAX_LZ4_RATIO + MAX_LZ4_RATIO) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "PutHashCache: expected compressed rows alone and a length of at most "
              + MAX_LZ4_RATIO
              + " times their ["
              + compressed.length
              + "] bytes, found a length of ["
              + length
              + "]"
              + (put.getRows().isEmpty() ? "" : " and uncompressed rows too"));
    }
    byte[] rows = new byte[length];
    int read;
    try {
      read =
          LZ4Factory.fastestInstance()
              .safeDecompressor()
              .decompress(compressed, 0, compressed.length, rows, 0);
    } catch (LZ4Exception e) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "PutHashCache: the compressed rows do not decompress to ["
              + length
              + "] bytes: "
              + e.getMessage());
    }
    if (read != length) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "PutHashCache: expected the rows to decompress to ["
              + length
              + "] bytes, found ["
              + read
              + "]");
    }
    return UnsafeByteOperations.unsafeWrap(rows); // rows is not kept elsewhere
  }

  private static final int MAX_LZ4_RATIO = 255;

  /** The length of a PutHashCache's rows before compression. */
  public static long rowsBytes(PutHashCache put) {
    return put.getRowsLz4().isEmpty() ? put.getRows().size() : put.getRowsBytes();
  }

  /**
   * The table of a PutHashCache.
   *
   * @throws CairnException PROTOCOL_ERROR when the message is malformed
   */
  public static JoinHashTable fromProto(PutHashCache put) {
    if (put.getKeyColumnsCount() == 0) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR, "PutHashCache: expected key columns, found none");
    }
    Object[][] rows = RowPageReader.read(rows(put), put.getRowCount(), put.getColumnCount());
    JoinHashTable.Builder builder =
        WirePrograms.rethrowAsProtocolError(
            () -> JoinHashTable.builder(put.getColumnCount(), put.getKeyColumnsList()));
    for (Object[] row : rows) {
      builder.add(row);
    }
    return builder.build();
  }
}
