package io.cairn.core.encoding;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes rows of one {@link RowLayout} into a (key, value) cell and back. The formats are
 * specified in this package's package-info and in docs/format-row.md. Immutable and thread-safe.
 */
public final class RowCodec {
  /** Version byte at the start of every value cell. */
  public static final int VALUE_FORMAT_VERSION = 1;

  private static final int OFFSET_WIDTH_1 = 1;
  private static final int OFFSET_WIDTH_2 = 2;
  private static final int OFFSET_WIDTH_4 = 4;

  private final RowLayout layout;
  private final int[] keyIndexes;
  private final DataType[] keyTypes;
  private final SortOrder[] keyOrders;

  /** Layout indexes of the value columns, sorted by column id. */
  private final int[] valueIndexes;

  /** Column ids of {@link #valueIndexes}, ascending. */
  private final int[] valueIds;

  public RowCodec(RowLayout layout) {
    this.layout = requireNonNull(layout, "layout is null");
    int keyCount = layout.keyColumns().size();
    keyIndexes = new int[keyCount];
    keyTypes = new DataType[keyCount];
    keyOrders = new SortOrder[keyCount];
    for (int i = 0; i < keyCount; i++) {
      RowLayout.KeyColumn key = layout.keyColumns().get(i);
      keyIndexes[i] = key.columnIndex();
      keyTypes[i] = layout.columnType(key.columnIndex());
      keyOrders[i] = key.order();
      KeyEncoding.checkKeyType(keyTypes[i]);
    }
    valueIndexes = valueIndexesById(layout);
    valueIds = new int[valueIndexes.length];
    for (int i = 0; i < valueIndexes.length; i++) {
      valueIds[i] = layout.columns().get(valueIndexes[i]).columnId();
      if (valueIds[i] < 0) {
        throw new IllegalArgumentException(
            "Column ids must be non-negative: found [" + valueIds[i] + "]");
      }
      if (i > 0 && valueIds[i] == valueIds[i - 1]) {
        throw new IllegalArgumentException("Duplicate column id [" + valueIds[i] + "]");
      }
    }
  }

  /**
   * The layout indexes of the value (non-key) columns sorted by column id: a plain loop, since a
   * codec is made for every execution of a statement (a point lookup's key range needs one).
   */
  static int[] valueIndexesById(RowLayout layout) {
    int n = layout.columnCount();
    int count = 0;
    for (int i = 0; i < n; i++) {
      count += layout.isKeyColumn(i) ? 0 : 1;
    }
    int[] indexes = new int[count];
    for (int i = 0, at = 0; i < n; i++) {
      if (!layout.isKeyColumn(i)) {
        indexes[at++] = i;
      }
    }
    List<RowLayout.ColumnLayout> columns = layout.columns();
    for (int i = 1; i < count; i++) { // insertion sort: few columns, usually in id order already
      int index = indexes[i];
      int id = columns.get(index).columnId();
      int j = i - 1;
      while (j >= 0 && columns.get(indexes[j]).columnId() > id) {
        indexes[j + 1] = indexes[j];
        j--;
      }
      indexes[j + 1] = index;
    }
    return indexes;
  }

  public RowLayout layout() {
    return layout;
  }

  /** The row key of a full row: its primary-key columns in key order. */
  public Bytes encodeKey(Object[] row) {
    if (layout.hiddenRowId()) {
      throw new IllegalStateException("Layout has a hidden row id: use encodeRowId, not encodeKey");
    }
    checkRowLength(row);
    ByteBuilder out = new ByteBuilder(16 * keyIndexes.length);
    for (int i = 0; i < keyIndexes.length; i++) {
      Object value = row[keyIndexes[i]];
      JavaTypes.check(keyIndexes[i], keyTypes[i], value);
      KeyEncoding.encode(out, value, keyTypes[i], keyOrders[i]);
    }
    return out.toBytes();
  }

  /**
   * The key prefix shared by every row whose first {@code keyValues.size()} key columns (in KEY
   * order) have these values.
   */
  public Bytes encodeKeyPrefix(List<Object> keyValues) {
    if (keyValues.size() > keyIndexes.length) {
      throw new IllegalArgumentException(
          "Too many key values: expected at most ["
              + keyIndexes.length
              + "], found ["
              + keyValues.size()
              + "]");
    }
    ByteBuilder out = new ByteBuilder(16 * keyValues.size() + 8);
    for (int i = 0; i < keyValues.size(); i++) {
      Object value = keyValues.get(i);
      JavaTypes.check(keyIndexes[i], keyTypes[i], value);
      KeyEncoding.encode(out, value, keyTypes[i], keyOrders[i]);
    }
    return out.toBytes();
  }

  /** The key of a row of a table without primary key: 8 bytes, order-preserving. */
  public static Bytes encodeRowId(long rowId) {
    return new ByteBuilder(8).writeBigEndian(rowId ^ Long.MIN_VALUE, 8).toBytes();
  }

  /** The row id of a key written by {@link #encodeRowId}. */
  public static long decodeRowId(Bytes key) {
    if (key.length() != 8) {
      throw CairnException.internal(
          "Corrupt row id key: expected [8] bytes, found [" + key.length() + "]");
    }
    return new ByteReader(key.peekArray()).readBigEndian(8) ^ Long.MIN_VALUE;
  }

  /** The value cell of a full row: all columns that are not in the key. */
  public Bytes encodeValue(Object[] row) {
    checkRowLength(row);
    int count = valueIndexes.length;
    ByteBuilder data = new ByteBuilder(64);
    int[] ends = new int[count];
    byte[] nulls = new byte[(count + 7) / 8];
    for (int i = 0; i < count; i++) {
      int index = valueIndexes[i];
      Object value = row[index];
      DataType type = layout.columnType(index);
      JavaTypes.check(index, type, value);
      if (value == null) {
        nulls[i >>> 3] |= (byte) (1 << (i & 7));
      } else {
        writeValue(data, value, type);
      }
      ends[i] = data.length();
    }
    int dataLength = data.length();
    int width =
        dataLength <= 0xFF
            ? OFFSET_WIDTH_1
            : dataLength <= 0xFFFF ? OFFSET_WIDTH_2 : OFFSET_WIDTH_4;
    ByteBuilder out = new ByteBuilder(dataLength + count * (width + 2) + 16);
    out.write(VALUE_FORMAT_VERSION);
    out.writeVarint(layout.schemaVersion() & 0xFFFF_FFFFL);
    out.writeVarint(count);
    int previous = 0;
    for (int i = 0; i < count; i++) {
      out.writeVarint(valueIds[i] - previous);
      previous = valueIds[i];
    }
    out.write(nulls);
    out.write(width);
    for (int i = 0; i < count; i++) {
      out.writeBigEndian(ends[i], width);
    }
    out.write(data.toBytes().peekArray());
    return out.toBytes();
  }

  /** The full row (one value per layout column) of a cell. */
  public Object[] decode(Bytes key, Bytes value) {
    return decode(key, value, null);
  }

  /**
   * Decodes only the columns marked in {@code needed} (null = all); the others stay null. A scan
   * program passes the columns its filter and projection read, so {@code COUNT(*)} decodes nothing
   * and a filter on one column decodes one value per row.
   */
  public Object[] decode(Bytes key, Bytes value, boolean[] needed) {
    Object[] row = new Object[layout.columnCount()];
    if (!layout.hiddenRowId() && anyNeeded(keyIndexes, needed)) {
      ByteReader in = new ByteReader(key.peekArray());
      for (int i = 0; i < keyIndexes.length; i++) {
        row[keyIndexes[i]] = KeyEncoding.decode(in, keyTypes[i], keyOrders[i]);
      }
      if (in.hasRemaining()) {
        throw CairnException.internal(
            "Corrupt key: [" + in.remaining() + "] bytes left after the last key column");
      }
    }
    if (anyNeeded(valueIndexes, needed)) {
      decodeValueInto(value, row, needed);
    }
    return row;
  }

  private static boolean anyNeeded(int[] indexes, boolean[] needed) {
    if (needed == null) {
      return indexes.length > 0;
    }
    for (int index : indexes) {
      if (needed[index]) {
        return true;
      }
    }
    return false;
  }

  /** The schema version recorded in a value cell. */
  public static int schemaVersion(Bytes value) {
    ByteReader in = new ByteReader(value.peekArray());
    checkVersion(in.read());
    return (int) in.readVarint();
  }

  private void decodeValueInto(Bytes value, Object[] row, boolean[] needed) {
    ByteReader in = new ByteReader(value.peekArray());
    checkVersion(in.read());
    in.readVarint(); // schema version: addressing is by column id, so it is informational here
    long countLong = in.readVarint();
    if (countLong > in.remaining()) {
      throw CairnException.internal(
          "Corrupt value cell: column count [" + countLong + "] exceeds the cell size");
    }
    int count = (int) countLong;
    int[] ids = new int[count];
    long id = 0;
    for (int i = 0; i < count; i++) {
      id += in.readVarint();
      ids[i] = (int) id;
    }
    int nullsStart = in.position();
    byte[] array = value.peekArray();
    in.position(nullsStart + (count + 7) / 8);
    int width = in.read();
    if (width != OFFSET_WIDTH_1 && width != OFFSET_WIDTH_2 && width != OFFSET_WIDTH_4) {
      throw CairnException.internal(
          "Corrupt value cell: expected offset width [1, 2 or 4], found [" + width + "]");
    }
    int offsetsStart = in.position();
    int dataStart = offsetsStart + count * width;
    if (dataStart > array.length) {
      throw CairnException.internal("Corrupt value cell: offsets run past the end of the cell");
    }
    for (int i = 0; i < valueIndexes.length; i++) {
      if (needed != null && !needed[valueIndexes[i]]) {
        continue;
      }
      int entry = Arrays.binarySearch(ids, valueIds[i]);
      if (entry < 0 || (array[nullsStart + (entry >>> 3)] & (1 << (entry & 7))) != 0) {
        continue; // added after this cell was written, or NULL
      }
      int begin =
          entry == 0 ? 0 : (int) readOffset(array, offsetsStart + (entry - 1) * width, width);
      int end = (int) readOffset(array, offsetsStart + entry * width, width);
      if (begin > end || dataStart + end > array.length) {
        throw CairnException.internal(
            "Corrupt value cell: entry [" + entry + "] spans [" + begin + ", " + end + ")");
      }
      int index = valueIndexes[i];
      row[index] =
          readValue(
              new ByteReader(array, dataStart + begin, end - begin), layout.columnType(index));
    }
  }

  private static long readOffset(byte[] array, int at, int width) {
    return new ByteReader(array, at, width).readBigEndian(width);
  }

  static void checkVersion(int version) {
    if (version != VALUE_FORMAT_VERSION) {
      throw CairnException.internal(
          "Unsupported value cell format: expected version ["
              + VALUE_FORMAT_VERSION
              + "], found ["
              + version
              + "]");
    }
  }

  private void checkRowLength(Object[] row) {
    if (row.length != layout.columnCount()) {
      throw CairnException.internal(
          "Row length: expected [" + layout.columnCount() + "] values, found [" + row.length + "]");
    }
  }

  private static void writeValue(ByteBuilder out, Object value, DataType type) {
    switch (type.name()) {
      case BOOLEAN -> out.write(((Boolean) value) ? 1 : 0);
      case TINYINT -> out.write((Byte) value);
      case SMALLINT -> out.writeBigEndian((Short) value, 2);
      case INTEGER -> out.writeBigEndian((Integer) value, 4);
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> out.writeBigEndian((Long) value, 8);
      case FLOAT -> out.writeBigEndian(Float.floatToRawIntBits((Float) value), 4);
      case DOUBLE -> out.writeBigEndian(Double.doubleToRawLongBits((Double) value), 8);
      case DECIMAL -> {
        BigDecimal decimal = (BigDecimal) value;
        int scale = decimal.scale();
        out.writeVarint(((long) scale << 1) ^ ((long) scale >> 63)); // zig-zag
        out.write(decimal.unscaledValue().toByteArray());
      }
      case CHAR, VARCHAR -> out.write(JavaTypes.utf8((String) value));
      case VARBINARY -> out.write((byte[]) value);
      case DATE -> out.writeBigEndian(KeyEncoding.epochDay((LocalDate) value), 4);
      case TIME -> out.writeBigEndian(((LocalTime) value).toNanoOfDay(), 8);
      case TIMESTAMP -> {
        LocalDateTime t = (LocalDateTime) value;
        out.writeBigEndian(t.toEpochSecond(ZoneOffset.UTC), 8);
        out.writeBigEndian(t.getNano(), 4);
      }
      case NULL -> throw CairnException.internal("A NULL-typed column holds a non-null value");
    }
  }

  /** Decodes one value-cell entry (the entry's bytes only) of {@code type}. */
  static Object readValue(ByteReader in, DataType type) {
    return switch (type.name()) {
      case BOOLEAN -> in.read() != 0;
      case TINYINT -> (byte) in.read();
      case SMALLINT -> (short) in.readBigEndian(2);
      case INTEGER -> (int) in.readBigEndian(4);
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> in.readBigEndian(8);
      case FLOAT -> Float.intBitsToFloat((int) in.readBigEndian(4));
      case DOUBLE -> Double.longBitsToDouble(in.readBigEndian(8));
      case DECIMAL -> {
        long zigzag = in.readVarint();
        int scale = (int) ((zigzag >>> 1) ^ -(zigzag & 1));
        yield new BigDecimal(new BigInteger(in.readBytes(in.remaining())), scale);
      }
      case CHAR, VARCHAR -> new String(in.readBytes(in.remaining()), UTF_8);
      case VARBINARY -> in.readBytes(in.remaining());
      case DATE -> LocalDate.ofEpochDay((int) in.readBigEndian(4));
      case TIME -> LocalTime.ofNanoOfDay(in.readBigEndian(8));
      case TIMESTAMP -> {
        long seconds = in.readBigEndian(8);
        int nanos = (int) in.readBigEndian(4);
        yield LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
      }
      case NULL -> null;
    };
  }
}
