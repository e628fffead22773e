package io.cairn.jdbc.internal.exec;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.kv.JoinHashTable;
import io.cairn.planner.plan.JoinProbe;
import io.cairn.planner.plan.KeyBounds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A lookup join: when a probe's first key is the probe table's first primary-key column and the
 * build side has few keys, the probing scan reads only the key ranges of those keys (a skip scan of
 * one point per key) instead of the whole table; the scan's filter, which holds every condition the
 * old key ranges came from, and the probe itself keep the answer exact. INNER and SEMI probes only
 * (LEFT and ANTI keep the rows that match nothing).
 */
final class LookupKeys {
  /** The most build keys looked up one by one. */
  static final int MAX_KEYS = 20_000;

  /** A lookup is taken when the table has at least this many rows per build key. */
  static final int MIN_ROWS_PER_KEY = 64;

  private LookupKeys() {}

  /**
   * The key bounds that read only the rows whose first key is one of {@code table}'s keys, or empty
   * when the probe cannot look them up or a scan is cheaper ({@code tableRows} the probe table's
   * approximate rows).
   */
  static Optional<List<KeyBounds>> of(
      JoinProbe probe, RowLayout layout, JoinHashTable table, long tableRows) {
    if (!probe.looksUpKeys(layout)) {
      return Optional.empty();
    }
    Expr.ColumnRef ref = (Expr.ColumnRef) probe.probeKeys().get(0);
    DataType keyType = layout.columnType(ref.index());
    int keys = table.keyCount();
    if (keys == 0 || keys > MAX_KEYS || (long) keys * MIN_ROWS_PER_KEY > tableRows) {
      return Optional.empty();
    }
    Set<Object> distinct = new HashSet<>();
    List<KeyBounds> bounds = new ArrayList<>();
    for (Object v : table.keyValues(0)) {
      if (distinct.add(v)) {
        bounds.add(
            new KeyBounds(
                List.of(new Expr.Literal(v, keyType)), Optional.empty(), Optional.empty()));
      }
    }
    return Optional.of(bounds);
  }
}
