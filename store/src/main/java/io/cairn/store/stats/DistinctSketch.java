package io.cairn.store.stats;

import java.math.BigDecimal;
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
   * A 64-bit hash of a decoded value, equal for equal values: numbers by their numeric value (a
   * BigDecimal without its trailing zeros), strings by their characters, byte arrays by their
   * bytes, anything else by its {@code hashCode}, each mixed by MurmurHash3's finalizer.
   */
  public static long hash(Object value) {
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return mix(((Number) value).longValue());
    }
    if (value instanceof Double d) {
      return mix(Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
    }
    if (value instanceof Float f) {
      return mix(Double.doubleToLongBits(f == 0.0f ? 0.0 : f.doubleValue()));
    }
    if (value instanceof BigDecimal b) {
      BigDecimal s = b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
      return mix(s.unscaledValue().hashCode() * 31L + s.scale())
          ^ mix(s.unscaledValue().longValue());
    }
    if (value instanceof CharSequence s) {
      long h = 0xcbf29ce484222325L;
      for (int i = 0; i < s.length(); i++) {
        h = (h ^ s.charAt(i)) * 0x100000001b3L;
      }
      return mix(h);
    }
    if (value instanceof byte[] b) {
      long h = 0xcbf29ce484222325L;
      for (byte x : b) {
        h = (h ^ (x & 0xff)) * 0x100000001b3L;
      }
      return mix(h);
    }
    return mix(value.hashCode());
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
