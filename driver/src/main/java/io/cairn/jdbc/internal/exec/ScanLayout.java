package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import io.cairn.kv.TableStatistics;
import io.cairn.planner.plan.IndexScan;
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
 *
 * <p>A scan that reads a local index ({@link ScanNode#index()}) carries its {@link IndexRead} in
 * {@code index} (null: the table's rows); its ranges lie in the index's key space.
 */
record ScanLayout(
    KvTable table,
    List<ScanChunks.Unit> units,
    Merge merge,
    int parallelism,
    int window,
    long rows,
    long bytes,
    IndexRead index) {
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
    if (node.index().isPresent()) {
      return ofIndex(node, node.index().get().keys(), node.keys(), kv, eval, parallelism);
    }
    List<KeyRange> ranges = ranges(node, node.keys(), eval);
    if (isPointLookup(node)) {
      return single(kv, ranges, -1, -1); // no statistics, no thread hop
    }
    return of(node, kv, ranges, parallelism);
  }

  /**
   * The layout of {@code node}'s read of a local index with key bounds {@code keys} over its parts:
   * one request for a few complete index keys ({@link #isIndexPointLookup}), else one request per
   * region of the table (from its statistics' chunks), each with the same ranges in the index's key
   * space and restricted to the region's row keys ({@link IndexRead#rows()}), run in parallel like
   * a table's chunks; a region holds the entries of its rows only, and the regions' row ranges cut
   * the key space, so every entry is read once whatever splits happen meanwhile. Regions that hold
   * no row the primary-key bounds {@code tableKeys} allow are left out, and each region's read is
   * narrowed to those bounds. The index is read covered when the plan says so and every expression
   * of the scan maps onto the entries, else with row lookups.
   */
  private static ScanLayout ofIndex(
      ScanNode node,
      List<KeyBounds> keys,
      List<KeyBounds> tableKeys,
      KvTable kv,
      EvalContext eval,
      int parallelism) {
    IndexScan read = node.index().orElseThrow();
    int indexId = read.index().indexId();
    RowLayout entries = read.entryLayout(node.table());
    List<KeyRange> ranges = new ArrayList<>();
    for (KeyRange r : KeyRangeBuilder.ranges(entries, new RowCodec(entries), keys, eval)) {
      ranges.add(IndexKeys.range(indexId, r));
    }
    boolean covered = read.covered() && entryProgram(node).isPresent();
    IndexRead index = new IndexRead(indexId, !covered).withGrouped(node.groupsFromIndex());
    List<KeyRange> rowRanges = ranges(node, tableKeys, eval);
    List<ScanChunks.Unit> units = new ArrayList<>();
    boolean oneRequest = isIndexPointLookup(read) || !kv.indexesByRegion();
    if (oneRequest && !ranges.isEmpty() && !rowRanges.isEmpty()) {
      // a few index keys (most likely few rows), or an index kept apart from the table's regions:
      // one request, no statistics, no thread hop
      KeyRange rows =
          new KeyRange(rowRanges.get(0).start(), rowRanges.get(rowRanges.size() - 1).stop());
      units.add(new ScanChunks.Unit(ranges, -1, -1, rows));
    } else if (!ranges.isEmpty()) {
      for (KeyRange region : regionRanges(kv.statistics())) {
        KeyRange rows = restrict(region, rowRanges);
        if (rows != null) {
          units.add(new ScanChunks.Unit(ranges, -1, -1, rows));
        }
      }
    }
    if (units.size() <= 1 || (node.offset() > 0 && node.orderBy().isEmpty())) {
      // one request over the regions' rows from the first to the last
      KeyRange rows =
          units.isEmpty()
              ? KeyRange.ALL
              : new KeyRange(
                  units.get(0).indexRows().start(), units.get(units.size() - 1).indexRows().stop());
      return new ScanLayout(
          kv,
          List.of(new ScanChunks.Unit(units.isEmpty() ? List.of() : ranges, -1, -1, rows)),
          Merge.SINGLE,
          1,
          1,
          -1,
          -1,
          index);
    }
    Merge merge =
        node.hasAggregates()
            ? Merge.ANY_ORDER
            : node.orderBy().isEmpty() ? Merge.KEY_ORDER : Merge.SORTED;
    int n = units.size();
    int p = node.serial() ? 1 : Math.min(parallelism, n);
    int window = merge == Merge.SORTED ? n : p;
    return new ScanLayout(kv, units, merge, p, window, -1, -1, index);
  }

  /**
   * Whether {@code read} is of at most {@value #MAX_DIRECT_POINTS} complete index keys (an equality
   * on every part of the index): read as one request in the caller's thread, region after region,
   * as a table's point lookups are.
   */
  private static boolean isIndexPointLookup(IndexScan read) {
    int parts = read.index().columns().size();
    return !read.keys().isEmpty()
        && read.keys().size() <= MAX_DIRECT_POINTS
        && read.keys().stream()
            .allMatch(
                b -> b.lower().isEmpty() && b.upper().isEmpty() && b.equalPrefix().size() == parts);
  }

  /** The row-key ranges of the table's regions, in key order, from its statistics' chunks. */
  static List<KeyRange> regionRanges(TableStatistics statistics) {
    List<KeyRange> regions = new ArrayList<>();
    TableStatistics.Chunk first = null;
    Bytes stop = null;
    for (TableStatistics.Chunk c : statistics.chunks()) {
      if (first != null && c.regionId() == first.regionId()) {
        stop = c.stop();
        continue;
      }
      if (first != null) {
        regions.add(new KeyRange(first.start(), stop));
      }
      first = c;
      stop = c.stop();
    }
    regions.add(new KeyRange(first.start(), stop));
    return regions;
  }

  /**
   * The part of {@code region} from the first to the last key of {@code rowRanges} (sorted,
   * disjoint) inside it, or null when none is.
   */
  static KeyRange restrict(KeyRange region, List<KeyRange> rowRanges) {
    Bytes start = null;
    Bytes stop = null;
    for (KeyRange r : rowRanges) {
      Bytes s = r.start().compareTo(region.start()) >= 0 ? r.start() : region.start();
      Bytes e = stopBefore(r.stop(), region.stop()) ? r.stop() : region.stop();
      if (!e.isEmpty() && s.compareTo(e) >= 0) {
        continue;
      }
      if (start == null) {
        start = s;
      }
      stop = e;
    }
    return start == null ? null : new KeyRange(start, stop);
  }

  /** Whether stop {@code a} is at or before stop {@code b}; an empty stop is after every key. */
  private static boolean stopBefore(Bytes a, Bytes b) {
    return b.isEmpty() || (!a.isEmpty() && a.compareTo(b) <= 0);
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
    for (KeyBounds b : keys(node)) {
      widened.add(widen(b));
    }
    if (node.index().isPresent()) {
      List<KeyBounds> tableKeys = new ArrayList<>();
      for (KeyBounds b : node.keys()) {
        tableKeys.add(widen(b));
      }
      return ofIndex(node, widened, tableKeys, kv, eval, parallelism);
    }
    return of(node, kv, ranges(node, widened, eval), parallelism);
  }

  /** The key bounds {@code node} reads by: its index's when it reads one, else its table's. */
  private static List<KeyBounds> keys(ScanNode node) {
    return node.index().map(IndexScan::keys).orElse(node.keys());
  }

  /** Whether any key bound of {@code node} (of its index and of its table) uses a parameter. */
  static boolean usesParameters(ScanNode node) {
    List<KeyBounds> all = new ArrayList<>(keys(node));
    if (node.index().isPresent()) {
      all.addAll(node.keys());
    }
    for (KeyBounds b : all) {
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
            ? (groupsInKeyOrder(node) ? Merge.KEY_ORDER : Merge.ANY_ORDER)
            : node.orderBy().isEmpty() ? Merge.KEY_ORDER : Merge.SORTED;
    int n = units.size();
    int p = node.serial() ? 1 : Math.min(parallelism, n);
    // a limit without a filter is most likely met by the first chunk: run them in turn
    if (merge == Merge.KEY_ORDER
        && !node.hasAggregates()
        && node.limit() >= 0
        && node.filter().isEmpty()) {
      p = 1;
    }
    if (merge == Merge.ANY_ORDER && groupsSpreadOverChunks(node) && n > UNITS_PER_THREAD * p) {
      units = ScanChunks.coalesce(units, UNITS_PER_THREAD * p);
      n = units.size();
    }
    int window = merge == Merge.SORTED ? n : p;
    return new ScanLayout(kv, units, merge, p, window, rows, bytes, null);
  }

  /**
   * The units per thread of a grouped aggregation whose groups spread over the chunks ({@link
   * #groupsSpreadOverChunks}): one, of about equal rows. Each unit sends a partial row for nearly
   * every group, so a second unit per thread (for a thread that ends early to take a share of the
   * rest) doubled the partials where groups are many: TPC-H Q13's ORDERS by customer made 390,000
   * partial groups in four units, 200,000 in two, and ran about 30% faster.
   */
  static final int UNITS_PER_THREAD = 1;

  /**
   * Whether the scan groups by keys that are not led by the table's first key column: each chunk
   * may then hold a part of every group, and sends a partial row per group it saw; fewer, larger
   * units make fewer partials, in the store and in the driver's merge (TPC-H Q15 grouped a quarter
   * of LINEITEM by supplier: 27 chunks sent 270,000 partial rows for 10,000 groups, more than the
   * quarter's 225,000 rows). Groups led by the first key column end within a chunk, bar one at each
   * end: their chunks stay as they are.
   */
  static boolean groupsSpreadOverChunks(ScanNode node) {
    if (node.groupBy().isEmpty()) {
      return false;
    }
    if (node.table().hiddenRowId()) {
      return true;
    }
    int first = node.table().primaryKey().get(0).columnIndex();
    for (int g : node.groupBy()) {
      if (node.projection().get(g) instanceof Expr.ColumnRef ref && ref.index() == first) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the scan's GROUP BY starts with the table's first key column (ascending): each chunk
   * then sends its groups in key order, and its chunks concatenated in key order let the driver
   * merge a group's pieces as they come, one after the other ({@link OrderedPieces}), instead of by
   * hash. The groups after the first key column are in order too when they are the next key columns
   * or depend on the first (TPC-H Q3's order date and priority of L_ORDERKEY's order). The merge
   * checks the order, and merges by hash from where it does not hold: never a wrong answer, at
   * worst the hash merge's work.
   */
  static boolean groupsInKeyOrder(ScanNode node) {
    List<Integer> groupBy = node.groupBy();
    if (groupBy.isEmpty() || node.table().hiddenRowId()) {
      return false;
    }
    RowLayout.KeyColumn first = node.table().primaryKey().get(0);
    return first.order() == SortOrder.ASC
        && node.projection().get(groupBy.get(0)) instanceof Expr.ColumnRef ref
        && ref.index() == first.columnIndex();
  }

  private static ScanLayout single(KvTable kv, List<KeyRange> ranges, long rows, long bytes) {
    return new ScanLayout(
        kv,
        List.of(new ScanChunks.Unit(ranges, rows, bytes)),
        Merge.SINGLE,
        1,
        1,
        rows,
        bytes,
        null);
  }

  /**
   * The layout, filter and projection of {@code node} over the entries of the index it reads
   * ({@link IndexScan#toEntry}), or empty when an expression reads a column the entries lack.
   */
  private static Optional<ScanProgram> entryProgram(ScanNode node) {
    TableDescriptor table = node.table();
    IndexScan read = node.index().orElseThrow();
    Optional<Expr> filter = Optional.empty();
    if (node.filter().isPresent()) {
      filter = IndexScan.toEntry(table, read.index(), node.filter().get());
      if (filter.isEmpty()) {
        return Optional.empty();
      }
    }
    List<Expr> projection = new ArrayList<>();
    for (Expr e : node.projection()) {
      Optional<Expr> mapped = IndexScan.toEntry(table, read.index(), e);
      if (mapped.isEmpty()) {
        return Optional.empty();
      }
      projection.add(mapped.get());
    }
    return Optional.of(
        new ScanProgram(read.entryLayout(table), filter, projection, ScanProgram.NO_LIMIT));
  }

  /**
   * The program every request of this layout runs (see {@link ScanNode}'s contract). A scan whose
   * order comes from the index it reads ({@link ScanNode#orderFromIndex()}) has no sort: each
   * request streams its rows in index order and stops at its limit.
   */
  ScanProgram program(ScanNode node) {
    TableDescriptor table = node.table();
    long limit = node.limit() < 0 ? ScanProgram.NO_LIMIT : node.limit();
    long offset = node.offset();
    List<SortKey> order = node.orderFromIndex() ? List.of() : node.orderBy();
    if (merge == Merge.SORTED) {
      // each chunk keeps its top offset + limit; the client skips the offset after the merge
      limit = limit == ScanProgram.NO_LIMIT ? limit : offset + limit;
      offset = 0;
    }
    if (index != null && !index.lookup()) {
      // covered: the same program over the index's entries
      ScanProgram entries = entryProgram(node).orElseThrow();
      return new ScanProgram(
          entries.layout(),
          entries.filter(),
          entries.projection(),
          limit,
          offset,
          node.groupBy(),
          node.aggregates(),
          order);
    }
    return new ScanProgram(
        table.layout(),
        node.filter(),
        node.projection(),
        limit,
        offset,
        node.groupBy(),
        node.aggregates(),
        order,
        Optional.empty(),
        node.having());
  }
}
