package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.List;
import java.util.Optional;

/**
 * The probe step of a scan program: the probe side of a broadcast hash join, run next to the data.
 * For each decoded row the program's filter keeps, {@code probeKeys} (expressions over the decoded
 * row, one per key column of the build table) are looked up in the {@link JoinHashTable} named
 * {@code cacheId}; the program then goes on over the <em>joined row</em>: the decoded row's columns
 * (indexes 0..n-1 of the layout), the row key pseudo-column (index n), then the build row's
 * columns, {@code buildTypes} (index n+1 on). {@code residual}, over the joined row, is part of the
 * match condition.
 *
 * <ul>
 *   <li>INNER: one joined row per matching build row;
 *   <li>LEFT: the same, or one row with NULL build columns when none matches;
 *   <li>SEMI: the row once when a build row matches (build columns NULL, unread);
 *   <li>ANTI: the row when no build row matches (NOT EXISTS: a NULL probe key matches nothing).
 *       With {@code nullAware} (NOT IN) a row is kept only when the build side is empty, or when
 *       its key has no NULL, no build key is NULL and nothing matches.
 * </ul>
 *
 * <p>{@code partitions} is a mask of the {@value #PARTITIONS} partitions of the probe keys ({@link
 * #partitionOf}): a row whose key lies in a partition outside it is skipped before the probe, so
 * that a build side too big for memory is probed in passes, one set of partitions at a time, each
 * row joined in exactly one pass ({@link #ALL}: every row, one pass).
 *
 * <p>{@code keyFilter}: whether the store tests each row's first key against the set of the build
 * keys before probing (a dynamic filter, {@link io.cairn.core.expr.KeySetFilter}); the driver turns
 * it off when the build side holds most of the probe column's distinct values, so that nearly every
 * row would pass.
 *
 * <p>{@code marks} (INNER only): the scan joins each build row to at most one row, its first match;
 * a later row's candidate that is a build row already joined is passed over before its values are
 * read or the residual is tested. For a mark join, which only asks which build rows match any row
 * (TPC-H Q21's EXISTS and NOT EXISTS of another supplier's line of the same order).
 */
public record HashProbe(
    String cacheId,
    List<Expr> probeKeys,
    Kind kind,
    List<DataType> buildTypes,
    Optional<Expr> residual,
    boolean nullAware,
    long partitions,
    boolean keyFilter,
    boolean marks) {
  /** How many partitions {@link #partitionOf} spreads keys over (one bit of a mask each). */
  public static final int PARTITIONS = 64;

  /** The mask of every partition: a probe in one pass. */
  public static final long ALL = -1L;

  /** Spreads keys over the partitions (another seed than the driver's spill files use). */
  private static final int PARTITION_SEED = 0x2545F491;

  /** Join kinds a probe runs; the ids travel on the wire. */
  public enum Kind {
    INNER(1),
    LEFT(2),
    SEMI(3),
    ANTI(4);

    private final int id;

    Kind(int id) {
      this.id = id;
    }

    public int id() {
      return id;
    }

    public static Kind fromId(int id) {
      for (Kind k : values()) {
        if (k.id == id) {
          return k;
        }
      }
      throw new CairnException(
          io.cairn.core.error.ErrorCode.PROTOCOL_ERROR,
          "Hash probe kind: expected 1..4, found [" + id + "]");
    }
  }

  public HashProbe {
    requireNonNull(cacheId, "cacheId is null");
    probeKeys = List.copyOf(probeKeys);
    requireNonNull(kind, "kind is null");
    buildTypes = List.copyOf(buildTypes);
    requireNonNull(residual, "residual is null");
    if (probeKeys.isEmpty()) {
      throw CairnException.internal("A hash probe needs at least one key");
    }
    if (nullAware && kind != Kind.ANTI) {
      throw CairnException.internal("Only an ANTI probe is null-aware, found " + kind);
    }
    if (partitions == 0) {
      throw CairnException.internal("A hash probe of no partition");
    }
    if (marks && kind != Kind.INNER) {
      throw CairnException.internal("Only an INNER probe marks build rows, found " + kind);
    }
  }

  /** A probe of every row, in one pass. */
  public HashProbe(
      String cacheId,
      List<Expr> probeKeys,
      Kind kind,
      List<DataType> buildTypes,
      Optional<Expr> residual,
      boolean nullAware) {
    this(cacheId, probeKeys, kind, buildTypes, residual, nullAware, ALL, true, false);
  }

  /**
   * The partition (0..{@value #PARTITIONS}-1) of a key, the same for equal keys in any JVM; a key
   * with a NULL is in partition 0, so that a LEFT or ANTI probe keeps its row in exactly one pass.
   */
  public static int partitionOf(GroupKey key) {
    return key.hasNull() ? 0 : key.spread(PARTITION_SEED) & (PARTITIONS - 1);
  }

  /** Whether this probe's passes take {@code key}'s partition. */
  public boolean takes(GroupKey key) {
    return partitions == ALL || (partitions & (1L << partitionOf(key))) != 0;
  }

  /** The same probe of cache {@code newCacheId} over the partitions of {@code mask} only. */
  public HashProbe inPass(String newCacheId, long mask) {
    return new HashProbe(
        newCacheId, probeKeys, kind, buildTypes, residual, nullAware, mask, keyFilter, marks);
  }

  /** The same probe with the key filter on or off. */
  public HashProbe withKeyFilter(boolean on) {
    return new HashProbe(
        cacheId, probeKeys, kind, buildTypes, residual, nullAware, partitions, on, marks);
  }

  /** The same INNER probe joining each build row to its first matching row only. */
  public HashProbe marking() {
    return new HashProbe(
        cacheId, probeKeys, kind, buildTypes, residual, nullAware, partitions, keyFilter, true);
  }

  /** The width of the joined row over a layout of {@code columnCount} columns. */
  public int joinedWidth(int columnCount) {
    return columnCount + 1 + buildTypes.size();
  }
}
