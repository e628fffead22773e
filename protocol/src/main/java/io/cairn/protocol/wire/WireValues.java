package io.cairn.protocol.wire;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * Cairn's tagged value encoding: one tag byte naming the value's Java class (see {@link
 * io.cairn.core.type.TypeName} for the class of each SQL type), then the value in protobuf's varint
 * and fixed encodings. Values decode to exactly the class and value they were encoded from, so a
 * row needs no type information to travel; parameters, literals and result rows all use it. Tags
 * are persistent (they are part of protocol version 1): never renumber.
 */
public final class WireValues {
  static final int NULL = 0;
  static final int FALSE = 1;
  static final int TRUE = 2;
  static final int BYTE = 3;
  static final int SHORT = 4;
  static final int INT = 5;
  static final int LONG = 6;
  static final int FLOAT = 7;
  static final int DOUBLE = 8;

  /** Scale (sint32) and an unscaled value that fits a long (sint64). */
  static final int DECIMAL_LONG = 9;

  /** Scale (sint32) and the unscaled value's two's-complement bytes. */
  static final int DECIMAL_BIG = 10;

  static final int STRING = 11;
  static final int BYTES = 12;

  /** Days since 1970-01-01 (sint64). */
  static final int DATE = 13;

  /** Nanoseconds of the day (uint64). */
  static final int TIME = 14;

  /** Seconds since 1970-01-01T00:00 (sint64, zone-less) and nanoseconds (uint32). */
  static final int TIMESTAMP = 15;

  private WireValues() {}

  /** Writes {@code value} (null or a class of {@link io.cairn.core.type.TypeName}). */
  public static void write(CodedOutputStream out, Object value) throws IOException {
    if (value == null) {
      out.writeRawByte(NULL);
    } else if (value instanceof Long v) {
      out.writeRawByte(LONG);
      out.writeSInt64NoTag(v);
    } else if (value instanceof Integer v) {
      out.writeRawByte(INT);
      out.writeSInt32NoTag(v);
    } else if (value instanceof String v) {
      out.writeRawByte(STRING);
      out.writeStringNoTag(v);
    } else if (value instanceof BigDecimal v) {
      writeDecimal(out, v);
    } else if (value instanceof Double v) {
      out.writeRawByte(DOUBLE);
      out.writeDoubleNoTag(v);
    } else if (value instanceof LocalDate v) {
      out.writeRawByte(DATE);
      out.writeSInt64NoTag(v.toEpochDay());
    } else if (value instanceof Boolean v) {
      out.writeRawByte(v ? TRUE : FALSE);
    } else if (value instanceof LocalDateTime v) {
      out.writeRawByte(TIMESTAMP);
      out.writeSInt64NoTag(v.toEpochSecond(ZoneOffset.UTC));
      out.writeUInt32NoTag(v.getNano());
    } else if (value instanceof LocalTime v) {
      out.writeRawByte(TIME);
      out.writeUInt64NoTag(v.toNanoOfDay());
    } else if (value instanceof byte[] v) {
      out.writeRawByte(BYTES);
      out.writeByteArrayNoTag(v);
    } else if (value instanceof Short v) {
      out.writeRawByte(SHORT);
      out.writeSInt32NoTag(v);
    } else if (value instanceof Byte v) {
      out.writeRawByte(BYTE);
      out.writeSInt32NoTag(v);
    } else if (value instanceof Float v) {
      out.writeRawByte(FLOAT);
      out.writeFloatNoTag(v);
    } else {
      throw CairnException.internal(
          "No wire encoding for a value of class [" + value.getClass().getName() + "]");
    }
  }

  private static void writeDecimal(CodedOutputStream out, BigDecimal v) throws IOException {
    BigInteger unscaled = v.unscaledValue();
    if (unscaled.bitLength() < 64) {
      out.writeRawByte(DECIMAL_LONG);
      out.writeSInt32NoTag(v.scale());
      out.writeSInt64NoTag(unscaled.longValue());
    } else {
      out.writeRawByte(DECIMAL_BIG);
      out.writeSInt32NoTag(v.scale());
      out.writeByteArrayNoTag(unscaled.toByteArray());
    }
  }

  /**
   * Reads one value.
   *
   * @throws CairnException PROTOCOL_ERROR for an unknown tag or a value cut short
   */
  public static Object read(CodedInputStream in) throws IOException {
    int tag = in.readRawByte() & 0xFF;
    return switch (tag) {
      case NULL -> null;
      case FALSE -> Boolean.FALSE;
      case TRUE -> Boolean.TRUE;
      case BYTE -> (byte) readBounded(in, Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT");
      case SHORT -> (short) readBounded(in, Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
      case INT -> in.readSInt32();
      case LONG -> in.readSInt64();
      case FLOAT -> in.readFloat();
      case DOUBLE -> in.readDouble();
      case DECIMAL_LONG -> {
        int scale = in.readSInt32();
        yield BigDecimal.valueOf(in.readSInt64(), scale);
      }
      case DECIMAL_BIG -> {
        int scale = in.readSInt32();
        byte[] unscaled = in.readByteArray();
        if (unscaled.length == 0) {
          throw malformed("a DECIMAL with no unscaled bytes");
        }
        yield new BigDecimal(new BigInteger(unscaled), scale);
      }
      case STRING -> in.readStringRequireUtf8();
      case BYTES -> in.readByteArray();
      case DATE ->
          LocalDate.ofEpochDay(readRange(in.readSInt64(), -365_243_219_162L, 365_241_780_471L));
      case TIME -> {
        long nanos = in.readUInt64();
        if (nanos < 0 || nanos >= 86_400_000_000_000L) {
          throw malformed("a TIME of [" + nanos + "] nanoseconds");
        }
        yield LocalTime.ofNanoOfDay(nanos);
      }
      case TIMESTAMP -> {
        long seconds =
            readRange(in.readSInt64(), -31_557_014_167_219_200L, 31_556_889_864_403_199L);
        int nanos = in.readUInt32();
        if (nanos < 0 || nanos > 999_999_999) {
          throw malformed("a TIMESTAMP with [" + nanos + "] nanoseconds");
        }
        yield LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
      }
      default ->
          throw malformed(
              "an unknown value tag: expected 0.." + TIMESTAMP + ", found [" + tag + "]");
    };
  }

  private static int readBounded(CodedInputStream in, int min, int max, String type)
      throws IOException {
    int v = in.readSInt32();
    if (v < min || v > max) {
      throw malformed("a " + type + " of [" + v + "]");
    }
    return v;
  }

  private static long readRange(long v, long min, long max) {
    if (v < min || v > max) {
      throw malformed("a date-time out of range: [" + v + "]");
    }
    return v;
  }

  /** One value as its own byte string (a parameter or a literal). */
  public static ByteString encode(Object value) {
    ByteString.Output bytes = ByteString.newOutput(16);
    try {
      CodedOutputStream out = CodedOutputStream.newInstance(bytes, 64);
      write(out, value);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteString();
  }

  /**
   * The value of a byte string written by {@link #encode}.
   *
   * @throws CairnException PROTOCOL_ERROR when it is not exactly one value
   */
  public static Object decode(ByteString bytes) {
    try {
      CodedInputStream in = bytes.newCodedInput();
      Object value = read(in);
      if (!in.isAtEnd()) {
        throw malformed("bytes after a value");
      }
      return value;
    } catch (IOException e) {
      throw malformed("a value cut short (" + e.getMessage() + ")");
    }
  }

  static CairnException malformed(String what) {
    return new CairnException(ErrorCode.PROTOCOL_ERROR, "Malformed message: found " + what);
  }
}
