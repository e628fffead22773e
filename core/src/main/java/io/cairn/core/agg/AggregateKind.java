package io.cairn.core.agg;

import io.cairn.core.error.CairnException;

/**
 * Aggregate functions. {@link #id()} is persistent (aggregate calls travel to servers in scan
 * programs); never renumber.
 */
public enum AggregateKind {
  /** {@code COUNT(*)}: rows, no arguments. */
  COUNT_STAR(1),
  /** {@code COUNT(x [, y ...])}: rows where every argument is non-null. */
  COUNT(2),
  /** NULL for no (non-null) input. */
  SUM(3),
  /** SUM that returns 0 instead of NULL for no input (Calcite's $SUM0). */
  SUM0(4),
  MIN(5),
  MAX(6),
  /** Exact sum / count, delivered in the call's result type. */
  AVG(7),
  /** The value of the only row (NULL for no rows); a second row is an error. */
  SINGLE_VALUE(8),
  /** Some non-null input value (the first one seen). */
  ANY_VALUE(9),
  BOOL_AND(10),
  BOOL_OR(11),
  /**
   * {@code GROUPING(a, b, ...)}: a bit per argument, most significant first, set when that column
   * is not grouped in the current grouping set. Computed by the aggregation operator, which knows
   * the grouping set; it has no accumulator.
   */
  GROUPING(12);

  private static final AggregateKind[] BY_ID = new AggregateKind[32];

  static {
    for (AggregateKind kind : values()) {
      BY_ID[kind.id] = kind;
    }
  }

  private final int id;

  AggregateKind(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  public static AggregateKind fromId(int id) {
    AggregateKind kind = id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    if (kind == null) {
      throw CairnException.internal("Unknown aggregate id [" + id + "]");
    }
    return kind;
  }
}
