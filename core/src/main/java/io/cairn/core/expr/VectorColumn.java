package io.cairn.core.expr;

import io.cairn.core.encoding.RowReader;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;

/**
 * A column of a run of rows as a vector reads it: layout column {@code column} read as {@code kind}
 * ({@link RowReader#DECIMAL_AT_SCALE} at {@code scale}, {@link RowReader#LONG} or {@link
 * RowReader#DOUBLE}, as {@link RowReader#readNumbers} reads it; or {@link #SHORT_BYTES}, a string
 * or binary column's {@link RowReader#shortBytes}, or {@link #SHORT_CHARS}, a string column's
 * {@link RowReader#shortChars}, NUMBER_UNFIT when it does not fit a long; or {@link #BYTES}, a
 * string or binary column's bytes however long; scale 0 but for a DECIMAL and a CHAR(n)).
 */
public record VectorColumn(int column, byte kind, int scale) {
  /** The kind of a CHAR, VARCHAR or VARBINARY column read as {@link RowReader#shortBytes}. */
  public static final byte SHORT_BYTES = 3;

  /**
   * The kind of a CHAR or VARCHAR column read as {@link RowReader#shortChars} (without trailing
   * spaces, as CHAR comparisons see it), for filters; its {@code scale} is a CHAR(n)'s n (0: a
   * VARCHAR's).
   */
  public static final byte SHORT_CHARS = 4;

  /**
   * The kind of a CHAR, VARCHAR or VARBINARY value column read as its bytes as stored, of any
   * length ({@link RowReader#copyValueBytes}): a row's long is the offset (high 32 bits) and the
   * length (low 32 bits) of its bytes in the vector's {@link NumberVector#heap}. For reading whole
   * rows from vectors ({@link #rowsOf}); filters and groupings compare SHORT_BYTES and SHORT_CHARS.
   */
  public static final byte BYTES = 5;

  /** The long of a {@link #BYTES} row: its bytes' {@code offset} and {@code length} in the heap. */
  public static long slice(int offset, int length) {
    return (long) offset << 32 | length;
  }

  /** The offset in the heap of a {@link #BYTES} row's bytes, from its long. */
  public static int sliceOffset(long slice) {
    return (int) (slice >>> 32);
  }

  /** The length of a {@link #BYTES} row's bytes, from its long. */
  public static int sliceLength(long slice) {
    return (int) slice;
  }

  /**
   * The top bit of a SHORT_CHARS row's long for a value of more than 7 bytes: the low 32 bits are
   * its index among the vector's {@link NumberVector#strings} (a short value's long has its length,
   * at most 7, in the top byte).
   */
  public static final long LONG_STRING = 1L << 63;

  /**
   * Whether {@code kind} holds the bytes of a string or binary value (SHORT_BYTES, SHORT_CHARS).
   */
  public static boolean isShort(byte kind) {
    return kind == SHORT_BYTES || kind == SHORT_CHARS;
  }

  public VectorColumn {
    if (column < 0) {
      throw new IllegalArgumentException("column: expected >= 0, found [" + column + "]");
    }
    if (kind != RowReader.DECIMAL_AT_SCALE
        && kind != RowReader.LONG
        && kind != RowReader.DOUBLE
        && !isShort(kind)
        && kind != BYTES) {
      throw new IllegalArgumentException("kind: expected 0 to 5, found [" + kind + "]");
    }
    if (scale < 0 || (kind != RowReader.DECIMAL_AT_SCALE && kind != SHORT_CHARS && scale != 0)) {
      throw new IllegalArgumentException(
          "scale: expected >= 0 for a DECIMAL or CHAR and 0 otherwise, found [" + scale + "]");
    }
  }

  /**
   * How a column of {@code type} at layout index {@code column} is read as a number vector: DECIMAL
   * at its declared scale (s at most 18), integers, intervals, DATE, TIME and BOOLEAN as longs,
   * FLOAT and DOUBLE as doubles; null for other types.
   */
  public static VectorColumn numbersOf(int column, DataType type) {
    return switch (type.name()) {
      case BOOLEAN,
              TINYINT,
              SMALLINT,
              INTEGER,
              BIGINT,
              DATE,
              TIME,
              INTERVAL_YEAR_MONTH,
              INTERVAL_DAY_TIME ->
          new VectorColumn(column, RowReader.LONG, 0);
      case FLOAT, DOUBLE -> new VectorColumn(column, RowReader.DOUBLE, 0);
      case DECIMAL ->
          type.hasLength()
                  && type.scale() >= 0
                  && type.scale() <= 18
                  && type.scale() <= type.precision()
              ? new VectorColumn(column, RowReader.DECIMAL_AT_SCALE, type.scale())
              : null;
      default -> null;
    };
  }

  /**
   * How layout column {@code column} of {@code type} is read as a vector when whole rows are read
   * from vectors: {@link #numbersOf}, or for a CHAR, VARCHAR or VARBINARY value column (not a key
   * column: its bytes are escaped) as {@link #BYTES}, which holds every value however long; null
   * for other columns.
   */
  public static VectorColumn rowsOf(int column, DataType type, boolean keyColumn) {
    VectorColumn numbers = numbersOf(column, type);
    if (numbers != null || keyColumn) {
      return numbers;
    }
    TypeName name = type.name();
    return name.isString() || name == TypeName.VARBINARY
        ? new VectorColumn(column, BYTES, 0)
        : null;
  }

  /**
   * How a string or binary value column is read as a vector of its bytes: a CHAR(n) as SHORT_CHARS
   * (trailing spaces trimmed), a VARCHAR as SHORT_CHARS when {@code trimmed} (for a comparison that
   * ignores trailing spaces) else SHORT_BYTES, a VARBINARY as SHORT_BYTES; null for other types.
   */
  public static VectorColumn bytesOf(int column, DataType type, boolean trimmed) {
    TypeName name = type.name();
    if (name == TypeName.CHAR) {
      return new VectorColumn(column, SHORT_CHARS, type.hasLength() ? type.precision() : 0);
    }
    if (name.isString()) {
      return new VectorColumn(column, trimmed ? SHORT_CHARS : SHORT_BYTES, 0);
    }
    return name == TypeName.VARBINARY ? new VectorColumn(column, SHORT_BYTES, 0) : null;
  }

  /**
   * Row {@code row} of {@code vector} (this column's, of layout type {@code type}) as {@link
   * RowReader#getObject} returns the column: null for NULL; a DECIMAL at this column's scale (the
   * declared one, at which SQL writes store it); a string or bytes from SHORT_BYTES or BYTES. Not
   * for NUMBER_UNFIT rows, nor for SHORT_CHARS (without the trailing spaces a value has).
   */
  public Object objectAt(NumberVector vector, int row, TypeName type) {
    if (vector.status != null && vector.status[row] != RowReader.NUMBER_VALUE) {
      if (vector.status[row] == RowReader.NUMBER_NULL) {
        return null;
      }
      throw new IllegalStateException("Row [" + row + "] of " + this + " is not in its vector");
    }
    if (kind == RowReader.DOUBLE) {
      double d = vector.doubles[row];
      return type == TypeName.FLOAT ? (Object) (float) d : (Object) d;
    }
    if (kind == SHORT_CHARS) {
      throw new IllegalArgumentException(
          "Column " + this + ": SHORT_CHARS drops trailing spaces, read rows from BYTES");
    }
    if (kind == BYTES) {
      long v = vector.longs[row];
      int offset = sliceOffset(v);
      int length = sliceLength(v);
      return type == TypeName.VARBINARY
          ? Arrays.copyOfRange(vector.heap, offset, offset + length)
          : new String(vector.heap, offset, length, StandardCharsets.UTF_8);
    }
    return valueOf(vector.longs[row], kind == SHORT_BYTES, type, scale);
  }

  /** The {@link RowReader#shortBytes} long of {@code bytes} (at most 7). */
  static long shortBytesOf(byte[] bytes) {
    long v = 0;
    for (byte b : bytes) {
      v = (v << 8) | (b & 0xFF);
    }
    return ((long) bytes.length << 56) | v;
  }

  /** Byte {@code i} of the {@code length} bytes a {@link RowReader#shortBytes} long holds. */
  private static byte shortByte(long v, int length, int i) {
    return (byte) (v >>> (8 * (length - 1 - i)));
  }

  /**
   * The value of a column of {@code type} (as {@link RowReader#getObject} returns it) whose long is
   * {@code v}: its {@link RowReader#getLong}, a DECIMAL unscaled at {@code scale}, or with {@code
   * shortBytes} a string's or bytes' {@link RowReader#shortBytes} (never NOT_SHORT).
   */
  public static Object valueOf(long v, boolean shortBytes, TypeName type, int scale) {
    if (shortBytes) {
      int length = (int) (v >>> 56);
      byte[] bytes = new byte[length];
      for (int i = 0; i < length; i++) {
        bytes[i] = shortByte(v, length, i);
      }
      return type == TypeName.VARBINARY ? bytes : new String(bytes, StandardCharsets.UTF_8);
    }
    return switch (type) {
      case DECIMAL -> BigDecimal.valueOf(v, scale);
      case BOOLEAN -> v != 0;
      case TINYINT -> (byte) v;
      case SMALLINT -> (short) v;
      case INTEGER -> (int) v;
      case DATE -> LocalDate.ofEpochDay(v);
      case TIME -> LocalTime.ofNanoOfDay(v);
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> v;
      default -> throw new IllegalArgumentException("No long of a " + type + " column");
    };
  }
}
