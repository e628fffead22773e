package io.cairn.protocol.wire;

import com.google.protobuf.ByteString;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.JoinHashTable;
import io.cairn.protocol.PutHashCache;
import java.util.List;

/**
 * A broadcast join's build side ({@link JoinHashTable}) on the wire: a PutHashCache of its rows as
 * tagged values (the ScanPage row encoding) and its key columns; the server hashes them once into
 * its own table. Rows with a NULL key travel as one such row only (it never matches; only its
 * existence counts, for NOT IN).
 */
public final class WireHashTables {
  private WireHashTables() {}

  /** The message that puts {@code table} as cache {@code cacheId}. */
  public static PutHashCache toProto(String cacheId, JoinHashTable table) {
    RowPageWriter writer = new RowPageWriter(table.columnCount());
    for (List<Object[]> rows : table.rowsByKey()) {
      for (Object[] row : rows) {
        writer.add(row);
      }
    }
    if (table.hasNullKey()) {
      writer.add(new Object[table.columnCount()]); // all NULL: a NULL key
    }
    return PutHashCache.newBuilder()
        .setCacheId(ByteString.copyFromUtf8(cacheId))
        .setColumnCount(table.columnCount())
        .setRowCount(writer.rowCount())
        .addAllKeyColumns(table.keyColumns())
        .setRows(writer.finish())
        .build();
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
    Object[][] rows = RowPageReader.read(put.getRows(), put.getRowCount(), put.getColumnCount());
    JoinHashTable.Builder builder =
        WirePrograms.rethrowAsProtocolError(
            () -> JoinHashTable.builder(put.getColumnCount(), put.getKeyColumnsList()));
    for (Object[] row : rows) {
      builder.add(row);
    }
    return builder.build();
  }
}
