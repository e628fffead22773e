package io.cairn.core.catalog;

import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprSerializer;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Binary form of a {@link TableDescriptor} in the catalog table and on the wire ({@code
 * docs/format-store.md}, "Catalog entries"). Format version 1: version byte, table id, schema,
 * name, schema version, column count, per column (name, id, type id, precision, scale, nullable),
 * key column count, per key column (column index, sort order id), option count, per option (name,
 * value). Strings are modified UTF-8 (DataOutput.writeUTF).
 *
 * <p>Format version 2 adds the table's local indexes after the options: index count, per index (id,
 * name, state id, key part count, per part (expression ({@link ExprSerializer}), its SQL text as
 * length-prefixed UTF-8, sort order id), include count, per include (column index)). A table
 * without indexes is written as version 1, so readers of version 1 (an earlier client of a server)
 * still read it; both versions are read.
 */
public final class DescriptorSerializer {
  /** The version of a table without indexes. */
  static final int VERSION_WITHOUT_INDEXES = 1;

  /** The version of a table with indexes. */
  static final int FORMAT_VERSION = 2;

  private DescriptorSerializer() {}

  public static byte[] serialize(TableDescriptor t) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(t.indexes().isEmpty() ? VERSION_WITHOUT_INDEXES : FORMAT_VERSION);
      out.writeLong(t.tableId());
      out.writeUTF(t.schemaName());
      out.writeUTF(t.tableName());
      out.writeInt(t.schemaVersion());
      out.writeInt(t.columns().size());
      for (ColumnDescriptor c : t.columns()) {
        out.writeUTF(c.name());
        out.writeInt(c.columnId());
        out.writeByte(c.type().name().id());
        out.writeInt(c.type().precision());
        out.writeInt(c.type().scale());
        out.writeBoolean(c.type().nullable());
      }
      out.writeInt(t.primaryKey().size());
      for (KeyColumn k : t.primaryKey()) {
        out.writeInt(k.columnIndex());
        out.writeByte(k.order().id());
      }
      out.writeInt(t.options().size());
      for (Map.Entry<String, String> e : t.options().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue());
      }
      if (!t.indexes().isEmpty()) {
        writeIndexes(out, t.indexes());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  public static TableDescriptor deserialize(byte[] data) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      int version = in.readUnsignedByte();
      if (version != VERSION_WITHOUT_INDEXES && version != FORMAT_VERSION) {
        throw new CairnException(
            ErrorCode.UNSUPPORTED_FORMAT_VERSION,
            "Unsupported catalog entry format: expected version ["
                + VERSION_WITHOUT_INDEXES
                + "] or ["
                + FORMAT_VERSION
                + "], found ["
                + version
                + "]");
      }
      long tableId = in.readLong();
      String schema = in.readUTF();
      String name = in.readUTF();
      int schemaVersion = in.readInt();
      int columnCount = in.readInt();
      List<ColumnDescriptor> columns = new ArrayList<>(columnCount);
      for (int i = 0; i < columnCount; i++) {
        String columnName = in.readUTF();
        int columnId = in.readInt();
        TypeName typeName = TypeName.fromId(in.readUnsignedByte());
        int precision = in.readInt();
        int scale = in.readInt();
        boolean nullable = in.readBoolean();
        columns.add(
            new ColumnDescriptor(
                columnName, columnId, new DataType(typeName, precision, scale, nullable)));
      }
      int keyCount = in.readInt();
      List<KeyColumn> key = new ArrayList<>(keyCount);
      for (int i = 0; i < keyCount; i++) {
        key.add(new KeyColumn(in.readInt(), SortOrder.fromId(in.readUnsignedByte())));
      }
      int optionCount = in.readInt();
      Map<String, String> options = new TreeMap<>();
      for (int i = 0; i < optionCount; i++) {
        options.put(in.readUTF(), in.readUTF());
      }
      List<IndexDescriptor> indexes =
          version == VERSION_WITHOUT_INDEXES ? List.of() : readIndexes(in);
      if (in.available() > 0) {
        throw new CairnException(
            ErrorCode.INTERNAL_ERROR,
            "Corrupt catalog entry: [" + in.available() + "] bytes after the descriptor");
      }
      return new TableDescriptor(
          tableId, schema, name, columns, key, options, schemaVersion, indexes);
    } catch (IOException | IllegalArgumentException e) {
      throw new CairnException(ErrorCode.INTERNAL_ERROR, "Corrupt catalog entry: " + e, e);
    }
  }

  /**
   * One index on its own (a CREATE INDEX draft on the wire): the version byte (2), then the index
   * as in a table's entry.
   */
  public static byte[] serializeIndex(IndexDescriptor index) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT_VERSION);
      writeIndexes(out, List.of(index));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * The index {@link #serializeIndex} wrote.
   *
   * @throws CairnException INTERNAL_ERROR when the bytes are not exactly one index
   */
  public static IndexDescriptor deserializeIndex(byte[] data) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      int version = in.readUnsignedByte();
      if (version != FORMAT_VERSION) {
        throw new CairnException(
            ErrorCode.UNSUPPORTED_FORMAT_VERSION,
            "Unsupported index format: expected version ["
                + FORMAT_VERSION
                + "], found ["
                + version
                + "]");
      }
      List<IndexDescriptor> indexes = readIndexes(in);
      if (indexes.size() != 1 || in.available() > 0) {
        throw new CairnException(
            ErrorCode.INTERNAL_ERROR,
            "Corrupt index: expected one index and nothing after it, found ["
                + indexes.size()
                + "] and ["
                + in.available()
                + "] bytes");
      }
      return indexes.get(0);
    } catch (IOException | IllegalArgumentException e) {
      throw new CairnException(ErrorCode.INTERNAL_ERROR, "Corrupt index: " + e, e);
    }
  }

  private static void writeIndexes(DataOutputStream out, List<IndexDescriptor> indexes)
      throws IOException {
    out.writeInt(indexes.size());
    for (IndexDescriptor index : indexes) {
      out.writeInt(index.indexId());
      out.writeUTF(index.name());
      out.writeByte(index.state().id());
      out.writeInt(index.columns().size());
      for (IndexColumn c : index.columns()) {
        ExprSerializer.write(out, c.expr());
        ExprSerializer.writeString(out, c.sql());
        out.writeByte(c.order().id());
      }
      out.writeInt(index.include().size());
      for (int column : index.include()) {
        out.writeInt(column);
      }
    }
  }

  private static List<IndexDescriptor> readIndexes(DataInputStream in) throws IOException {
    int count = count(in, "indexes");
    List<IndexDescriptor> indexes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int id = in.readInt();
      String name = in.readUTF();
      IndexDescriptor.State state = IndexDescriptor.State.fromId(in.readUnsignedByte());
      int parts = count(in, "index key parts");
      List<IndexColumn> columns = new ArrayList<>(parts);
      for (int p = 0; p < parts; p++) {
        Expr expr = ExprSerializer.read(in);
        String sql = ExprSerializer.readString(in);
        columns.add(new IndexColumn(expr, sql, SortOrder.fromId(in.readUnsignedByte())));
      }
      int includeCount = count(in, "included columns");
      List<Integer> include = new ArrayList<>(includeCount);
      for (int c = 0; c < includeCount; c++) {
        include.add(in.readInt());
      }
      indexes.add(new IndexDescriptor(id, name, columns, include, state));
    }
    return indexes;
  }

  /** A count of things that each take at least one byte of what is left. */
  private static int count(DataInputStream in, String what) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > in.available()) {
      throw new CairnException(
          ErrorCode.INTERNAL_ERROR,
          "Corrupt catalog entry: ["
              + n
              + "] "
              + what
              + " with ["
              + in.available()
              + "] bytes left");
    }
    return n;
  }
}
