package io.cairn.core.expr;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Binary form of an {@link Expr} that is kept (an index's expression in the catalog, see {@code
 * docs/format-store.md}, "Catalog entries"). Big-endian ({@link DataOutput}); every node is a kind
 * byte, its type, then its body:
 *
 * <pre>
 *   type       u8 type id ({@link TypeName#id()}), i32 precision, i32 scale, u8 nullable (0/1)
 *   1 column   type, i32 column index
 *   2 literal  type, value (below)
 *   3 call     type, u16 operator id ({@link Op#id()}), i32 operand count, operands (nodes)
 *   value      u8 tag, then: 0 NULL; 1 FALSE; 2 TRUE; 3 TINYINT i8; 4 SMALLINT i16; 5 INTEGER i32;
 *              6 BIGINT (and intervals) i64; 7 FLOAT f32 bits; 8 DOUBLE f64 bits; 9 DECIMAL i32
 *              scale, bytes of the unscaled two's-complement value; 10 string, UTF-8 bytes; 11
 *              binary bytes; 12 DATE i64 epoch day; 13 TIME i64 nano of day; 14 TIMESTAMP i64
 *              epoch second (zone-less, read as UTC) and i32 nano
 *   bytes      i32 length, then that many bytes
 * </pre>
 *
 * <p>The tag names the value's Java class, so a literal reads back as exactly the value written.
 * Statement parameters are refused: a kept expression has no statement. Reading refuses nesting
 * deeper than {@value #MAX_DEPTH}, unknown kinds, tags, types and operators, and lengths beyond the
 * bytes left (so a damaged entry cannot make it allocate or recurse without bound).
 */
public final class ExprSerializer {
  /** The deepest nesting read or written. */
  public static final int MAX_DEPTH = 200;

  static final int COLUMN = 1;
  static final int LITERAL = 2;
  static final int CALL = 3;

  static final int NULL = 0;
  static final int FALSE = 1;
  static final int TRUE = 2;
  static final int BYTE = 3;
  static final int SHORT = 4;
  static final int INT = 5;
  static final int LONG = 6;
  static final int FLOAT = 7;
  static final int DOUBLE = 8;
  static final int DECIMAL = 9;
  static final int STRING = 10;
  static final int BYTES = 11;
  static final int DATE = 12;
  static final int TIME = 13;
  static final int TIMESTAMP = 14;

  private ExprSerializer() {}

  /** {@code expr} on its own. */
  public static byte[] serialize(Expr expr) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      write(out, expr);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * The expression {@link #serialize} wrote.
   *
   * @throws CairnException INTERNAL_ERROR when the bytes are not exactly one expression
   */
  public static Expr deserialize(byte[] data) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      Expr expr = read(in);
      if (in.available() > 0) {
        throw corrupt("[" + in.available() + "] bytes after the expression");
      }
      return expr;
    } catch (IOException e) {
      throw corrupt("cut short (" + e + ")");
    }
  }

  /**
   * Writes {@code expr}.
   *
   * @throws CairnException NOT_SUPPORTED for a statement parameter; STATEMENT_TOO_COMPLEX when
   *     nested deeper than {@value #MAX_DEPTH}
   */
  public static void write(DataOutput out, Expr expr) throws IOException {
    write(out, expr, 1);
  }

  private static void write(DataOutput out, Expr expr, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw new CairnException(
          ErrorCode.STATEMENT_TOO_COMPLEX,
          "An expression to keep: expected at most " + MAX_DEPTH + " levels, found more");
    }
    if (expr instanceof Expr.ColumnRef c) {
      out.writeByte(COLUMN);
      writeType(out, c.type());
      out.writeInt(c.index());
    } else if (expr instanceof Expr.Literal l) {
      out.writeByte(LITERAL);
      writeType(out, l.type());
      writeValue(out, l.value());
    } else if (expr instanceof Expr.Call c) {
      out.writeByte(CALL);
      writeType(out, c.type());
      out.writeShort(c.op().id());
      out.writeInt(c.operands().size());
      for (Expr operand : c.operands()) {
        write(out, operand, depth + 1);
      }
    } else {
      Expr.Param p = (Expr.Param) expr;
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "A statement parameter (?"
              + (p.index() + 1)
              + ") in an expression to keep: expected columns, literals and functions only");
    }
  }

  /** Writes a type: id, precision, scale, nullable. */
  public static void writeType(DataOutput out, DataType type) throws IOException {
    out.writeByte(type.name().id());
    out.writeInt(type.precision());
    out.writeInt(type.scale());
    out.writeBoolean(type.nullable());
  }

  /** Writes {@code value} (null or a class of {@link TypeName}) with its tag. */
  public static void writeValue(DataOutput out, Object value) throws IOException {
    if (value == null) {
      out.writeByte(NULL);
    } else if (value instanceof Boolean b) {
      out.writeByte(b ? TRUE : FALSE);
    } else if (value instanceof Byte b) {
      out.writeByte(BYTE);
      out.writeByte(b);
    } else if (value instanceof Short v) {
      out.writeByte(SHORT);
      out.writeShort(v);
    } else if (value instanceof Integer v) {
      out.writeByte(INT);
      out.writeInt(v);
    } else if (value instanceof Long v) {
      out.writeByte(LONG);
      out.writeLong(v);
    } else if (value instanceof Float v) {
      out.writeByte(FLOAT);
      out.writeInt(Float.floatToRawIntBits(v));
    } else if (value instanceof Double v) {
      out.writeByte(DOUBLE);
      out.writeLong(Double.doubleToRawLongBits(v));
    } else if (value instanceof BigDecimal v) {
      out.writeByte(DECIMAL);
      out.writeInt(v.scale());
      writeBytes(out, v.unscaledValue().toByteArray());
    } else if (value instanceof String v) {
      out.writeByte(STRING);
      writeString(out, v);
    } else if (value instanceof byte[] v) {
      out.writeByte(BYTES);
      writeBytes(out, v);
    } else if (value instanceof LocalDate v) {
      out.writeByte(DATE);
      out.writeLong(v.toEpochDay());
    } else if (value instanceof LocalTime v) {
      out.writeByte(TIME);
      out.writeLong(v.toNanoOfDay());
    } else if (value instanceof LocalDateTime v) {
      out.writeByte(TIMESTAMP);
      out.writeLong(v.toEpochSecond(ZoneOffset.UTC));
      out.writeInt(v.getNano());
    } else {
      throw CairnException.internal(
          "No kept form for a value of class [" + value.getClass().getName() + "]");
    }
  }

  /** Writes a length and the bytes. */
  public static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  /** Writes a string as {@link #writeBytes} of its UTF-8 (no length limit, unlike writeUTF). */
  public static void writeString(DataOutput out, String s) throws IOException {
    writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads one expression from {@code in}, whose {@link DataInputStream#available()} must be the
   * bytes left (as over a byte array).
   *
   * @throws CairnException INTERNAL_ERROR for bytes that are not an expression
   * @throws IOException when they end too soon
   */
  public static Expr read(DataInputStream in) throws IOException {
    return read(in, 1);
  }

  private static Expr read(DataInputStream in, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw corrupt("nested deeper than " + MAX_DEPTH + " levels");
    }
    int kind = in.readUnsignedByte();
    DataType type = readType(in);
    return switch (kind) {
      case COLUMN -> {
        int index = in.readInt();
        if (index < 0) {
          throw corrupt("a column index of [" + index + "]");
        }
        yield new Expr.ColumnRef(index, type);
      }
      case LITERAL -> new Expr.Literal(readValue(in), type);
      case CALL -> {
        Op op = op(in.readUnsignedShort());
        int count = in.readInt();
        if (count < 0 || count > in.available()) {
          throw corrupt("an operand count of [" + count + "]");
        }
        List<Expr> operands = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          operands.add(read(in, depth + 1));
        }
        yield new Expr.Call(op, operands, type);
      }
      default -> throw corrupt("a node kind of [" + kind + "]: expected 1, 2 or 3");
    };
  }

  private static Op op(int id) {
    try {
      return Op.fromId(id);
    } catch (CairnException e) {
      throw corrupt("an operator id of [" + id + "]");
    }
  }

  /** Reads what {@link #writeType} wrote. */
  public static DataType readType(DataInputStream in) throws IOException {
    int id = in.readUnsignedByte();
    TypeName name;
    try {
      name = TypeName.fromId(id);
    } catch (CairnException e) {
      throw corrupt("a type id of [" + id + "]");
    }
    int precision = in.readInt();
    int scale = in.readInt();
    return new DataType(name, precision, scale, in.readBoolean());
  }

  /** Reads what {@link #writeValue} wrote. */
  public static Object readValue(DataInputStream in) throws IOException {
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case NULL -> null;
      case FALSE -> Boolean.FALSE;
      case TRUE -> Boolean.TRUE;
      case BYTE -> in.readByte();
      case SHORT -> in.readShort();
      case INT -> in.readInt();
      case LONG -> in.readLong();
      case FLOAT -> Float.intBitsToFloat(in.readInt());
      case DOUBLE -> Double.longBitsToDouble(in.readLong());
      case DECIMAL -> {
        int scale = in.readInt();
        byte[] unscaled = readBytes(in);
        if (unscaled.length == 0) {
          throw corrupt("a DECIMAL without unscaled bytes");
        }
        yield new BigDecimal(new BigInteger(unscaled), scale);
      }
      case STRING -> new String(readBytes(in), StandardCharsets.UTF_8);
      case BYTES -> readBytes(in);
      case DATE -> {
        long day = in.readLong();
        try {
          yield LocalDate.ofEpochDay(day);
        } catch (java.time.DateTimeException e) {
          throw corrupt("a DATE of epoch day [" + day + "]");
        }
      }
      case TIME -> {
        long nanos = in.readLong();
        if (nanos < 0 || nanos >= 86_400_000_000_000L) {
          throw corrupt("a TIME of [" + nanos + "] nanoseconds");
        }
        yield LocalTime.ofNanoOfDay(nanos);
      }
      case TIMESTAMP -> {
        long seconds = in.readLong();
        int nanos = in.readInt();
        try {
          yield LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
        } catch (java.time.DateTimeException e) {
          throw corrupt("a TIMESTAMP of [" + seconds + "] seconds and [" + nanos + "] nanos");
        }
      }
      default -> throw corrupt("a value tag of [" + tag + "]: expected " + NULL + ".." + TIMESTAMP);
    };
  }

  /** Reads what {@link #writeBytes} wrote. */
  public static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw corrupt("a length of [" + length + "] with [" + in.available() + "] bytes left");
    }
    byte[] b = new byte[length];
    in.readFully(b);
    return b;
  }

  /** Reads what {@link #writeString} wrote. */
  public static String readString(DataInputStream in) throws IOException {
    return new String(readBytes(in), StandardCharsets.UTF_8);
  }

  private static CairnException corrupt(String what) {
    return new CairnException(
        ErrorCode.INTERNAL_ERROR, "Corrupt serialized expression: found " + what);
  }
}
