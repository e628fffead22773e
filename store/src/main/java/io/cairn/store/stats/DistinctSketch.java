package io.cairn.store.stats;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;

/**
 * A HyperLogLog sketch of distinct values (Flajolet et al., with linear counting for small
 * cardinalities): {@value #REGISTERS} one-byte registers, about 1.6% standard error, mergeable (the
 * union of two sketches is their registers' maximum, so a value counted in several regions counts
 * once in the table's). Values are hashed to 64 bits by {@link #hash}. Not thread-safe while fed;
 * immutable once {@link #copy copied} into statistics.
 */
public final class DistinctSketch {
  /** log2 of the register count. */
  static final int PRECISION = 12;

  static final int REGISTERS = 1 << PRECISION;

  private final byte[] registers;

  public DistinctSketch() {
    this(new byte[REGISTERS]);
  }

  private DistinctSketch(byte[] registers) {
    this.registers = registers;
  }

  /** A sketch of these registers (as {@link #registers()} gave them). */
  public static DistinctSketch of(byte[] registers) {
    if (registers.length != REGISTERS) {
      throw new IllegalArgumentException(
          "Sketch registers: expected [" + REGISTERS + "], found [" + registers.length + "]");
    }
    return new DistinctSketch(registers.clone());
  }

  /** Adds a value's 64-bit hash. */
  public void addHash(long hash) {
    int index = (int) (hash >>> (64 - PRECISION));
    long rest = hash << PRECISION | (1L << (PRECISION - 1)); // a sentinel bounds the run
    int rank = Long.numberOfLeadingZeros(rest) + 1;
    if (rank > registers[index]) {
      registers[index] = (byte) rank;
    }
  }

  /** Adds a non-null value as the row codec decodes it. */
  public void add(Object value) {
    addHash(hash(value));
  }

  /** Adds every value {@code other} counted. */
  public void merge(DistinctSketch other) {
    for (int i = 0; i < REGISTERS; i++) {
      if (other.registers[i] > registers[i]) {
        registers[i] = other.registers[i];
      }
    }
  }

  public DistinctSketch copy() {
    return new DistinctSketch(registers.clone());
  }

  /** A copy of the registers. */
  public byte[] registers() {
    return registers.clone();
  }

  /** The estimated count of distinct values added. */
  public long estimate() {
    double sum = 0;
    int zeros = 0;
    for (byte r : registers) {
      sum += Math.scalb(1.0, -r);
      if (r == 0) {
        zeros++;
      }
    }
    double m = REGISTERS;
    double alpha = 0.7213 / (1 + 1.079 / m);
    double raw = alpha * m * m / sum;
    if (raw <= 2.5 * m && zeros > 0) {
      return Math.round(m * Math.log(m / zeros)); // linear counting
    }
    return Math.round(raw);
  }

  /**
   * A 64-bit hash of a decoded value, equal for equal values and equal to what the collection
   * computes from a row's bytes ({@link #hashLong}, {@link #hashDouble}, {@link #hashDecimal},
   * {@link #hashBytesHash}): integers, dates (epoch day) and times (nano of day) by their long,
   * floating point numbers by their double, decimals by their numeric value (without trailing
   * zeros), strings by the {@code 31 * h + b} hash of their UTF-8 bytes (as {@code
   * RowReader.hashBytes}), byte arrays likewise, anything else by its {@code hashCode}; each mixed
   * by MurmurHash3's finalizer.
   */
  public static long hash(Object value) {
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return hashLong(((Number) value).longValue());
    }
    if (value instanceof Double d) {
      return hashDouble(d);
    }
    if (value instanceof Float f) {
      return hashDouble(f.doubleValue());
    }
    if (value instanceof BigDecimal b) {
      BigDecimal s = b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
      if (s.unscaledValue().bitLength() < Long.SIZE) {
        return hashDecimal(s.unscaledValue().longValue(), s.scale());
      }
      return mix(s.unscaledValue().hashCode() * 31L + s.scale())
          ^ mix(s.unscaledValue().longValue());
    }
    if (value instanceof CharSequence s) {
      return hashBytesHash(polynomial(s.toString().getBytes(StandardCharsets.UTF_8)));
    }
    if (value instanceof byte[] b) {
      return hashBytesHash(polynomial(b));
    }
    if (value instanceof LocalDate d) {
      return hashLong(d.toEpochDay());
    }
    if (value instanceof LocalTime t) {
      return hashLong(t.toNanoOfDay());
    }
    return mix(value.hashCode());
  }

  /** The hash of an integer, a date's epoch day or a time's nano of day. */
  public static long hashLong(long value) {
    return mix(value);
  }

  /** The hash of a FLOAT (widened) or DOUBLE. */
  public static long hashDouble(double value) {
    return mix(Double.doubleToLongBits(value == 0.0 ? 0.0 : value));
  }

  /** The hash of the decimal {@code unscaled * 10^-scale}, equal for equal numeric values. */
  public static long hashDecimal(long unscaled, int scale) {
    if (unscaled == 0) {
      return mix(mix(0) + 0);
    }
    while (unscaled % 10 == 0) {
      unscaled /= 10;
      scale--;
    }
    return mix(mix(unscaled) + scale);
  }

  /** The hash of a string or byte string whose bytes have the {@code 31 * h + b} hash {@code h}. */
  public static long hashBytesHash(int h) {
    return mix(h);
  }

  private static int polynomial(byte[] bytes) {
    int h = 1;
    for (byte b : bytes) {
      h = 31 * h + (b & 0xFF);
    }
    return h;
  }

  private static long mix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb93fe1a85ec5L;
    k ^= k >>> 33;
    return k;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DistinctSketch other && Arrays.equals(registers, other.registers);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(registers);
  }
}
