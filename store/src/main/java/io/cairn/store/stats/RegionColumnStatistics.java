package io.cairn.store.stats;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.Values;
import io.cairn.core.type.TypeName;
import io.cairn.kv.ColumnStatistics;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The column statistics of one region's rows, collected with its guide posts: per column of the
 * table's layout a {@link DistinctSketch}, the rows and nulls counted, the smallest and largest
 * value. Immutable; a collection replaces it, a split gives each daughter the parent's with half
 * its counts (the sketch is kept whole: merged again it counts each value once).
 *
 * @param layoutVersion the schema version of the layout the columns were decoded with
 */
public record RegionColumnStatistics(
    long regionId, int layoutVersion, List<Column> columns, long collectedAtMillis) {

  /** One column's counts in the region. */
  public record Column(DistinctSketch sketch, long rows, long nulls, Object min, Object max) {
    public Column {
      requireNonNull(sketch, "sketch is null");
    }
  }

  public RegionColumnStatistics {
    columns = List.copyOf(columns);
  }

  /** A split daughter's share: half the counts, the same sketches and bounds. */
  public RegionColumnStatistics half(long daughterId) {
    List<Column> out = new ArrayList<>(columns.size());
    for (Column c : columns) {
      out.add(new Column(c.sketch(), (c.rows() + 1) / 2, (c.nulls() + 1) / 2, c.min(), c.max()));
    }
    return new RegionColumnStatistics(daughterId, layoutVersion, out, collectedAtMillis);
  }

  /**
   * The table's column statistics from its regions' ({@code regions}, one per region; empty when a
   * region has none or they were decoded with different layouts).
   */
  public static List<ColumnStatistics> merge(List<RegionColumnStatistics> regions) {
    if (regions.isEmpty()) {
      return List.of();
    }
    int count = regions.get(0).columns().size();
    int version = regions.get(0).layoutVersion();
    for (RegionColumnStatistics r : regions) {
      if (r == null || r.columns().size() != count || r.layoutVersion() != version) {
        return List.of();
      }
    }
    List<ColumnStatistics> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      DistinctSketch sketch = new DistinctSketch();
      long rows = 0;
      long nulls = 0;
      Object min = null;
      Object max = null;
      for (RegionColumnStatistics r : regions) {
        Column c = r.columns().get(i);
        sketch.merge(c.sketch());
        rows += c.rows();
        nulls += c.nulls();
        min = Collector.smaller(min, c.min());
        max = Collector.larger(max, c.max());
      }
      long distinct = Math.min(sketch.estimate(), rows - nulls);
      out.add(new ColumnStatistics(i, rows, Math.max(0, distinct), nulls, min, max));
    }
    return out;
  }

  /**
   * The version of {@link #toBytes}'s format. 2: values hashed as {@link DistinctSketch#hash} does
   * since the collection reads bytes (sketches of version 1 hashed strings and decimals otherwise,
   * so they are not read back: the next collection counts again).
   */
  private static final int FORMAT = 2;

  /**
   * The statistics as bytes (SYSTEM.STATS keeps them): format version, layout version, collection
   * time, columns, then per column its rows, nulls, sketch registers, min and max (a tag byte
   * naming the value's class, then the value; tag 0: none).
   */
  public byte[] toBytes() {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeInt(layoutVersion);
      out.writeLong(collectedAtMillis);
      out.writeInt(columns.size());
      for (Column c : columns) {
        out.writeLong(c.rows());
        out.writeLong(c.nulls());
        out.write(c.sketch().registers());
        writeValue(out, c.min());
        writeValue(out, c.max());
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * The statistics of region {@code regionId} written by {@link #toBytes}; null when they are not
   * in this format (another version, or damaged): the region's next collection counts them again.
   */
  public static RegionColumnStatistics fromBytes(long regionId, byte[] bytes) {
    try (java.io.DataInputStream in =
        new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
      if (in.readByte() != FORMAT) {
        return null;
      }
      int layoutVersion = in.readInt();
      long collectedAt = in.readLong();
      int count = in.readInt();
      if (count < 0 || count > bytes.length / DistinctSketch.REGISTERS) {
        return null;
      }
      List<Column> columns = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        long rows = in.readLong();
        long nulls = in.readLong();
        byte[] registers = new byte[DistinctSketch.REGISTERS];
        in.readFully(registers);
        Object min = readValue(in);
        Object max = readValue(in);
        columns.add(new Column(DistinctSketch.of(registers), rows, nulls, min, max));
      }
      if (in.read() != -1) {
        return null;
      }
      return new RegionColumnStatistics(regionId, layoutVersion, columns, collectedAt);
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  private static void writeValue(java.io.DataOutputStream out, Object v)
      throws java.io.IOException {
    if (v instanceof Long x) {
      out.writeByte(1);
      out.writeLong(x);
    } else if (v instanceof Integer x) {
      out.writeByte(2);
      out.writeInt(x);
    } else if (v instanceof Short x) {
      out.writeByte(3);
      out.writeShort(x);
    } else if (v instanceof Byte x) {
      out.writeByte(4);
      out.writeByte(x);
    } else if (v instanceof Double x) {
      out.writeByte(5);
      out.writeDouble(x);
    } else if (v instanceof Float x) {
      out.writeByte(6);
      out.writeFloat(x);
    } else if (v instanceof java.math.BigDecimal x) {
      out.writeByte(7);
      writeBytes(out, x.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } else if (v instanceof String x) {
      out.writeByte(8);
      writeBytes(out, x.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } else if (v instanceof java.time.LocalDate x) {
      out.writeByte(9);
      out.writeLong(x.toEpochDay());
    } else if (v instanceof java.time.LocalDateTime x) {
      out.writeByte(10);
      out.writeLong(x.toEpochSecond(java.time.ZoneOffset.UTC));
      out.writeInt(x.getNano());
    } else if (v instanceof java.time.LocalTime x) {
      out.writeByte(11);
      out.writeLong(x.toNanoOfDay());
    } else if (v instanceof Boolean x) {
      out.writeByte(12);
      out.writeBoolean(x);
    } else if (v instanceof byte[] x) {
      out.writeByte(13);
      writeBytes(out, x);
    } else {
      out.writeByte(0); // none, or a class without a tag: unknown
    }
  }

  private static void writeBytes(java.io.DataOutputStream out, byte[] b)
      throws java.io.IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static byte[] readBytes(java.io.DataInputStream in) throws java.io.IOException {
    int n = in.readInt();
    if (n < 0 || n > in.available()) {
      throw new java.io.EOFException("a value of [" + n + "] bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  private static Object readValue(java.io.DataInputStream in) throws java.io.IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 0 -> null;
      case 1 -> in.readLong();
      case 2 -> in.readInt();
      case 3 -> in.readShort();
      case 4 -> in.readByte();
      case 5 -> in.readDouble();
      case 6 -> in.readFloat();
      case 7 ->
          new java.math.BigDecimal(
              new String(readBytes(in), java.nio.charset.StandardCharsets.UTF_8));
      case 8 -> new String(readBytes(in), java.nio.charset.StandardCharsets.UTF_8);
      case 9 -> java.time.LocalDate.ofEpochDay(in.readLong());
      case 10 ->
          java.time.LocalDateTime.ofEpochSecond(
              in.readLong(), in.readInt(), java.time.ZoneOffset.UTC);
      case 11 -> java.time.LocalTime.ofNanoOfDay(in.readLong());
      case 12 -> in.readBoolean();
      case 13 -> readBytes(in);
      default -> throw new java.io.IOException("an unknown value tag [" + tag + "]");
    };
  }

  /**
   * Counts a region's rows, fed one by one, per column. Reads the columns from the row's bytes
   * ({@link RowReader}) without decoding them: integers, dates, times, floating point numbers and
   * decimals that fit a long are hashed and compared as primitives, strings and byte strings as
   * bytes; a Java value is made only when a column's smallest or largest value changes (and for the
   * few other types). Not thread-safe; one per collection.
   */
  public static final class Collector {
    /** How a column is read. */
    private enum Kind {
      /** TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIME: {@link RowReader#getLong}. */
      LONG,
      /** FLOAT, DOUBLE: {@link RowReader#getDouble}. */
      DOUBLE,
      /** DECIMAL: unscaled long and scale when it fits, else a BigDecimal. */
      DECIMAL,
      /** CHAR, VARCHAR, VARBINARY: their bytes. */
      BYTES,
      /** The others: decoded. */
      OBJECT
    }

    private final RowReader reader;
    private final TypeName[] types;
    private final Kind[] kinds;
    private final int layoutVersion;
    private final DistinctSketch[] sketches;
    private final long[] nulls;
    private final Object[] min;
    private final Object[] max;
    private final long[] minLong;
    private final long[] maxLong;
    private final double[] minDouble;
    private final double[] maxDouble;
    private final int[] minScale;
    private final int[] maxScale;
    private final byte[][] minBytes;
    private final byte[][] maxBytes;
    private final boolean[] seen;
    private long rows;
    private boolean failed;

    public Collector(RowLayout layout) {
      this.reader = new RowReader(layout, null);
      this.layoutVersion = layout.schemaVersion();
      int n = layout.columnCount();
      types = new TypeName[n];
      kinds = new Kind[n];
      sketches = new DistinctSketch[n];
      for (int i = 0; i < n; i++) {
        sketches[i] = new DistinctSketch();
        types[i] = layout.columnType(i).name();
        kinds[i] = kind(types[i]);
      }
      nulls = new long[n];
      min = new Object[n];
      max = new Object[n];
      minLong = new long[n];
      maxLong = new long[n];
      minDouble = new double[n];
      maxDouble = new double[n];
      minScale = new int[n];
      maxScale = new int[n];
      minBytes = new byte[n][];
      maxBytes = new byte[n][];
      seen = new boolean[n];
    }

    private static Kind kind(TypeName type) {
      return switch (type) {
        case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIME -> Kind.LONG;
        case FLOAT, DOUBLE -> Kind.DOUBLE;
        case DECIMAL -> Kind.DECIMAL;
        case CHAR, VARCHAR, VARBINARY -> Kind.BYTES;
        default -> Kind.OBJECT;
      };
    }

    /** Adds a visible row: its key and value cell. */
    public void addRow(Bytes key, Bytes value) {
      byte[] v = value.peekArray();
      addRow(key.peekArray(), 0, key.length(), ByteBuffer.wrap(v), 0, v.length);
    }

    /**
     * Adds a visible row: its key {@code key[keyOffset, keyOffset + keyLength)} and value cell
     * {@code value[valueOffset, valueOffset + valueLength)} (absolute indexes), read before this
     * returns and not kept.
     */
    public void addRow(
        byte[] key,
        int keyOffset,
        int keyLength,
        ByteBuffer value,
        int valueOffset,
        int valueLength) {
      if (failed) {
        return;
      }
      try {
        reader.reset(key, keyOffset, keyLength, value, valueOffset, valueLength);
        for (int i = 0; i < kinds.length; i++) {
          if (reader.isNull(i)) {
            nulls[i]++;
            continue;
          }
          switch (kinds[i]) {
            case LONG -> addLong(i);
            case DOUBLE -> addDouble(i);
            case DECIMAL -> addDecimal(i);
            case BYTES -> addBytes(i);
            case OBJECT -> addObject(i, reader.getObject(i));
          }
        }
      } catch (RuntimeException e) {
        failed = true; // not rows of this layout (never expected): unknown rather than wrong
        return;
      }
      rows++;
    }

    private void addLong(int i) {
      long v = reader.getLong(i);
      sketches[i].addHash(DistinctSketch.hashLong(v));
      if (!seen[i]) {
        seen[i] = true;
        minLong[i] = v;
        maxLong[i] = v;
      } else if (v < minLong[i]) {
        minLong[i] = v;
      } else if (v > maxLong[i]) {
        maxLong[i] = v;
      }
    }

    private void addDouble(int i) {
      double v = reader.getDouble(i);
      sketches[i].addHash(DistinctSketch.hashDouble(v));
      if (!seen[i]) {
        seen[i] = true;
        minDouble[i] = v;
        maxDouble[i] = v;
      } else if (compareDoubles(v, minDouble[i]) < 0) {
        minDouble[i] = v;
      } else if (compareDoubles(v, maxDouble[i]) > 0) {
        maxDouble[i] = v;
      }
    }

    /** As {@link Values#compare} orders doubles: -0.0 equal to 0.0, NaN above everything. */
    private static int compareDoubles(double a, double b) {
      return a == b ? 0 : Double.compare(a, b);
    }

    private void addDecimal(int i) {
      if (!reader.decimalFitsLong(i)) {
        addObject(i, reader.getDecimal(i));
        return;
      }
      long unscaled = reader.getUnscaledLong(i);
      int scale = reader.getScale(i);
      sketches[i].addHash(DistinctSketch.hashDecimal(unscaled, scale));
      if (min[i] == null) {
        setMinDecimal(i, unscaled, scale);
        setMaxDecimal(i, unscaled, scale);
        return;
      }
      if (compareDecimal(unscaled, scale, minLong[i], minScale[i], min[i]) < 0) {
        setMinDecimal(i, unscaled, scale);
      } else if (compareDecimal(unscaled, scale, maxLong[i], maxScale[i], max[i]) > 0) {
        setMaxDecimal(i, unscaled, scale);
      }
    }

    /**
     * Compares a decimal with a bound: as longs when the bound fits a long ({@code boundScale} not
     * {@link Integer#MIN_VALUE}) at the same scale, else as BigDecimals.
     */
    private static int compareDecimal(
        long unscaled, int scale, long boundUnscaled, int boundScale, Object bound) {
      if (boundScale == scale) {
        return Long.compare(unscaled, boundUnscaled);
      }
      return BigDecimal.valueOf(unscaled, scale).compareTo((BigDecimal) bound);
    }

    private void setMinDecimal(int i, long unscaled, int scale) {
      min[i] = BigDecimal.valueOf(unscaled, scale);
      minLong[i] = unscaled;
      minScale[i] = scale;
    }

    private void setMaxDecimal(int i, long unscaled, int scale) {
      max[i] = BigDecimal.valueOf(unscaled, scale);
      maxLong[i] = unscaled;
      maxScale[i] = scale;
    }

    private void addBytes(int i) {
      sketches[i].addHash(DistinctSketch.hashBytesHash(reader.hashBytes(i)));
      if (minBytes[i] == null) {
        Object v = reader.getObject(i);
        min[i] = v;
        max[i] = v;
        minBytes[i] = bytesOf(v);
        maxBytes[i] = minBytes[i];
        return;
      }
      if (reader.compareBytes(i, minBytes[i], false) < 0) {
        min[i] = reader.getObject(i);
        minBytes[i] = bytesOf(min[i]);
      } else if (reader.compareBytes(i, maxBytes[i], false) > 0) {
        max[i] = reader.getObject(i);
        maxBytes[i] = bytesOf(max[i]);
      }
    }

    private static byte[] bytesOf(Object v) {
      return v instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : ((byte[]) v).clone();
    }

    /** A decoded value (a type without a primitive path, or a decimal that does not fit). */
    private void addObject(int i, Object v) {
      sketches[i].add(v);
      Object before = min[i];
      min[i] = smaller(min[i], v);
      max[i] = larger(max[i], v);
      if (kinds[i] == Kind.DECIMAL) {
        // the bounds are no more (or never were) longs at a known scale: compare as BigDecimals
        if (min[i] != before) {
          minScale[i] = Integer.MIN_VALUE;
        }
        if (max[i] == v) {
          maxScale[i] = Integer.MIN_VALUE;
        }
      }
    }

    /** The value of a LONG or DOUBLE column's bound as the row codec decodes it. */
    private Object bound(int i, long longValue, double doubleValue) {
      return switch (types[i]) {
        case TINYINT -> (byte) longValue;
        case SMALLINT -> (short) longValue;
        case INTEGER -> (int) longValue;
        case BIGINT -> longValue;
        case DATE -> LocalDate.ofEpochDay(longValue);
        case TIME -> LocalTime.ofNanoOfDay(longValue);
        case FLOAT -> (float) doubleValue;
        case DOUBLE -> doubleValue;
        default -> throw new IllegalStateException("No primitive bound for " + types[i]);
      };
    }

    /** The statistics counted; null when a row did not read. */
    public RegionColumnStatistics finish(long regionId, long atMillis) {
      if (failed) {
        return null;
      }
      List<Column> columns = new ArrayList<>(sketches.length);
      for (int i = 0; i < sketches.length; i++) {
        Object low = min[i];
        Object high = max[i];
        if (seen[i]) {
          low = bound(i, minLong[i], minDouble[i]);
          high = bound(i, maxLong[i], maxDouble[i]);
        }
        columns.add(new Column(sketches[i].copy(), rows, nulls[i], low, high));
      }
      return new RegionColumnStatistics(regionId, layoutVersion, columns, atMillis);
    }

    static Object smaller(Object a, Object b) {
      if (a == null) {
        return b;
      }
      if (b == null) {
        return a;
      }
      return compare(a, b) <= 0 ? a : b;
    }

    static Object larger(Object a, Object b) {
      if (a == null) {
        return b;
      }
      if (b == null) {
        return a;
      }
      return compare(a, b) >= 0 ? a : b;
    }

    private static int compare(Object a, Object b) {
      return Values.compare(a, b);
    }
  }
}
