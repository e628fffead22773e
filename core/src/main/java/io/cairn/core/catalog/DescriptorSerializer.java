package io.cairn.core.catalog;

import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
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
 * Binary form of a {@link TableDescriptor} in the catalog table. Format version 1: version byte,
 * table id, schema, name, schema version, column count, per column (name, id, type id, precision,
 * scale, nullable), key column count, per key column (column index, sort order id), option count,
 * per option (name, value). Strings are modified UTF-8 (DataOutput.writeUTF).
 */
public final class DescriptorSerializer {
  static final int FORMAT_VERSION = 1;

  private DescriptorSerializer() {}

  public static byte[] serialize(TableDescriptor t) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT_VERSION);
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
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  public static TableDescriptor deserialize(byte[] data) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      int version = in.readUnsignedByte();
      if (version != FORMAT_VERSION) {
        throw new CairnException(
            ErrorCode.INTERNAL_ERROR,
            "Unsupported catalog entry format: expected version ["
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
      return new TableDescriptor(tableId, schema, name, columns, key, options, schemaVersion);
    } catch (IOException e) {
      throw new CairnException(ErrorCode.INTERNAL_ERROR, "Corrupt catalog entry", e);
    }
  }
}
