package io.cairn.core.agg;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;

/**
 * Counts the memory of a grouped aggregation's hash table against a limit: an estimate per group of
 * its key values, its accumulators and the table entry. Past the limit {@link #addGroup} fails with
 * AGGREGATE_MEMORY_EXCEEDED naming the limit and the setting that raises it (there is no spilling).
 * The estimate is coarse (it does not follow MIN/MAX values that grow, nor DISTINCT sets): it
 * bounds the number and width of the groups, which is what grows without bound.
 */
public final class AggregationMemory implements AutoCloseable {
  /** The default limit of one grouped aggregation, in the store and in the driver: 256 MiB. */
  public static final long DEFAULT_MAX_BYTES = 256L << 20;

  /** A hash table entry, the key object and its array, the accumulators' array. */
  static final long GROUP_OVERHEAD = 112;

  /** One accumulator (object header, a few fields, a boxed or BigDecimal state). */
  static final long ACCUMULATOR_BYTES = 64;

  private final long maxBytes;
  private final String setting;
  private final String where;
  private final MemoryReservation reservation;
  private long used;
  private long groups;

  /**
   * A counter failing past {@code maxBytes}.
   *
   * @param setting the setting (property or configuration key) that raises the limit
   * @param where where the aggregation runs, for the message (e.g. "in the store")
   */
  public AggregationMemory(long maxBytes, String setting, String where) {
    this(maxBytes, setting, where, null);
  }

  /**
   * A counter failing past {@code maxBytes}, whose groups also count in {@code reservation} (and so
   * in its pool and the pools above: MEMORY_LIMIT_EXCEEDED when one of those is full), given back
   * by {@link #close}.
   *
   * @param reservation the reservation, or null to count against {@code maxBytes} only
   */
  public AggregationMemory(
      long maxBytes, String setting, String where, MemoryReservation reservation) {
    this.reservation = reservation;
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive: [" + maxBytes + "]");
    }
    this.maxBytes = maxBytes;
    this.setting = setting;
    this.where = where;
  }

  /**
   * Counts a new group with these key values (the array may hold other values: only {@code columns}
   * count) and {@code accumulators} accumulators.
   *
   * @throws CairnException AGGREGATE_MEMORY_EXCEEDED past the limit
   */
  public void addGroup(Object[] keyValues, int[] columns, int accumulators) {
    long bytes = GROUP_OVERHEAD + accumulators * ACCUMULATOR_BYTES;
    for (int c : columns) {
      bytes += RowSizes.value(keyValues[c]);
    }
    if (used + bytes > maxBytes) {
      used += bytes;
      groups++;
      throw new CairnException(
          ErrorCode.AGGREGATE_MEMORY_EXCEEDED,
          "Grouped aggregation "
              + where
              + " needs more than its memory limit of ["
              + maxBytes
              + "] bytes (["
              + groups
              + "] groups so far, about ["
              + used
              + "] bytes): raise ["
              + setting
              + "], or group fewer rows");
    }
    if (reservation != null) {
      reservation.add(bytes);
    }
    used += bytes;
    groups++;
  }

  /**
   * Forgets the groups counted so far (emitted, dropped): their bytes go back to the reservation.
   */
  public void groupsGone() {
    if (reservation != null) {
      reservation.free(used);
    }
    used = 0;
    groups = 0;
  }

  /** Gives the reservation's bytes back (the groups are gone); idempotent. */
  @Override
  public void close() {
    if (reservation != null) {
      reservation.close();
    }
  }

  /** The estimated bytes counted so far. */
  public long usedBytes() {
    return used;
  }
}
