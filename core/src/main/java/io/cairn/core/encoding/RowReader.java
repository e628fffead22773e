package io.cairn.core.encoding;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads the columns of one row at a time straight from its key and value bytes (format in this
 * package's package-info and docs/format-row.md), for scans that look at many rows and keep few.
 *
 * <h2>Zero-allocation contract</h2>
 *
 * One reader is created per scan; {@link #reset} then points it at each row in turn. After the
 * constructor, none of these allocate: {@link #reset}, {@link #isNull}, {@link #getLong}, {@link
 * #getDouble}, {@link #getEpochSecond}, {@link #getNano}, {@link #decimalFitsLong}, {@link
 * #getUnscaledLong}, {@link #getScale}, {@link #compareBytes} and {@link #hashBytes}. They parse
 * what they need into arrays owned by the reader: the value cell's header on the first access to a
 * value column of a row (column ids matched against the layout's ids, which are sorted once here; a
 * header whose bytes up to the null bitmap are those of the last header parsed is not parsed again;
 * arrays of the cell's ids and of those header bytes grow once to the widest cell of the scan), a
 * value column's span and null bit on its first access, the key's component spans on the first
 * access to a key column. A heap buffer with an accessible array is read through the array, several
 * bytes at a time. {@link #getObject}, {@link #getDecimal}, {@link #decodeInto} and {@link
 * #peekDecodedRow} build the same Java values as {@link RowCodec#decode} and so allocate; they are
 * the fallback for types and expressions without a primitive path. Errors (building an exception)
 * allocate too.
 *
 * <p>The bytes belong to the caller and must stay unchanged until the next {@link #reset}; the
 * reader keeps no copy (but of the last header's first bytes, to recognise the next). The value
 * buffer may be heap or direct and shared with other readers: only absolute reads are used, its
 * position, limit and byte order are never touched. Malformed bytes raise the same exceptions as
 * {@link RowCodec#decode} (INTERNAL_ERROR {@link CairnException}s with the same messages, though a
 * byte offset in a message may count from the start of the backing array rather than of the row),
 * on the first access that needs the malformed part: a malformed column that is never read goes
 * unnoticed, as with RowCodec's {@code needed}.
 *
 * <p>Not thread-safe.
 */
public final class RowReader {
  /** Span start of a NULL column (or a column the value cell lacks). */
  private static final int NULL = -1;

  /** Entry number of a value column the cell lacks (any negative entry number means that). */
  private static final int ABSENT = -1;

  // big-endian views of byte arrays and of buffers (any byte order; read-only heap buffers too)
  private static final VarHandle SHORT_BE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BUFFER_SHORT_BE =
      MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BUFFER_INT_BE =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BUFFER_LONG_BE =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

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

  /**
   * The length of a key whose components are all of fixed width and not NULL (a marker byte and the
   * value's bytes each), or -1 when a key column has a variable width; such a key's spans are at
   * fixed places ({@link #fixedKeyStarts}, {@link #fixedKeyWidths}, per key component).
   */
  private final int fixedKeyLength;

  private final int[] fixedKeyStarts;
  private final int[] fixedKeyWidths;

  /** Layout indexes of the value columns sorted by column id, and those ids (ascending). */
  private final int[] valueIndexes;

  private final int[] valueIds;

  // ---- the current row
  private byte[] key;
  private int keyOffset;
  private int keyLimit;
  private ByteBuffer value;

  /**
   * The value buffer's backing array when it has an accessible one, else null. Positions in the
   * value cell (valueOffset, valueLimit, the header's and the spans' positions) are indexes into
   * this array then (buffer index + arrayOffset), else absolute indexes into the buffer.
   */
  private byte[] array;

  private int arrayOffset;
  private int valueOffset;
  private int valueLimit;
  private boolean keyParsed;
  private boolean valueParsed;
  private long generation;

  /**
   * Per column: start of the value bytes (key: after the marker; value: the entry's first byte, a
   * position as described at {@link #array}), or NULL. Valid for a key column while keyParsed, for
   * a value column while its spanStamps entry equals generation.
   */
  private final int[] starts;

  /** Per column: end (exclusive) of the value bytes; key columns: of the whole component. */
  private final int[] ends;

  /** Per value column: the generation (row) its starts and ends were read for. */
  private final long[] spanStamps;

  /**
   * Per value column: its entry number in the cell whose header was parsed last, or negative
   * (ABSENT) when that cell lacks it.
   */
  private final int[] entries;

  /** The current cell's column ids. */
  private int[] cellIds = new int[16];

  /**
   * The header bytes before the null bitmap (format version, schema version, count and column ids)
   * of the last header parsed whole, and its count; {@link #entries} is what those bytes made of
   * the layout's columns. Rows of a table mostly carry the same header, and a header whose bytes
   * are the same bytes is the same header: it needs no parsing and no checking again.
   */
  private byte[] lastHeader = new byte[32];

  private int lastHeaderLength = -1;
  private int lastCount;

  /** The last header's 8 bytes at 0, at (length - 8) / 2 and at length - 8 (length >= 8). */
  private long header0;

  private long headerMiddle;
  private long headerLast;

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
    fixedKeyStarts = new int[keyIndexes.length];
    fixedKeyWidths = new int[keyIndexes.length];
    int fixed = 0;
    for (int k = 0; k < keyIndexes.length && fixed >= 0; k++) {
      int width = fixedKeyWidth(typeNames[keyIndexes[k]]);
      fixedKeyStarts[k] = fixed + 1;
      fixedKeyWidths[k] = width;
      fixed = width < 0 ? -1 : fixed + 1 + width;
    }
    fixedKeyLength = layout.hiddenRowId() ? -1 : fixed;
    valueIndexes = RowCodec.valueIndexesById(layout);
    valueIds = new int[valueIndexes.length];
    for (int i = 0; i < valueIndexes.length; i++) {
      valueIds[i] = layout.columns().get(valueIndexes[i]).columnId();
    }
    starts = new int[columnCount];
    ends = new int[columnCount];
    spanStamps = new long[columnCount];
    entries = new int[columnCount];
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
    if (value != this.value) { // a buffer's array and array offset never change
      useBuffer(value);
    }
    this.valueOffset = arrayOffset + valueOffset;
    this.valueLimit = this.valueOffset + valueLength;
    keyParsed = false;
    valueParsed = false;
    generation++;
  }

  private void useBuffer(ByteBuffer value) {
    this.value = value;
    array = value.hasArray() ? value.array() : null;
    arrayOffset = array != null ? value.arrayOffset() : 0;
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
    return keyColumn[column] ? keyLong(column, start) : valueLong(column, start);
  }

  private long keyLong(int column, int start) {
    TypeName type = typeNames[column];
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

  private long valueLong(int column, int start) {
    return switch (typeNames[column]) {
      case BOOLEAN -> valueInt8(column, start) != 0 ? 1 : 0;
      case TINYINT -> valueInt8(column, start);
      case SMALLINT -> valueInt16(column, start);
      case INTEGER, DATE -> valueInt32(column, start);
      case BIGINT, TIME, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> valueInt64(column, start);
      default -> throw wrongType(column, "a long");
    };
  }

  /** {@link #readNumbers} kinds: a DECIMAL as an unscaled long at a given scale. */
  public static final byte DECIMAL_AT_SCALE = 0;

  /** {@link #readNumbers} kinds: a column {@link #getLong} reads. */
  public static final byte LONG = 1;

  /** {@link #readNumbers} kinds: a column {@link #getDouble} reads. */
  public static final byte DOUBLE = 2;

  /** {@link #readNumbers} status: the value is in the vector. */
  public static final byte NUMBER_VALUE = 0;

  /** {@link #readNumbers} status: the column is NULL. */
  public static final byte NUMBER_NULL = 1;

  /**
   * {@link #readNumbers} status: a DECIMAL that does not fit a long at the scale asked for (or is
   * stored at a larger scale); read it with {@link #getDecimal}.
   */
  public static final byte NUMBER_UNFIT = 2;

  /**
   * Reads several numeric columns of the current row into position {@code row} of column vectors,
   * in one call: for each {@code i}, column {@code columns[i]} of kind {@code kinds[i]} sets {@code
   * status[i][row]} (NUMBER_VALUE, NUMBER_NULL or NUMBER_UNFIT) and, for a value, {@code
   * longs[i][row]} (DECIMAL_AT_SCALE: the unscaled value at scale {@code scales[i]}, exactly; LONG:
   * as {@link #getLong}) or {@code doubles[i][row]} (DOUBLE: as {@link #getDouble}). The same
   * values as the single-column accessors, without their per-call checks: a scan that reads many
   * columns of many rows (a batch of aggregate arguments) spends its time on the bytes.
   */
  public void readNumbers(
      int[] columns,
      byte[] kinds,
      int[] scales,
      byte[][] status,
      long[][] longs,
      double[][] doubles,
      int row) {
    for (int i = 0; i < columns.length; i++) {
      int column = columns[i];
      int start = keyColumn[column] ? locate(column) : valueStart(column);
      if (start == NULL) {
        status[i][row] = NUMBER_NULL;
        continue;
      }
      switch (kinds[i]) {
        case DECIMAL_AT_SCALE -> {
          long v = unscaledAt(column, start, scales[i]);
          status[i][row] = v == Long.MIN_VALUE ? NUMBER_UNFIT : NUMBER_VALUE;
          longs[i][row] = v;
        }
        case LONG -> {
          status[i][row] = NUMBER_VALUE;
          longs[i][row] = keyColumn[column] ? keyLong(column, start) : valueLong(column, start);
        }
        default -> {
          status[i][row] = NUMBER_VALUE;
          doubles[i][row] = getDouble(column);
        }
      }
    }
  }

  /**
   * The start of value column {@code column} in the current row (its end in {@link #ends}), or
   * NULL: {@link #resolveEntry} without remembering the span for later accessors.
   */
  private int valueStart(int column) {
    if (!valueParsed) {
      parseValueHeader();
    }
    int entry = entries[column];
    if (entry < 0 || (byteAt(nullsStart + (entry >>> 3)) & (1 << (entry & 7))) != 0) {
      return NULL;
    }
    int width = offsetWidth;
    int at = offsetsStart + entry * width;
    int begin;
    int end;
    if (width == 1) {
      begin = entry == 0 ? 0 : byteAt(at - 1);
      end = byteAt(at);
    } else {
      begin = entry == 0 ? 0 : offsetAt(at - width, width);
      end = offsetAt(at, width);
    }
    if (begin < 0 || begin > end || (long) dataStart + end > valueLimit) {
      throw CairnException.internal(
          "Corrupt value cell: entry [" + entry + "] spans [" + begin + ", " + end + ")");
    }
    ends[column] = dataStart + end;
    return dataStart + begin;
  }

  /**
   * A non-NULL DECIMAL column as an unscaled long at {@code scale}, exactly, or Long.MIN_VALUE when
   * it does not fit one there, is stored at a larger scale or would be shifted by more than 18
   * digits (what {@link #readNumbers} calls NUMBER_UNFIT).
   */
  public long getUnscaledAt(int column, int scale) {
    return unscaledAt(column, locateNonNull(column), scale);
  }

  /**
   * The DECIMAL column starting at {@code start} as an unscaled long at {@code scale}, or
   * Long.MIN_VALUE when it does not fit one there, is stored at a larger scale or would be shifted
   * by more than 18 digits. A value column with a one-byte scale and at most 8 bytes of unscaled
   * value (the common case) is read in place.
   */
  private long unscaledAt(int column, int start, int scale) {
    if (!keyColumn[column] && typeNames[column] == TypeName.DECIMAL) {
      int length = ends[column] - start - 1;
      int zigzag;
      if (length >= 1 && length <= 8 && (zigzag = byteAt(start)) < 0x80) {
        int stored = (zigzag >>> 1) ^ -(zigzag & 1);
        return stored > scale
            ? Long.MIN_VALUE
            : rescale(signedAt(start + 1, length), stored, scale);
      }
    }
    parseDecimal(column);
    int stored = scales[column];
    return !decimalFits[column] || stored > scale
        ? Long.MIN_VALUE
        : rescale(unscaled[column], stored, scale);
  }

  /**
   * {@code v} at scale {@code from} rescaled exactly to {@code to} (at least from), or
   * Long.MIN_VALUE when the result does not fit a long or the shift is more than 18 digits.
   */
  public static long rescale(long v, int from, int to) {
    if (from == to) {
      return v;
    }
    int digits = to - from;
    if (digits >= POWERS_OF_TEN.length) {
      return Long.MIN_VALUE;
    }
    long p = POWERS_OF_TEN[digits];
    long hi = Math.multiplyHigh(v, p);
    long lo = v * p;
    if ((hi != 0 || lo < 0) && (hi != -1 || lo >= 0)) {
      return Long.MIN_VALUE;
    }
    return lo;
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
      case FLOAT -> Float.intBitsToFloat(valueInt32(column, start));
      case DOUBLE -> Double.longBitsToDouble(valueInt64(column, start));
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
    return valueInt64(column, start);
  }

  /** The nano of second of a non-NULL TIMESTAMP column. */
  public int getNano(int column) {
    int start = locateNonNull(column);
    checkType(column, TypeName.TIMESTAMP);
    if (keyColumn[column]) {
      return (int) keyBigEndian(start + 8, 4, keyMasks[column]);
    }
    checkEntryLength(column, start, 12);
    return int32At(start + 8);
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
      while (end > start && byteAt(end - 1) == ' ') {
        end--;
      }
    }
    byte[] a = array;
    if (a != null) {
      return Arrays.compareUnsigned(a, start, end, other, 0, other.length);
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
   * Whether the bytes of a non-NULL CHAR, VARCHAR (UTF-8) or VARBINARY value column begin with
   * {@code prefix}. Allocates nothing.
   */
  public boolean startsWithBytes(int column, byte[] prefix) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if (keyColumn[column] || (!type.isString() && type != TypeName.VARBINARY)) {
      throw wrongType(column, "value bytes");
    }
    if (ends[column] - start < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (byteAt(start + i) != (prefix[i] & 0xFF)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the bytes of a non-NULL CHAR, VARCHAR (UTF-8) or VARBINARY value column hold {@code
   * runs} in order without overlapping: the first at the start when {@code anchoredStart}, the last
   * at the end when {@code anchoredEnd} (a LIKE pattern of literal runs between {@code %}s; no runs
   * and both anchored: the empty value only). Allocates nothing.
   */
  public boolean likeBytes(int column, byte[][] runs, boolean anchoredStart, boolean anchoredEnd) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if (keyColumn[column] || (!type.isString() && type != TypeName.VARBINARY)) {
      throw wrongType(column, "value bytes");
    }
    int end = ends[column];
    if (array != null) {
      return ByteRuns.like(array, start, end, runs, anchoredStart, anchoredEnd);
    }
    // a value in a buffer without an array: its bytes copied into the reader's own array
    int length = end - start;
    if (likeScratch.length < length) {
      likeScratch = new byte[Math.max(length, 2 * likeScratch.length)];
    }
    value.get(start, likeScratch, 0, length);
    return ByteRuns.like(likeScratch, 0, length, runs, anchoredStart, anchoredEnd);
  }

  /** {@link #likeBytes}'s copy of a value read from a buffer without an array. */
  private byte[] likeScratch = new byte[0];

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
    byte[] a = array;
    if (a != null) {
      for (int p = start; p < end; p++) {
        h = 31 * h + (a[p] & 0xFF);
      }
      return h;
    }
    for (int p = start; p < end; p++) {
      h = 31 * h + (value.get(p) & 0xFF);
    }
    return h;
  }

  /**
   * {@link #shortBytes} of a column whose bytes do not fit a long: more than 7, or a key column.
   */
  public static final long NOT_SHORT = -1;

  /**
   * The bytes of a non-NULL CHAR, VARCHAR (UTF-8) or VARBINARY value column as one long when there
   * are at most 7: their count in the top byte, the bytes big-endian in the low 7 (so columns with
   * equal bytes give equal longs, and different bytes different ones); {@link #NOT_SHORT} for
   * longer bytes and for key columns (whose bytes are escaped). Allocates nothing.
   */
  public long shortBytes(int column) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if (!type.isString() && type != TypeName.VARBINARY) {
      throw wrongType(column, "bytes");
    }
    return shortBytes(column, start, ends[column] - start);
  }

  /**
   * The number of bytes of a non-NULL CHAR, VARCHAR (UTF-8) or VARBINARY value column, as stored
   * (what {@link #copyValueBytes} copies).
   */
  public int valueBytesLength(int column) {
    int start = locateValueBytes(column); // locates the column: sets its end
    return ends[column] - start;
  }

  /**
   * Copies the bytes of a non-NULL CHAR, VARCHAR (UTF-8) or VARBINARY value column, as stored
   * ({@link #getObject}'s string is their UTF-8 decoding), into {@code dest} at {@code at}; returns
   * how many. Allocates nothing.
   */
  public int copyValueBytes(int column, byte[] dest, int at) {
    int start = locateValueBytes(column);
    int length = ends[column] - start;
    if (array != null) {
      System.arraycopy(array, start, dest, at, length);
    } else {
      value.get(start, dest, at, length);
    }
    return length;
  }

  private int locateValueBytes(int column) {
    int start = locateNonNull(column);
    TypeName type = typeNames[column];
    if ((!type.isString() && type != TypeName.VARBINARY) || keyColumn[column]) {
      throw wrongType(column, "value bytes");
    }
    return start;
  }

  /**
   * {@link #shortBytes} of a non-NULL CHAR or VARCHAR value column without its trailing spaces, as
   * a comparison that ignores them (a CHAR's) sees it: {@code 'MAIL '} of a CHAR(10) is the long of
   * {@code 'MAIL'}.
   */
  public long shortChars(int column) {
    int start = locateNonNull(column);
    if (!typeNames[column].isString()) {
      throw wrongType(column, "characters");
    }
    return shortBytes(column, start, endWithoutSpaces(column, start) - start);
  }

  /**
   * The bytes of a non-NULL CHAR or VARCHAR value column (not a key column) without its trailing
   * spaces, as {@link #shortChars} sees them, copied. Allocates.
   */
  public byte[] trimmedChars(int column) {
    int start = locateNonNull(column);
    if (!typeNames[column].isString() || keyColumn[column]) {
      throw wrongType(column, "value characters");
    }
    int end = endWithoutSpaces(column, start);
    byte[] out = new byte[end - start];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) byteAt(start + i);
    }
    return out;
  }

  /** The end of value column {@code column}'s bytes (from {@code start}) before trailing spaces. */
  private int endWithoutSpaces(int column, int start) {
    int end = ends[column];
    while (end > start && byteAt(end - 1) == ' ') {
      end--;
    }
    return end;
  }

  private long shortBytes(int column, int start, int length) {
    if (keyColumn[column] || length > 7) {
      return NOT_SHORT;
    }
    long bytes = 0;
    for (int i = 0; i < length; i++) {
      bytes = (bytes << 8) | byteAt(start + i);
    }
    return ((long) length << 56) | bytes;
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
    Object fast = keyColumn[column] ? fastKeyObject(column, start) : fastValueObject(column, start);
    if (fast != null) {
      return fast;
    }
    if (keyColumn[column]) {
      int marker = start - 1;
      ByteReader in = new ByteReader(key, marker, ends[column] - marker);
      return KeyEncoding.decode(
          in, types[column], keyMasks[column] == 0 ? SortOrder.ASC : SortOrder.DESC);
    }
    int length = ends[column] - start;
    ByteReader in;
    if (array != null) {
      in = new ByteReader(array, start, length);
    } else {
      byte[] copy = new byte[length];
      value.get(start, copy);
      in = new ByteReader(copy);
    }
    return RowCodec.readValue(in, types[column]);
  }

  /**
   * {@link #getObject} of a non-NULL key column of the commonest types read in place (no reader, no
   * copy of its bytes), or null for the others.
   */
  private Object fastKeyObject(int column, int start) {
    return switch (typeNames[column]) {
      case INTEGER -> (int) keyLong(column, start);
      case BIGINT -> keyLong(column, start);
      case DATE -> LocalDate.ofEpochDay(keyLong(column, start));
      default -> null;
    };
  }

  /**
   * {@link #getObject} of a non-NULL value column of the commonest types read in place, or null for
   * the others (and for a DECIMAL beyond a long, or a string in a buffer without an array).
   */
  private Object fastValueObject(int column, int start) {
    return switch (typeNames[column]) {
      case INTEGER -> valueInt32(column, start);
      case BIGINT -> valueInt64(column, start);
      case DATE -> LocalDate.ofEpochDay(valueInt32(column, start));
      case DECIMAL -> {
        parseDecimal(column);
        yield decimalFits[column] ? BigDecimal.valueOf(unscaled[column], scales[column]) : null;
      }
      case CHAR, VARCHAR ->
          array == null ? null : new String(array, start, ends[column] - start, UTF_8);
      default -> null;
    };
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

  /**
   * The start of a column's bytes in the current row, or NULL. The common case, a column located
   * before in this row, is kept tiny so that it inlines into every accessor.
   */
  private int locate(int column) {
    return spanStamps[column] == generation ? starts[column] : locateFirst(column);
  }

  /** {@link #locate} of a column not yet located in this row. */
  private int locateFirst(int column) {
    Objects.checkIndex(column, columnCount);
    if (keyColumn[column]) {
      if (!keyParsed) {
        parseKey();
      }
      return starts[column];
    }
    return resolveEntry(column);
  }

  private int locateNonNull(int column) {
    int start = locate(column);
    if (start == NULL) {
      throw new IllegalStateException("Column [" + column + "] is NULL: check isNull first");
    }
    return start;
  }

  /** The bytes of a key component's value of type {@code type}, or -1 when they vary. */
  private static int fixedKeyWidth(TypeName type) {
    return switch (type) {
      case BOOLEAN, TINYINT -> 1;
      case SMALLINT -> 2;
      case INTEGER, FLOAT, DATE -> 4;
      case BIGINT, DOUBLE, TIME -> 8;
      case TIMESTAMP -> 12;
      default -> -1;
    };
  }

  /**
   * Finds every key component's span, checking the bytes as KeyEncoding.decode does: at fixed
   * places when every component has a fixed width and the key has their length and value markers,
   * else component by component.
   */
  private void parseKey() {
    if (keyLimit - keyOffset == fixedKeyLength && parseFixedKey()) {
      return;
    }
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
    for (int index : keyIndexes) {
      spanStamps[index] = generation;
    }
    keyParsed = true;
  }

  /**
   * Sets the spans of a key of {@link #fixedKeyLength} bytes whose components all have a value
   * marker; false (nothing set) when one does not (a NULL component: the general parse decides).
   */
  private boolean parseFixedKey() {
    int[] indexes = keyIndexes;
    for (int k = 0; k < indexes.length; k++) {
      int index = indexes[k];
      int marker = (key[keyOffset + fixedKeyStarts[k] - 1] & 0xFF) ^ keyMasks[index];
      if (marker != KeyEncoding.VALUE_MARKER) {
        return false;
      }
    }
    for (int k = 0; k < indexes.length; k++) {
      int index = indexes[k];
      int start = keyOffset + fixedKeyStarts[k];
      starts[index] = start;
      ends[index] = start + fixedKeyWidths[k];
      spanStamps[index] = generation;
    }
    keyParsed = true;
    return true;
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

  /** The {@code count} (2, 4 or 8) key bytes at {@code p}, each XORed with mask, unsigned. */
  private long keyBigEndian(int p, int count, int mask) {
    long wide = mask == 0 ? 0 : -1L;
    return switch (count) {
      case 2 -> ((short) SHORT_BE.get(key, p) ^ wide) & 0xFFFFL;
      case 4 -> ((int) INT_BE.get(key, p) ^ wide) & 0xFFFF_FFFFL;
      case 8 -> (long) LONG_BE.get(key, p) ^ wide;
      default -> throw new IllegalArgumentException("count: " + count);
    };
  }

  /**
   * Reads the value cell's header: which entry holds each layout column (unless the header starts
   * with the bytes of the last header parsed), where the null bitmap, offsets and data begin.
   */
  private void parseValueHeader() {
    int p = valueOffset;
    int count;
    int n = lastHeaderLength;
    if (n > 0 && n <= valueLimit - p && sameHeader(p, n)) {
      // the version, count and column ids of the last header parsed, which passed every check of
      // the slow path (its count fits: each id takes a byte): the same columns at the same entries
      count = lastCount;
      p += n;
    } else {
      RowCodec.checkVersion(valueByte(p++));
      readVarint(p); // schema version: addressing is by column id, so it is informational here
      long countLong = readVarint(varintEnd);
      p = varintEnd;
      if (countLong > valueLimit - p) {
        throw CairnException.internal(
            "Corrupt value cell: column count [" + countLong + "] exceeds the cell size");
      }
      count = (int) countLong;
      lastHeaderLength = -1; // parseIds overwrites entries
      p = parseIds(p, count);
      rememberHeader(valueOffset, p, count);
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
   * Reads the {@code count} column ids at {@code p} and records each value column's entry, or
   * ABSENT when the cell lacks it; returns the position after the ids.
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
        entries[valueIndexes[j++]] = ABSENT; // added after this cell was written
      }
      if (j < valueIds.length && valueIds[j] == cellId) {
        entries[valueIndexes[j++]] = i;
      }
    }
    while (j < valueIds.length) {
      entries[valueIndexes[j++]] = ABSENT;
    }
    if (!ascending) {
      // malformed (a repeated id): pick the entries exactly as RowCodec's binary search does
      for (int k = 0; k < valueIds.length; k++) {
        entries[valueIndexes[k]] = Arrays.binarySearch(cellIds, 0, count, valueIds[k]);
      }
    }
    return p;
  }

  /**
   * Whether the {@code n} bytes at {@code p} are those of the last header parsed: compared 8 at a
   * time, the last 8 overlapping the ones before (a header is some 20 bytes; a call to
   * Arrays.equals costs more than the comparison).
   */
  private boolean sameHeader(int p, int n) {
    if (n >= 8 && n <= 24) {
      // three 8-byte windows cover the header (the middle one may overlap the others), compared
      // with the remembered header's without a branch per window
      int middle = (n - 8) >>> 1;
      return ((int64At(p) ^ header0)
              | (int64At(p + middle) ^ headerMiddle)
              | (int64At(p + n - 8) ^ headerLast))
          == 0;
    }
    byte[] last = lastHeader;
    if (n < 8) {
      for (int i = 0; i < n; i++) {
        if (byteAt(p + i) != (last[i] & 0xFF)) {
          return false;
        }
      }
      return true;
    }
    for (int i = 0; i < n - 8; i += 8) {
      if (int64At(p + i) != (long) LONG_BE.get(last, i)) {
        return false;
      }
    }
    return int64At(p + n - 8) == (long) LONG_BE.get(last, n - 8);
  }

  private void rememberHeader(int from, int to, int count) {
    int n = to - from;
    if (n > lastHeader.length) {
      lastHeader = new byte[Math.max(n, 2 * lastHeader.length)]; // grows to the widest, once
    }
    if (array != null) {
      System.arraycopy(array, from, lastHeader, 0, n);
    } else {
      value.get(from, lastHeader, 0, n);
    }
    lastHeaderLength = n;
    lastCount = count;
    if (n >= 8) {
      header0 = (long) LONG_BE.get(lastHeader, 0);
      headerMiddle = (long) LONG_BE.get(lastHeader, (n - 8) >>> 1);
      headerLast = (long) LONG_BE.get(lastHeader, n - 8);
    }
  }

  /**
   * Finds a value column's span in the current row: parses the header if not done yet, then reads
   * the column's null bit and end offsets. Returns the start, or NULL.
   */
  private int resolveEntry(int column) {
    if (!valueParsed) {
      parseValueHeader();
    }
    int entry = entries[column];
    int start;
    if (entry < 0 || (byteAt(nullsStart + (entry >>> 3)) & (1 << (entry & 7))) != 0) {
      start = NULL;
    } else {
      int width = offsetWidth;
      int at = offsetsStart + entry * width;
      int begin = entry == 0 ? 0 : offsetAt(at - width, width);
      int end = offsetAt(at, width);
      if (begin < 0 || begin > end || (long) dataStart + end > valueLimit) {
        throw CairnException.internal(
            "Corrupt value cell: entry [" + entry + "] spans [" + begin + ", " + end + ")");
      }
      start = dataStart + begin;
      ends[column] = dataStart + end;
    }
    starts[column] = start;
    spanStamps[column] = generation;
    return start;
  }

  /** An end offset of {@code width} (1, 2 or 4) bytes, big-endian; 4 bytes may read negative. */
  private int offsetAt(int p, int width) {
    return switch (width) {
      case 1 -> byteAt(p);
      case 2 -> int16At(p) & 0xFFFF;
      default -> int32At(p);
    };
  }

  /** A byte of the value cell, checked against the cell's end. */
  private int valueByte(int p) {
    if (p >= valueLimit) {
      throw truncated(p - valueOffset);
    }
    return byteAt(p);
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

  // Unchecked reads at a value-cell position (callers check the cell's or the entry's bounds).

  /** The byte at {@code p} as 0..255. */
  private int byteAt(int p) {
    byte[] a = array;
    return (a != null ? a[p] : value.get(p)) & 0xFF;
  }

  private short int16At(int p) {
    byte[] a = array;
    return a != null ? (short) SHORT_BE.get(a, p) : (short) BUFFER_SHORT_BE.get(value, p);
  }

  private int int32At(int p) {
    byte[] a = array;
    return a != null ? (int) INT_BE.get(a, p) : (int) BUFFER_INT_BE.get(value, p);
  }

  private long int64At(int p) {
    byte[] a = array;
    return a != null ? (long) LONG_BE.get(a, p) : (long) BUFFER_LONG_BE.get(value, p);
  }

  /**
   * The {@code length} (1..8) bytes at {@code p}, a big-endian two's complement number: one 8-byte
   * read (of the bytes from {@code p}, or of those ending at {@code p + length}) where the array or
   * buffer holds 8 bytes there, the unwanted bytes shifted out.
   */
  private long signedAt(int p, int length) {
    int shift = 64 - 8 * length;
    int size = array != null ? array.length : value.limit();
    if (p <= size - 8) {
      return int64At(p) >> shift;
    }
    if (p + length >= 8) {
      return int64At(p + length - 8) << shift >> shift;
    }
    long v = (byte) byteAt(p); // sign-extended first byte
    for (int i = 1; i < length; i++) {
      v = (v << 8) | byteAt(p + i);
    }
    return v;
  }

  // The first bytes of a value entry, big-endian (as RowCodec reads them), checked against its end.

  private int valueInt8(int column, int start) {
    checkEntryLength(column, start, 1);
    return (byte) byteAt(start);
  }

  private int valueInt16(int column, int start) {
    checkEntryLength(column, start, 2);
    return int16At(start);
  }

  private int valueInt32(int column, int start) {
    checkEntryLength(column, start, 4);
    return int32At(start);
  }

  private long valueInt64(int column, int start) {
    checkEntryLength(column, start, 8);
    return int64At(start);
  }

  private void checkEntryLength(int column, int start, int count) {
    if (ends[column] - start < count) {
      throw truncated(ends[column] - valueOffset);
    }
  }

  // ---------------------------------------------------------------- decimals

  private void parseDecimal(int column) {
    if (decimalStamps[column] != generation) {
      parseDecimalFirst(column);
    }
  }

  /** {@link #parseDecimal} of a column not yet parsed in this row. */
  private void parseDecimalFirst(int column) {
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
    int length = end - start - 1;
    if (length >= 1 && length <= 8) {
      int zigzag = byteAt(start);
      if (zigzag < 0x80) { // a one-byte scale, |scale| < 64: the common case
        unscaled[column] = signedAt(start + 1, length);
        scales[column] = (zigzag >>> 1) ^ -(zigzag & 1);
        decimalFits[column] = true;
        return;
      }
    }
    long zigzag = 0;
    int p = start;
    for (int shift = 0; ; shift += 7) {
      if (shift >= 64 || p >= end) {
        decimalFits[column] = false; // malformed: getObject raises RowCodec's error
        return;
      }
      int b = byteAt(p++);
      zigzag |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    length = end - p;
    if (length < 1 || length > 8) {
      decimalFits[column] = false;
      return;
    }
    unscaled[column] = signedAt(p, length);
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
