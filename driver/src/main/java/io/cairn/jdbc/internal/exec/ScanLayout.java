package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.ScanProgram;
import io.cairn.planner.plan.KeyBounds;
import io.cairn.planner.plan.ScanNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How one execution of a {@link ScanNode} runs, decided at execution (plans are cached, chunks are
 * not): the byte key ranges, cut at the table's chunks into {@link ScanChunks.Unit units} of one
 * request each, how many run at once and how their rows are merged.
 *
 * <p>One request, in the caller's thread as before parallel scans, when the scan reads at most
 * {@value #MAX_DIRECT_POINTS} complete primary keys or point ranges (no statistics asked for), has
 * an offset but no order (the store skips the offset: the scan is one serial request), or touches
 * one chunk.
 */
record ScanLayout(
    KvTable table,
    List<ScanChunks.Unit> units,
    Merge merge,
    int parallelism,
    int window,
    long rows,
    long bytes) {
  /** Scans of this many point keys or fewer are one request without asking for statistics. */
  static final int MAX_DIRECT_POINTS = 64;

  /** How the rows of the units become the scan's rows. */
  enum Merge {
    /** One unit: its rows are the scan's. */
    SINGLE,
    /** Concatenated in key order; later units run ahead. */
    KEY_ORDER,
    /** In the order units deliver them (partial aggregates). */
    ANY_ORDER,
    /** Each unit sorted by the store, merge-sorted by the order's keys. */
    SORTED
  }

  ScanLayout {
    requireNonNull(table, "table is null");
    units = List.copyOf(units);
    requireNonNull(merge, "merge is null");
  }

  boolean isSingle() {
    return merge == Merge.SINGLE;
  }

  /** The layout of {@code node} with the statement's parameters in {@code eval}. */
  static ScanLayout of(ScanNode node, KvTable kv, EvalContext eval, int parallelism) {
    List<KeyRange> ranges = ranges(node, node.keys(), eval);
    if (isPointLookup(node)) {
      return single(kv, ranges, -1, -1); // no statistics, no thread hop
    }
    return of(node, kv, ranges, parallelism);
  }

  /** One request over all the key ranges of {@code node}, without asking for statistics. */
  static ScanLayout singleOf(ScanNode node, KvTable kv, EvalContext eval) {
    return single(kv, ranges(node, node.keys(), eval), -1, -1);
  }

  /** Whether {@code node} reads at most {@value #MAX_DIRECT_POINTS} complete primary keys. */
  private static boolean isPointLookup(ScanNode node) {
    int keyColumns = node.table().primaryKey().size();
    return !node.table().hiddenRowId()
        && !node.keys().isEmpty()
        && node.keys().size() <= MAX_DIRECT_POINTS
        && node.keys().stream()
            .allMatch(
                b ->
                    b.lower().isEmpty()
                        && b.upper().isEmpty()
                        && b.equalPrefix().size() == keyColumns);
  }

  /**
   * The layout of {@code node} before its parameters are known (EXPLAIN): key bounds that use a
   * parameter are widened to what the bounds without it hold.
   */
  static ScanLayout withoutParameters(
      ScanNode node, KvTable kv, EvalContext eval, int parallelism) {
    List<KeyBounds> widened = new ArrayList<>();
    for (KeyBounds b : node.keys()) {
      widened.add(widen(b));
    }
    return of(node, kv, ranges(node, widened, eval), parallelism);
  }

  /** Whether any key bound of {@code node} uses a parameter. */
  static boolean usesParameters(ScanNode node) {
    for (KeyBounds b : node.keys()) {
      if (!widen(b).equals(b)) {
        return true;
      }
    }
    return false;
  }

  private static KeyBounds widen(KeyBounds b) {
    for (int i = 0; i < b.equalPrefix().size(); i++) {
      if (hasParameter(b.equalPrefix().get(i))) {
        return new KeyBounds(b.equalPrefix().subList(0, i), Optional.empty(), Optional.empty());
      }
    }
    return new KeyBounds(
        b.equalPrefix(),
        b.lower().filter(l -> !hasParameter(l.value())),
        b.upper().filter(u -> !hasParameter(u.value())));
  }

  private static boolean hasParameter(Expr e) {
    if (e instanceof Expr.Param) {
      return true;
    }
    if (e instanceof Expr.Call c) {
      return c.operands().stream().anyMatch(ScanLayout::hasParameter);
    }
    return false;
  }

  private static List<KeyRange> ranges(ScanNode node, List<KeyBounds> keys, EvalContext eval) {
    TableDescriptor table = node.table();
    return table.hiddenRowId()
        ? List.of(KeyRange.ALL)
        : KeyRangeBuilder.ranges(table, new RowCodec(table.layout()), keys, eval);
  }

  private static ScanLayout of(ScanNode node, KvTable kv, List<KeyRange> ranges, int parallelism) {
    if (ranges.size() <= MAX_DIRECT_POINTS && ranges.stream().allMatch(KeyRange::isPoint)) {
      return single(kv, ranges, -1, -1); // point lookups: no statistics, no thread hop
    }
    // cheap: a store of this JVM never scans for it, a remote table reuses its answer for a second
    List<ScanChunks.Unit> units = ScanChunks.cut(ranges, kv.statistics());
    long rows = 0;
    long bytes = 0;
    for (ScanChunks.Unit u : units) {
      rows = rows < 0 || u.rows() < 0 ? -1 : rows + u.rows();
      bytes = bytes < 0 || u.bytes() < 0 ? -1 : bytes + u.bytes();
    }
    if (units.size() <= 1 || (node.offset() > 0 && node.orderBy().isEmpty())) {
      return single(kv, ranges, rows, bytes);
    }
    Merge merge =
        node.hasAggregates()
            ? Merge.ANY_ORDER
            : node.orderBy().isEmpty() ? Merge.KEY_ORDER : Merge.SORTED;
    int n = units.size();
    int p = node.serial() ? 1 : Math.min(parallelism, n);
    // a limit without a filter is most likely met by the first chunk: run them in turn
    if (merge == Merge.KEY_ORDER && node.limit() >= 0 && node.filter().isEmpty()) {
      p = 1;
    }
    int window = merge == Merge.SORTED ? n : p;
    return new ScanLayout(kv, units, merge, p, window, rows, bytes);
  }

  private static ScanLayout single(KvTable kv, List<KeyRange> ranges, long rows, long bytes) {
    return new ScanLayout(
        kv, List.of(new ScanChunks.Unit(ranges, rows, bytes)), Merge.SINGLE, 1, 1, rows, bytes);
  }

  /** The program every request of this layout runs (see {@link ScanNode}'s contract). */
  ScanProgram program(ScanNode node) {
    TableDescriptor table = node.table();
    long limit = node.limit() < 0 ? ScanProgram.NO_LIMIT : node.limit();
    long offset = node.offset();
    if (merge == Merge.SORTED) {
      // each chunk keeps its top offset + limit; the client skips the offset after the merge
      limit = limit == ScanProgram.NO_LIMIT ? limit : offset + limit;
      offset = 0;
    }
    return new ScanProgram(
        table.layout(),
        node.filter(),
        node.projection(),
        limit,
        offset,
        node.groupBy(),
        node.aggregates(),
        node.orderBy());
  }
}
