package io.cairn.core.encoding;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * Reads the columns of one row at a time straight from its key and value bytes (format in this
 * package's package-info and docs/format-row.md), for scans that look at many rows and keep few.
 *
 * <h2>Zero-allocation contract</h2>
 *
 * One reader is created per scan; {@link #reset} then points it at each row in turn. After the
 * constructor, none of these allocate: {@link #reset}, {@link #isNull}, {@link #getLong}, {@link
 * #getDouble}, {@link #getEpochSecond}, {@link #getNano}, {@link #decimalFitsLong}, {@link
 * #getUnscaledLong}, {@link #getScale} and {@link #compareBytes}. They parse what they need into
 * arrays owned by the reader: the value cell's header on the first access to a value column of a
 * row (a per-column entry span, column ids matched against the layout's ids, which are sorted once
 * here; an array of the cell's ids grows once to the widest cell of the scan), the key's component
 * spans on the first access to a key column. {@link #getObject}, {@link #getDecimal}, {@link
 * #decodeInto} and {@link #peekDecodedRow} build the same Java values as {@link RowCodec#decode}
 * and so allocate; they are the fallback for types and expressions without a primitive path. Errors
 * (building an exception) allocate too.
 *
 * <p>The bytes belong to the caller and must stay unchanged until the next {@link #reset}; the
 * reader keeps no copy. The value buffer may be heap or direct and shared with other readers: only
 * absolute reads are used, its position, limit and byte order are never touched. Malformed bytes
 * raise the same exceptions as {@link RowCodec#decode} (INTERNAL_ERROR {@link CairnException}s with
 * the same messages, though a byte offset in a message may count from the start of the backing
 * array rather than of the row), on the first access that needs the malformed part: a malformed
 * column that is never read goes unnoticed, as with RowCodec's {@code needed}.
 *
 * <p>Not thread-safe.
 */
public final class RowReader {
  /** Span start of a NULL column (or a column the value cell lacks). */
  private static final int NULL = -1;

  /** Span start of a value column present in the cell whose span is not read yet. */
  private static final int UNRESOLVED = -2;

  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private final RowLayout layout;
  private final int columnCount;
  private final boolean[] needed;
  private final DataType[] types;
  private final TypeName[] typeNames;

  /** Per column: whether it is a key column. */
  private final boolean[] keyColumn;

  /** Per column: 0xFF for a DESC key column, else 0. */
  private final int[] keyMasks;

  /** Layout indexes of the key columns in key order. */
  private final int[] keyIndexes;

  /** Layout indexes of the value columns sorted by column id, and those ids (ascending). */
  private final int[] valueIndexes;

  private final int[] valueIds;

  // ---- the current row
  private byte[] key;
  private int keyOffset;
  private int keyLimit;
  private ByteBuffer value;
  private int valueOffset;
  private int valueLimit;
  private boolean keyParsed;
  private boolean valueParsed;
  private long generation;

  /**
   * Per column: start of the value bytes (key: after the marker; value: the entry's first byte,
   * absolute in the buffer), or NULL, or UNRESOLVED.
   */
  private final int[] starts;

  /** Per column: end (exclusive) of the value bytes; key columns: of the whole component. */
  private final int[] ends;

  /** Per value column: its entry number in the current cell. */
  private final int[] entries;

  /** The current cell's column ids. */
  private int[] cellIds = new int[16];

  /**
   * The column-id bytes of the last value header parsed, its column count and what it made of each
   * value column ({@link #NULL} or {@link #UNRESOLVED}): rows of a table mostly carry the same
   * columns, and a header whose id bytes are the same bytes is the same header.
   */
  private byte[] lastIds = new byte[32];

  private int lastIdsLength = -1;
  private int lastCount;
  private final int[] lastStarts;

  private int nullsStart;
  private int offsetsStart;
  private int dataStart;
  private int offsetWidth;

  /** Position after the last varint read by {@link #readVarint}. */
  private int varintEnd;

  // ---- per-row caches, valid while their stamp equals generation
  private final long[] decimalStamps;
  private final boolean[] decimalFits;
  private final long[] unscaled;
  private final int[] scales;
  private final Object[] decoded;
  private final long[] decodedStamps;

  /**
   * @param layout the layout of the rows to read
   * @param needed the columns {@link #decodeInto} fills (null = all); the accessors read any column
   */
  public RowReader(RowLayout layout, boolean[] needed) {
    this.layout = requireNonNull(layout, "layout is null");
    new RowCodec(layout); // validates the layout as the codec does (key types, column ids)
    columnCount = layout.columnCount();
    if (needed != null && needed.length != columnCount) {
      throw new IllegalArgumentException(
          "needed: expected [" + columnCount + "] flags, found [" + needed.length + "]");
    }
    this.needed = needed == null ? null : needed.clone();
    types = new DataType[columnCount];
    typeNames = new TypeName[columnCount];
    for (int i = 0; i < columnCount; i++) {
      types[i] = layout.columnType(i);
      typeNames[i] = types[i].name();
    }
    keyColumn = new boolean[columnCount];
    keyMasks = new int[columnCount];
    keyIndexes = new int[layout.keyColumns().size()];
    for (int k = 0; k < keyIndexes.length; k++) {
      RowLayout.KeyColumn column = layout.keyColumns().get(k);
      keyIndexes[k] = column.columnIndex();
      keyColumn[column.columnIndex()] = true;
      keyMasks[column.columnIndex()] = column.order() == SortOrder.DESC ? 0xFF : 0;
    }
    valueIndexes =
        IntStream.range(0, columnCount)
            .filter(i -> !keyColumn[i])
            .boxed()
            .sorted(Comparator.comparingInt(i -> layout.columns().get(i).columnId()))
            .mapToInt(Integer::intValue)
            .toArray();
    valueIds = new int[valueIndexes.length];
    for (int i = 0; i < valueIndexes.length; i++) {
      valueIds[i] = layout.columns().get(valueIndexes[i]).columnId();
    }
    starts = new int[columnCount];
    ends = new int[columnCount];
    entries = new int[columnCount];
    lastStarts = new int[valueIndexes.length];
    decimalStamps = new long[columnCount];
    decimalFits = new boolean[columnCount];
    unscaled = new long[columnCount];
    scales = new int[columnCount];
    decoded = new Object[columnCount];
    decodedStamps = new long[columnCount];
    generation = 1; // stamps start at 0: nothing is cached before the first reset
  }

  public RowLayout layout() {
    return layout;
  }

  /**
   * Points the reader at a row: its key is {@code key[keyOffset, keyOffset + keyLength)}, its value
   * cell {@code value[valueOffset, valueOffset + valueLength)} (absolute indexes). Parses nothing
   * yet and allocates nothing. For a layout with a hidden row id the key is not read.
   */
  public void reset(
      byte[] key,
      int keyOffset,
      int keyLength,
      ByteBuffer value,
      int valueOffset,
      int valueLength) {
    Objects.checkFromIndexSize(keyOffset, keyLength, key.length);
    Objects.checkFromIndexSize(valueOffset, valueLength, value.limit());
    this.key = key;
    this.keyOffset = keyOffset;
    this.keyLimit = keyOffset + keyLength;
    this.value = value;
    this.valueOffset = valueOffset;
    this.valueLimit = valueOffset + valueLength;
    keyParsed = false;
    valueParsed = false;
    generation++;
  }

  // ---------------------------------------------------------------- primitive accessors

  /** Whether column {@code column} (a layout index) is NULL in the current row. */
  public boolean isNull(int column) {
    return locate(column) == NULL;
  }

  /**
   * The value of a non-NULL column of type TINYINT, SMALLINT, INTEGER, BIGINT, INTERVAL_* (months
   * or milliseconds), DATE (epoch day), TIME (nano of day) or BOOLEAN (0 or 1).
   */
  public long getLong(int column) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if (keyColumn[column]) {
      int mask = keyMasks[column];
      return switch (type) {
        case BOOLEAN -> ((key[start] ^ mask) & 0xFF) != 0 ? 1 : 0;
        case TINYINT -> (byte) (((key[start] ^ mask) & 0xFF) ^ 0x80);
        case SMALLINT -> (short) (keyBigEndian(start, 2, mask) ^ 0x8000);
        case INTEGER, DATE -> (int) (keyBigEndian(start, 4, mask) ^ 0x8000_0000L);
        case BIGINT, TIME -> keyBigEndian(start, 8, mask) ^ Long.MIN_VALUE;
        default -> throw wrongType(column, "a long");
      };
    }
    return switch (type) {
      case BOOLEAN -> valueBigEndian(column, start, 1) != 0 ? 1 : 0;
      case TINYINT -> (byte) valueBigEndian(column, start, 1);
      case SMALLINT -> (short) valueBigEndian(column, start, 2);
      case INTEGER, DATE -> (int) valueBigEndian(column, start, 4);
      case BIGINT, TIME, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> valueBigEndian(column, start, 8);
      default -> throw wrongType(column, "a long");
    };
  }

  /** The value of a non-NULL FLOAT (widened exactly) or DOUBLE column. */
  public double getDouble(int column) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if (keyColumn[column]) {
      int mask = keyMasks[column];
      return switch (type) {
        case FLOAT -> KeyEncoding.floatFromKeyBits((int) keyBigEndian(start, 4, mask));
        case DOUBLE -> KeyEncoding.doubleFromKeyBits(keyBigEndian(start, 8, mask));
        default -> throw wrongType(column, "a double");
      };
    }
    return switch (type) {
      case FLOAT -> Float.intBitsToFloat((int) valueBigEndian(column, start, 4));
      case DOUBLE -> Double.longBitsToDouble(valueBigEndian(column, start, 8));
      default -> throw wrongType(column, "a double");
    };
  }

  /** The epoch second (the zone-less value read as UTC) of a non-NULL TIMESTAMP column. */
  public long getEpochSecond(int column) {
    int start = locateNonNull(column);
    checkType(column, TypeName.TIMESTAMP);
    if (keyColumn[column]) {
      return keyBigEndian(start, 8, keyMasks[column]) ^ Long.MIN_VALUE;
    }
    return valueBigEndian(column, start, 8);
  }

  /** The nano of second of a non-NULL TIMESTAMP column. */
  public int getNano(int column) {
    int start = locateNonNull(column);
    checkType(column, TypeName.TIMESTAMP);
    if (keyColumn[column]) {
      return (int) keyBigEndian(start + 8, 4, keyMasks[column]);
    }
    checkEntryLength(column, start, 12);
    return (int) bufferBigEndian(start + 8, 4);
  }

  /**
   * Whether the non-NULL DECIMAL {@code column}'s value, exactly as {@link #getObject} would return
   * it (unscaled value and scale), has an unscaled value that fits a long; then {@link
   * #getUnscaledLong} and {@link #getScale} describe it without allocating, else use {@link
   * #getDecimal}.
   */
  public boolean decimalFitsLong(int column) {
    parseDecimal(column);
    return decimalFits[column];
  }

  /**
   * Appends the key encoding of column {@code column}'s value in {@code order}: exactly the bytes
   * of {@code KeyEncoding.encode(out, getObject(column), type, order)}, copied from the key for a
   * key column, and made without objects for a DECIMAL of at most 18 digits, an INTEGER or a BIGINT
   * (what index builds mostly encode).
   */
  public void appendKey(int column, SortOrder order, ByteBuilder out) {
    int start = locate(column);
    int from = out.length();
    if (start != NULL && keyColumn[column]) {
      int marker = start - 1;
      out.write(key, marker, ends[column] - marker);
      if ((keyMasks[column] != 0) != (order == SortOrder.DESC)) {
        out.invertFrom(from);
      }
      return;
    }
    if (start == NULL) {
      out.write(KeyEncoding.NULL_MARKER);
    } else {
      switch (typeNames[column]) {
        case DECIMAL -> appendDecimalKey(column, out);
        case INTEGER -> {
          out.write(KeyEncoding.VALUE_MARKER);
          out.writeBigEndian(getLong(column) ^ 0x8000_0000L, 4);
        }
        case BIGINT -> {
          out.write(KeyEncoding.VALUE_MARKER);
          out.writeBigEndian(getLong(column) ^ Long.MIN_VALUE, 8);
        }
        default -> KeyEncoding.encode(out, getObject(column), types[column], SortOrder.ASC);
      }
    }
    if (order == SortOrder.DESC) {
      out.invertFrom(from);
    }
  }

  private void appendDecimalKey(int column, ByteBuilder out) {
    long u = decimalFitsLong(column) ? unscaled[column] : Long.MIN_VALUE;
    if (u < -999_999_999_999_999_999L || u > 999_999_999_999_999_999L) { // over 18 digits
      KeyEncoding.encode(out, getObject(column), types[column], SortOrder.ASC);
      return;
    }
    out.write(KeyEncoding.VALUE_MARKER);
    if (u == 0) {
      out.write(KeyEncoding.DECIMAL_ZERO);
    } else {
      KeyEncoding.encodeDecimalDigits(out, Math.abs(u), scales[column], Long.signum(u));
    }
  }

  /** The unscaled value of a DECIMAL column for which {@link #decimalFitsLong} is true. */
  public long getUnscaledLong(int column) {
    parseDecimal(column);
    checkDecimalFits(column);
    return unscaled[column];
  }

  /** The scale of a DECIMAL column for which {@link #decimalFitsLong} is true. */
  public int getScale(int column) {
    parseDecimal(column);
    checkDecimalFits(column);
    return scales[column];
  }

  /** The value of a DECIMAL column as {@link RowCodec#decode} returns it (allocates). */
  public BigDecimal getDecimal(int column) {
    checkType(column, TypeName.DECIMAL);
    return (BigDecimal) getObject(column);
  }

  /**
   * Compares the bytes of a non-NULL CHAR, VARCHAR (UTF-8) or VARBINARY column with {@code other},
   * unsigned and lexicographically, without decoding: for key columns the escaped component is
   * compared as if unescaped. With {@code ignoreTrailingSpaces}, trailing 0x20 bytes of the column
   * are skipped (the caller strips {@code other}). Returns a negative number, zero or a positive
   * number as the column's bytes are less than, equal to or greater than {@code other}. For
   * well-formed UTF-8 this is the code point order of the strings.
   */
  public int compareBytes(int column, byte[] other, boolean ignoreTrailingSpaces) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if (!type.isString() && type != TypeName.VARBINARY) {
      throw wrongType(column, "bytes");
    }
    if (keyColumn[column]) {
      int mask = keyMasks[column];
      int end = ends[column] - 2; // before the terminator 00 01
      if (ignoreTrailingSpaces) {
        while (end > start && ((key[end - 1] ^ mask) & 0xFF) == ' ') {
          end--;
        }
      }
      int p = start;
      int j = 0;
      while (p < end && j < other.length) {
        int b = (key[p] ^ mask) & 0xFF;
        p += b == KeyEncoding.ESCAPE ? 2 : 1; // 00 FF stands for 00
        int o = other[j++] & 0xFF;
        if (b != o) {
          return b - o;
        }
      }
      return p < end ? 1 : j < other.length ? -1 : 0;
    }
    int end = ends[column];
    if (ignoreTrailingSpaces) {
      while (end > start && value.get(end - 1) == ' ') {
        end--;
      }
    }
    int length = end - start;
    int n = Math.min(length, other.length);
    for (int i = 0; i < n; i++) {
      int b = value.get(start + i) & 0xFF;
      int o = other[i] & 0xFF;
      if (b != o) {
        return b - o;
      }
    }
    return length - other.length;
  }

  /**
   * A hash of the bytes of a non-NULL CHAR, VARCHAR (UTF-8) or VARBINARY column as {@link
   * #compareBytes} sees them (a key column's component unescaped): columns whose bytes compare
   * equal hash equally, whether they are key or value columns. Allocates nothing.
   */
  public int hashBytes(int column) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if (!type.isString() && type != TypeName.VARBINARY) {
      throw wrongType(column, "bytes");
    }
    int h = 1;
    if (keyColumn[column]) {
      int mask = keyMasks[column];
      int end = ends[column] - 2; // before the terminator 00 01
      int p = start;
      while (p < end) {
        int b = (key[p] ^ mask) & 0xFF;
        p += b == KeyEncoding.ESCAPE ? 2 : 1; // 00 FF stands for 00
        h = 31 * h + b;
      }
      return h;
    }
    int end = ends[column];
    for (int p = start; p < end; p++) {
      h = 31 * h + (value.get(p) & 0xFF);
    }
    return h;
  }

  // ---------------------------------------------------------------- allocating accessors

  /**
   * The value of {@code column} as {@link RowCodec#decode} returns it: a Java object of the class
   * documented on TypeName, or null. Allocates.
   */
  public Object getObject(int column) {
    int start = locate(column);
    if (start == NULL) {
      return null;
    }
    if (keyColumn[column]) {
      int marker = start - 1;
      ByteReader in = new ByteReader(key, marker, ends[column] - marker);
      return KeyEncoding.decode(
          in, types[column], keyMasks[column] == 0 ? SortOrder.ASC : SortOrder.DESC);
    }
    int length = ends[column] - start;
    ByteReader in;
    if (value.hasArray()) {
      in = new ByteReader(value.array(), value.arrayOffset() + start, length);
    } else {
      byte[] copy = new byte[length];
      value.get(start, copy);
      in = new ByteReader(copy);
    }
    return RowCodec.readValue(in, types[column]);
  }

  /**
   * Fills {@code row[0, columnCount)} with the current row's needed columns (as {@link
   * RowCodec#decode} decodes them) and null for the others; entries past the layout's columns are
   * left alone. Allocates the values, not the array.
   */
  public void decodeInto(Object[] row) {
    if (row.length < columnCount) {
      throw new IllegalArgumentException(
          "Row too short: expected at least ["
              + columnCount
              + "] slots, found ["
              + row.length
              + "]");
    }
    // keys first, then values by column id: the order in which RowCodec meets malformed bytes
    for (int index : keyIndexes) {
      row[index] = needed == null || needed[index] ? getObject(index) : null;
    }
    for (int index : valueIndexes) {
      row[index] = needed == null || needed[index] ? getObject(index) : null;
    }
  }

  /**
   * Borrows the reader's own row array (one slot per layout column) with at least {@code columns}
   * decoded for the current row; each column is decoded at most once per row however often this is
   * called. The other slots hold whatever earlier rows left there: read only {@code columns}. Valid
   * until the next {@link #reset}; never hand it out.
   */
  public Object[] peekDecodedRow(int[] columns) {
    for (int column : columns) {
      if (decodedStamps[column] != generation) {
        decoded[column] = getObject(column);
        decodedStamps[column] = generation;
      }
    }
    return decoded;
  }

  // ---------------------------------------------------------------- locating columns

  private int locate(int column) {
    Objects.checkIndex(column, columnCount);
    if (keyColumn[column]) {
      if (!keyParsed) {
        parseKey();
      }
      return starts[column];
    }
    if (!valueParsed) {
      parseValueHeader();
    }
    int start = starts[column];
    return start == UNRESOLVED ? resolveEntry(column) : start;
  }

  private int locateNonNull(int column) {
    int start = locate(column);
    if (start == NULL) {
      throw new IllegalStateException("Column [" + column + "] is NULL: check isNull first");
    }
    return start;
  }

  /** Finds every key component's span, checking the bytes as KeyEncoding.decode does. */
  private void parseKey() {
    int p = keyOffset;
    for (int index : keyIndexes) {
      int mask = keyMasks[index];
      int marker = keyByte(p++) ^ mask;
      if (marker == KeyEncoding.NULL_MARKER) {
        starts[index] = NULL;
        ends[index] = p;
        continue;
      }
      if (marker != KeyEncoding.VALUE_MARKER) {
        throw CairnException.internal(
            "Corrupt key component: expected marker [0 or 1], found [" + marker + "]");
      }
      starts[index] = p;
      p = skipKeyValue(p, typeNames[index], mask);
      ends[index] = p;
    }
    if (p < keyLimit) {
      throw CairnException.internal(
          "Corrupt key: [" + (keyLimit - p) + "] bytes left after the last key column");
    }
    keyParsed = true;
  }

  private int skipKeyValue(int p, TypeName type, int mask) {
    return switch (type) {
      case BOOLEAN, TINYINT -> skipKeyBytes(p, 1);
      case SMALLINT -> skipKeyBytes(p, 2);
      case INTEGER, FLOAT, DATE -> skipKeyBytes(p, 4);
      case BIGINT, DOUBLE, TIME -> skipKeyBytes(p, 8);
      case TIMESTAMP -> skipKeyBytes(p, 12);
      case DECIMAL -> skipKeyDecimal(p, mask);
      case CHAR, VARCHAR, VARBINARY -> skipKeyEscaped(p, mask);
      default -> throw new IllegalStateException("Not a key type: " + type);
    };
  }

  private int skipKeyBytes(int p, int count) {
    if (count > keyLimit - p) {
      throw truncated(keyLimit - keyOffset);
    }
    return p + count;
  }

  private int skipKeyDecimal(int p, int mask) {
    int sign = keyByte(p++) ^ mask;
    if (sign == KeyEncoding.DECIMAL_ZERO) {
      return p;
    }
    if (sign != KeyEncoding.DECIMAL_POSITIVE && sign != KeyEncoding.DECIMAL_NEGATIVE) {
      throw CairnException.internal(
          "Corrupt decimal: expected a sign byte [0x10, 0x20 or 0x30], found [" + sign + "]");
    }
    int magnitudeMask = sign == KeyEncoding.DECIMAL_NEGATIVE ? mask ^ 0xFF : mask;
    p = skipKeyBytes(p, 4);
    while (true) {
      int pair = keyByte(p++) ^ magnitudeMask;
      if (pair == KeyEncoding.DECIMAL_DIGITS_END) {
        return p;
      }
      if (pair < 2 || pair > 101) {
        throw CairnException.internal(
            "Corrupt decimal: expected a digit pair [2..101], found [" + pair + "]");
      }
    }
  }

  private int skipKeyEscaped(int p, int mask) {
    while (true) {
      int b = keyByte(p++) ^ mask;
      if (b != KeyEncoding.ESCAPE) {
        continue;
      }
      int next = keyByte(p++) ^ mask;
      if (next == KeyEncoding.TERMINATOR) {
        return p;
      }
      if (next != KeyEncoding.ESCAPED_ZERO) {
        throw CairnException.internal(
            "Corrupt escaped string: expected [0x01 or 0xFF] after 0x00, found [" + next + "]");
      }
    }
  }

  private int keyByte(int p) {
    if (p >= keyLimit) {
      throw truncated(p - keyOffset);
    }
    return key[p] & 0xFF;
  }

  private long keyBigEndian(int p, int count, int mask) {
    long v = 0;
    for (int i = 0; i < count; i++) {
      v = (v << 8) | ((key[p + i] ^ mask) & 0xFF);
    }
    return v;
  }

  /** Reads the value cell's header: which entry holds each layout column. */
  private void parseValueHeader() {
    int p = valueOffset;
    RowCodec.checkVersion(valueByte(p++));
    readVarint(p); // schema version: addressing is by column id, so it is informational here
    long countLong = readVarint(varintEnd);
    p = varintEnd;
    if (countLong > valueLimit - p) {
      throw CairnException.internal(
          "Corrupt value cell: column count [" + countLong + "] exceeds the cell size");
    }
    int count = (int) countLong;
    int idsStart = p;
    if (count == lastCount && sameIds(idsStart)) {
      // the header of the last row parsed: the same columns, at the same entries
      p = idsStart + lastIdsLength;
      for (int k = 0; k < valueIds.length; k++) {
        starts[valueIndexes[k]] = lastStarts[k];
      }
    } else {
      p = parseIds(p, count);
      rememberIds(idsStart, p, count);
    }
    nullsStart = p;
    p += (count + 7) / 8;
    int width = valueByte(p++);
    if (width != 1 && width != 2 && width != 4) {
      throw CairnException.internal(
          "Corrupt value cell: expected offset width [1, 2 or 4], found [" + width + "]");
    }
    offsetWidth = width;
    offsetsStart = p;
    long data = (long) p + (long) count * width;
    if (data > valueLimit) {
      throw CairnException.internal("Corrupt value cell: offsets run past the end of the cell");
    }
    dataStart = (int) data;
    valueParsed = true;
  }

  /**
   * Reads the {@code count} column ids at {@code p} and places each value column: its entry, or
   * NULL when the cell lacks it; returns the position after the ids.
   */
  private int parseIds(int p, int count) {
    if (count > cellIds.length) {
      cellIds = new int[Math.max(count, 2 * cellIds.length)]; // grows to the widest cell, once
    }
    // merge the cell's ascending ids with the layout's
    int j = 0;
    long id = 0;
    boolean ascending = true;
    for (int i = 0; i < count; i++) {
      id += readVarint(p);
      p = varintEnd;
      int cellId = (int) id;
      cellIds[i] = cellId;
      ascending &= i == 0 || cellId > cellIds[i - 1];
      while (j < valueIds.length && valueIds[j] < cellId) {
        starts[valueIndexes[j++]] = NULL; // added after this cell was written
      }
      if (j < valueIds.length && valueIds[j] == cellId) {
        int index = valueIndexes[j++];
        entries[index] = i;
        starts[index] = UNRESOLVED;
      }
    }
    while (j < valueIds.length) {
      starts[valueIndexes[j++]] = NULL;
    }
    if (!ascending) {
      // malformed (a repeated id): pick the entries exactly as RowCodec's binary search does
      for (int k = 0; k < valueIds.length; k++) {
        int entry = Arrays.binarySearch(cellIds, 0, count, valueIds[k]);
        entries[valueIndexes[k]] = entry;
        starts[valueIndexes[k]] = entry < 0 ? NULL : UNRESOLVED;
      }
    }
    return p;
  }

  /** Whether the bytes at {@code idsStart} are the column ids of the last header parsed. */
  private boolean sameIds(int idsStart) {
    int n = lastIdsLength;
    if (n < 0 || idsStart + n > valueLimit) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (value.get(idsStart + i) != lastIds[i]) {
        return false;
      }
    }
    return true;
  }

  private void rememberIds(int idsStart, int idsEnd, int count) {
    int n = idsEnd - idsStart;
    if (n > lastIds.length) {
      lastIds = new byte[Math.max(n, 2 * lastIds.length)];
    }
    for (int i = 0; i < n; i++) {
      lastIds[i] = value.get(idsStart + i);
    }
    lastIdsLength = n;
    lastCount = count;
    for (int k = 0; k < valueIds.length; k++) {
      lastStarts[k] = starts[valueIndexes[k]];
    }
  }

  /** Reads the null bit and the span of a value column present in the cell. */
  private int resolveEntry(int column) {
    int entry = entries[column];
    if ((value.get(nullsStart + (entry >>> 3)) & (1 << (entry & 7))) != 0) {
      starts[column] = NULL;
      return NULL;
    }
    int width = offsetWidth;
    int begin = entry == 0 ? 0 : (int) bufferBigEndian(offsetsStart + (entry - 1) * width, width);
    int end = (int) bufferBigEndian(offsetsStart + entry * width, width);
    if (begin < 0 || begin > end || (long) dataStart + end > valueLimit) {
      throw CairnException.internal(
          "Corrupt value cell: entry [" + entry + "] spans [" + begin + ", " + end + ")");
    }
    starts[column] = dataStart + begin;
    ends[column] = dataStart + end;
    return dataStart + begin;
  }

  private int valueByte(int p) {
    if (p >= valueLimit) {
      throw truncated(p - valueOffset);
    }
    return value.get(p) & 0xFF;
  }

  /** Reads an unsigned LEB128 varint at {@code p}; leaves the position after it in varintEnd. */
  private long readVarint(int p) {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = valueByte(p++);
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        varintEnd = p;
        return result;
      }
    }
    throw CairnException.internal("Malformed varint ending at offset [" + (p - valueOffset) + "]");
  }

  private long bufferBigEndian(int p, int count) {
    long v = 0;
    for (int i = 0; i < count; i++) {
      v = (v << 8) | (value.get(p + i) & 0xFF);
    }
    return v;
  }

  /** The first {@code count} bytes of a value entry, big-endian (as RowCodec reads them). */
  private long valueBigEndian(int column, int start, int count) {
    checkEntryLength(column, start, count);
    return bufferBigEndian(start, count);
  }

  private void checkEntryLength(int column, int start, int count) {
    if (ends[column] - start < count) {
      throw truncated(ends[column] - valueOffset);
    }
  }

  // ---------------------------------------------------------------- decimals

  private void parseDecimal(int column) {
    if (decimalStamps[column] == generation) {
      return;
    }
    int start = locateNonNull(column);
    checkType(column, TypeName.DECIMAL);
    if (keyColumn[column]) {
      parseKeyDecimal(column, start);
    } else {
      parseValueDecimal(column, start);
    }
    decimalStamps[column] = generation;
  }

  /** A value entry: zig-zag varint scale, then the unscaled two's complement bytes. */
  private void parseValueDecimal(int column, int start) {
    int end = ends[column];
    long zigzag = 0;
    int p = start;
    for (int shift = 0; ; shift += 7) {
      if (shift >= 64 || p >= end) {
        decimalFits[column] = false; // malformed: getObject raises RowCodec's error
        return;
      }
      int b = value.get(p++) & 0xFF;
      zigzag |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    int length = end - p;
    if (length < 1 || length > 8) {
      decimalFits[column] = false;
      return;
    }
    long v = value.get(p); // sign-extended first byte
    for (int i = 1; i < length; i++) {
      v = (v << 8) | (value.get(p + i) & 0xFF);
    }
    unscaled[column] = v;
    scales[column] = (int) ((zigzag >>> 1) ^ -(zigzag & 1));
    decimalFits[column] = true;
  }

  /**
   * A key component (sign, exponent, base-100 digit pairs), normalised as KeyEncoding.decode does:
   * trailing zeros stripped, then the column's scale restored when that is exact.
   */
  private void parseKeyDecimal(int column, int start) {
    int mask = keyMasks[column];
    int sign = (key[start] ^ mask) & 0xFF;
    long u;
    long scale;
    if (sign == KeyEncoding.DECIMAL_ZERO) {
      u = 0;
      scale = 0;
    } else {
      boolean negative = sign == KeyEncoding.DECIMAL_NEGATIVE;
      int magnitudeMask = negative ? mask ^ 0xFF : mask;
      int exponent = (int) (keyBigEndian(start + 1, 4, magnitudeMask) ^ 0x8000_0000L);
      int p = start + 5;
      u = 0;
      int used = 0; // digits folded into u
      int zeros = 0; // zero digits seen since the last non-zero one
      int total = 0;
      boolean fits = true;
      while (true) {
        int pair = (key[p++] ^ magnitudeMask) & 0xFF;
        if (pair == KeyEncoding.DECIMAL_DIGITS_END) {
          break;
        }
        pair -= 2;
        for (int k = 0; k < 2; k++) {
          int d = k == 0 ? pair / 10 : pair % 10;
          total++;
          if (d == 0) {
            zeros++;
          } else if (fits && used + zeros + 1 <= 18) {
            u = u * POWERS_OF_TEN[zeros + 1] + d;
            used += zeros + 1;
            zeros = 0;
          } else {
            fits = false;
          }
        }
      }
      if (!fits || total == 0) {
        decimalFits[column] = false; // no digits at all is malformed: getObject raises the error
        return;
      }
      // value = digits * 10^-(total - exponent); the trailing zeros are stripped
      scale = u == 0 ? 0 : (long) total - exponent - zeros;
      if (negative) {
        u = -u;
      }
    }
    DataType type = types[column];
    if (type.precision() != DataType.UNSPECIFIED && scale <= type.scale()) {
      long shift = type.scale() - scale;
      if (u != 0) {
        if (shift > 18) {
          decimalFits[column] = false;
          return;
        }
        long p = POWERS_OF_TEN[(int) shift];
        long high = Math.multiplyHigh(u, p);
        long low = u * p;
        if ((high != 0 || low < 0) && (high != -1 || low >= 0)) {
          decimalFits[column] = false;
          return;
        }
        u = low;
      }
      scale = type.scale();
    }
    if (scale != (int) scale) {
      decimalFits[column] = false;
      return;
    }
    unscaled[column] = u;
    scales[column] = (int) scale;
    decimalFits[column] = true;
  }

  private void checkDecimalFits(int column) {
    if (!decimalFits[column]) {
      throw new IllegalStateException(
          "Decimal column [" + column + "] does not fit a long: check decimalFitsLong first");
    }
  }

  // ---------------------------------------------------------------- errors

  private void checkType(int column, TypeName expected) {
    if (typeNames[column] != expected) {
      throw wrongType(column, expected.name());
    }
  }

  private IllegalArgumentException wrongType(int column, String what) {
    return new IllegalArgumentException(
        "Column [" + column + "] of type [" + types[column].sql() + "] has no " + what + " value");
  }

  private static CairnException truncated(int offset) {
    return CairnException.internal(
        "Truncated encoding: expected a byte at offset [" + offset + "], found end");
  }
}
