package io.cairn.store.coprocessor;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.KeySetFilter;
import io.cairn.core.expr.NumberBatch;
import io.cairn.core.expr.NumberVector;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.expr.VectorFilter;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.store.cell.BlockRun;
import io.cairn.store.cell.RowCursor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The block-at-a-time part of a scan program's rows ({@link ProgramRows}): at a data block boundary
 * the cursor may offer the next block whole as column vectors ({@link RowCursor#peekBlock}). The
 * vector filter and a probe's key-set filter select its rows; a block of which they select none is
 * skipped undecoded; with a {@link BlockSink} (an aggregation, a sort's top-N) and a filter that is
 * complete (or none) the sink may take the selected rows from the vectors. Otherwise the block's
 * rows are read one at a time, and {@link #guide()} tells which of them were selected, so that only
 * those are decoded.
 *
 * <p>Used by the scanning thread of its ProgramRows; holds a borrowed reader (the one that builds
 * blocks' vectors) until {@link #close()}.
 */
final class ProgramBlocks {
  /** {@link #guide()}: the row is not one of a block the filters selected from. */
  static final int UNGUIDED = 0;

  /** {@link #guide()}: a row of a selected-from block the filters rejected: pass it over. */
  static final int PASSED_OVER = 1;

  /** {@link #guide()}: a row of a selected-from block the filters selected. */
  static final int SELECTED = 2;

  private final RowCursor rows;
  private final CompiledProgram compiled;

  /**
   * Whether the cursor may offer blocks at all (not over lookups' point ranges, where the caller
   * passes no filter or probe either): when not, blocks are never asked for.
   */
  private final boolean offered;

  /** The vectorized part of the row filter, or null. */
  private final VectorFilter vectorFilter;

  /** A probe's key-set filter over blocks, or null (none, or dropped: it kept nearly every row). */
  private KeySetFilter keys;

  /**
   * A probe done on blocks' vectors, or null: it looks up the keys of the rows {@link #keys} (whose
   * bitmap or set is cheaper to test for a row that matches nothing) keeps.
   */
  private final VectorProbe probe;

  /** Block rows the key filter tested and kept, until it is judged. */
  private final KeyFilterTrial keysTrial = new KeyFilterTrial();

  /** Takes whole blocks (an aggregation, a top-N), or null. */
  private BlockSink sink;

  /** The blocks asked for, or null when no block is to be offered. */
  private BlockRun run;

  /**
   * The rows of a block the filters select; grown to the largest block. Made for a batch's rows at
   * once: a growth on every scan's first block is a branch the compiled code deoptimizes on.
   */
  private int[] selection = new int[NumberBatch.CAPACITY];

  /**
   * While the rows of a block the filters selected from are read one at a time: how many of them
   * are left, the index of the next, and the next of the {@code guidedSelected} selected indexes in
   * {@link #selection}.
   */
  private int guidedLeft, guidedRow, guidedNext, guidedSelected;

  /** Whether the key filter selected the rows of the block being read (see {@link #keyed()}). */
  private boolean guidedByKeys;

  /** The reader that builds blocks' vectors (borrowed), or null. */
  private RowReader vectorReader;

  /** The columns besides the filters' that blocks are asked for (a sink's, or the rows'). */
  private List<VectorColumn> extraColumns = List.of();

  /**
   * When rows are read from vectors ({@link #rowsFromVectors}): per needed column, its layout
   * index, its vector column and its type; else null.
   */
  private int[] rowColumns;

  private VectorColumn[] rowVectors;
  private TypeName[] rowTypes;

  /** How many of the first row columns {@link #rowFilter} tests before the others are read. */
  private int filterCount;

  /** The filter tested on each row read from vectors (an incomplete vector filter's), or null. */
  private RowExpression rowFilter;

  private EvalContext context;

  /** The row read from vectors last, by layout index. */
  private Object[] row;

  /** Blocks whose vectors did and did not hold every value of the rows' columns. */
  private int fitBlocks, unfitBlocks;

  /** Unfit blocks after which rows are no longer read from vectors (see {@link #rowsFit}). */
  private static final int UNFIT_BLOCKS = 4;

  /** The vectors of the block whose selected rows {@link #nextVectorRow()} hands out. */
  private NumberVector[] rowNumbers;

  /** How many of the {@link #selection}'s rows {@link #nextVectorRow()} has left, and the next. */
  private int vectorRowsLeft, vectorRowNext;

  /**
   * Reads blocks of {@code rows} for {@code compiled} when {@code vectorFilter}, {@code keys} (a
   * probe's key-set filter, used only when its {@link KeySetFilter#vectorColumn()} is not null) or
   * {@code probe} (whose first key column is the one {@code keys} tests) is not null.
   */
  ProgramBlocks(
      RowCursor rows,
      CompiledProgram compiled,
      VectorFilter vectorFilter,
      KeySetFilter keys,
      VectorProbe probe) {
    this.rows = rows;
    this.compiled = compiled;
    this.offered = rows.mayOfferBlocks();
    this.vectorFilter = vectorFilter;
    this.probe = probe;
    this.keys = keys != null && keys.vectorColumn() != null ? keys : null;
    if (vectorFilter != null || this.keys != null || probe != null) {
      use(List.of());
    }
  }

  /**
   * Reads the rows of every block the cursor offers from the vectors of {@code columns} (layout
   * indexes, each with a {@link VectorColumn#rowsOf} vector): the selected rows of such a block are
   * handed out by {@link #nextVectorRow()}, and the cursor skips the block undecoded (a block with
   * a value its vectors do not hold, a DECIMAL beyond a long, is read row by row). {@code filter},
   * when not null (the vector filter is incomplete), is tested on each selected row, read first
   * from the vectors of its {@code filterColumns}. For rows that read neither the row key nor
   * columns without such a vector; call before the first row.
   */
  void rowsFromVectors(
      int[] columns, int[] filterColumns, RowExpression filter, EvalContext context) {
    if (!offered) {
      return;
    }
    this.rowFilter = filter;
    this.context = context;
    // the filter's columns first: the others are read for the rows it keeps
    int[] all =
        filter == null
            ? columns
            : IntStream.concat(IntStream.of(filterColumns), IntStream.of(columns))
                .distinct()
                .toArray();
    this.filterCount = filter == null ? 0 : filterColumns.length;
    RowLayout layout = compiled.program.layout();
    rowColumns = all;
    rowVectors = new VectorColumn[all.length];
    rowTypes = new TypeName[all.length];
    rowNumbers = new NumberVector[all.length];
    for (int i = 0; i < all.length; i++) {
      DataType type = layout.columnType(all[i]);
      rowVectors[i] = VectorColumn.rowsOf(all[i], type, layout.isKeyColumn(all[i]));
      rowTypes[i] = type.name();
    }
    row = new Object[layout.columnCount()];
    use(List.of(rowVectors));
  }

  /**
   * Moves to the next selected row (that the filter keeps) of the block read from vectors, if one
   * is left: then {@link #vectorRow()} holds it, and the cursor is past its block.
   */
  boolean nextVectorRow() {
    while (vectorRowsLeft > 0) {
      vectorRowsLeft--;
      int at = selection[vectorRowNext++];
      readColumns(at, 0, filterCount);
      if (rowFilter != null && !Boolean.TRUE.equals(rowFilter.evaluate(row, context))) {
        continue;
      }
      readColumns(at, filterCount, rowColumns.length);
      return true;
    }
    return false;
  }

  /**
   * The current vector row's columns at their layout indexes (the others stale); reused from row to
   * row: copy what is kept.
   */
  Object[] vectorRow() {
    return row;
  }

  private void readColumns(int at, int from, int to) {
    for (int i = from; i < to; i++) {
      row[rowColumns[i]] = rowVectors[i].objectAt(rowNumbers[i], at, rowTypes[i]);
    }
  }

  /**
   * The key-set filter of {@code probe}'s first key over {@code table}'s keys, made once per table
   * and layout for all the scans of a query; null for LEFT and ANTI probes (which keep the rows
   * that match nothing) and keys it does not apply to.
   */
  static KeySetFilter keyFilter(HashProbe probe, JoinHashTable table, RowLayout layout) {
    if (!probe.keyFilter()
        || (probe.kind() != HashProbe.Kind.INNER && probe.kind() != HashProbe.Kind.SEMI)) {
      return null;
    }
    Expr first = probe.probeKeys().get(0);
    Optional<KeySetFilter> filter =
        table.derived(
            List.of("key-set", first, layout),
            t ->
                t.longKeys() != null
                    ? KeySetFilter.ofLongs(first, t.longKeys().keys(0), layout)
                    : KeySetFilter.of(first, t.keyValues(0), layout));
    return filter.orElse(null);
  }

  /**
   * Lets {@code sink} take whole blocks whose vectors have {@code columns} (besides the filters').
   */
  void sink(BlockSink sink, List<VectorColumn> columns) {
    this.sink = sink;
    use(columns);
  }

  /** Whether blocks are offered for neither filters nor rows from vectors (only to a sink). */
  private boolean onlySinking() {
    return vectorFilter == null && keys == null && probe == null && rowColumns == null;
  }

  /** Stops handing blocks to the sink (which keeps refusing them); the filters still skip. */
  void stopSinking() {
    sink = null;
    run = onlySinking() ? null : run;
  }

  private void use(List<VectorColumn> columns) {
    if (!offered) {
      return;
    }
    extraColumns = columns;
    List<VectorColumn> all = new ArrayList<>(columns);
    if (vectorFilter != null) {
      for (VectorColumn c : vectorFilter.columns()) {
        if (!all.contains(c)) {
          all.add(c);
        }
      }
    }
    if (keys != null && !all.contains(keys.vectorColumn())) {
      all.add(keys.vectorColumn());
    }
    if (probe != null) {
      for (VectorColumn c : probe.columns()) {
        if (!all.contains(c)) {
          all.add(c);
        }
      }
    }
    if (vectorReader == null) {
      vectorReader = compiled.borrowReader();
    }
    run = new BlockRun(compiled.program.layout(), vectorReader, all);
  }

  /**
   * Before the cursor moves on: handles the block the cursor offers, if any, unless the rows of one
   * are being read. Returns how many rows it skipped (the block's, when the filters select none of
   * them or the sink took them), or 0: then the cursor reads rows, and when the filters selected
   * from the block, {@link #guide()} tells which.
   */
  int skipOffered() {
    if (guidedLeft > 0 || vectorRowsLeft > 0 || run == null || !rows.peekBlock(run)) {
      return 0;
    }
    BlockRun block = run;
    int n = block.size();
    if (n == 0 || filtersUnfit(block)) {
      // the rows and a sink check their own columns: a string too long for its vector leaves the
      // block to be read row by row, the rows the filters selected only
      return 0;
    }
    int selected = n;
    int[] chosen = null;
    guidedByKeys = false;
    if (vectorFilter != null || keys != null || probe != null) {
      chosen = selection(n);
      guidedByKeys = keys != null || probe != null;
      boolean all = true;
      selected = n;
      // a bitmap of the build keys first (as cheap as a comparison and most often the more
      // selective: a join's few keys), then the vector filter on the rows it keeps
      boolean keysFirst = keys != null && keys.testsByBitmap();
      if (keysFirst) {
        selected = selectKeys(block, null, n, chosen);
        all = false;
      }
      if (vectorFilter != null && selected > 0) {
        selected = vectorFilter.select(block, all ? null : chosen, selected, chosen);
        all = false;
      }
      if (keys != null && !keysFirst && selected > 0) {
        selected = selectKeys(block, all ? null : chosen, selected, chosen);
        all = false;
      }
      if (probe != null && selected > 0) {
        selected = probe.select(block, all ? null : chosen, selected, chosen);
      }
    }
    if (selected > 0 && rowColumns != null && rowsFit(block)) {
      // the selected rows are read from the vectors, the block is skipped
      if (chosen == null) {
        chosen = selection(n);
        for (int i = 0; i < n; i++) {
          chosen[i] = i;
        }
      }
      for (int i = 0; i < rowColumns.length; i++) {
        rowNumbers[i] = block.numbers(rowVectors[i]);
      }
      vectorRowsLeft = selected;
      vectorRowNext = 0;
    } else if (selected > 0) {
      int left = sink == null ? selected : sink.add(block, chosen, selected, selection(n));
      if (left > 0) {
        if (left < selected || chosen != null) {
          // the block's rows are the next ones: only those selected are read
          guidedLeft = n;
          guidedRow = 0;
          guidedNext = 0;
          guidedSelected = left;
        }
        return 0;
      }
    }
    rows.skipBlock();
    return n;
  }

  /**
   * The key-set filter's selection of {@code block}'s rows at {@code in[0, n)} (all when null) into
   * {@code out}, counted towards its judgement.
   */
  private int selectKeys(BlockRun block, int[] in, int n, int[] out) {
    int kept = keys.select(block.numbers(keys.vectorColumn()), in, n, out);
    judgeKeys(n, kept);
    return kept;
  }

  /** Whether a filter's column of {@code block} has a value its vector does not hold. */
  private boolean filtersUnfit(BlockRun block) {
    if (vectorFilter != null) {
      for (int i = 0; i < vectorFilter.columnCount(); i++) {
        if (block.numbers(vectorFilter.column(i)).unfit > 0) {
          return true;
        }
      }
    }
    if (probe != null) {
      for (VectorColumn c : probe.columns()) {
        if (block.numbers(c).unfit > 0) {
          return true;
        }
      }
    }
    return keys != null && block.numbers(keys.vectorColumn()).unfit > 0;
  }

  /**
   * Whether the vectors of {@code block} hold every value of the rows' columns. When they do not
   * for {@value #UNFIT_BLOCKS} blocks, more than for the others (DECIMALs beyond a long), rows stop
   * being read from vectors: their vectors cost a read of every row besides the reading of the
   * rows.
   */
  private boolean rowsFit(BlockRun block) {
    for (VectorColumn c : rowVectors) {
      if (block.numbers(c).unfit > 0) {
        if (++unfitBlocks >= UNFIT_BLOCKS && unfitBlocks > fitBlocks) {
          rowColumns = null;
          if (onlySinking()) {
            run = null;
          } else {
            use(List.of()); // the filters' columns only
          }
        }
        return false;
      }
    }
    fitBlocks++;
    return true;
  }

  /** {@link #selection}, grown to hold {@code n} rows. */
  private int[] selection(int n) {
    if (selection.length < n) {
      selection = new int[Math.max(n, 2 * selection.length)];
    }
    return selection;
  }

  /** Counts a selection of the key filter in its trial, which may drop it. */
  private void judgeKeys(int tested, int kept) {
    if (keysTrial.dropAfter(tested, kept)) {
      keys = null;
      if (onlySinking()) {
        run = null; // a probing scan has no sink
      } else {
        use(extraColumns); // the other columns, no longer the key's
      }
    }
  }

  /**
   * After the cursor moved to a row: whether it is one of a block the filters selected from, and if
   * so whether they selected it (SELECTED: it passed the key filter, if any, and the vector filter,
   * which, when incomplete, the row filter must still confirm).
   */
  int guide() {
    if (guidedLeft == 0) {
      return UNGUIDED;
    }
    guidedLeft--;
    int at = guidedRow++;
    if (guidedNext >= guidedSelected || selection[guidedNext] != at) {
      return PASSED_OVER;
    }
    guidedNext++;
    return SELECTED;
  }

  /**
   * Whether the SELECTED rows of the block being read (or the rows {@link #nextVectorRow()} hands
   * out) passed the probe's key filter.
   */
  boolean keyed() {
    return guidedByKeys;
  }

  /**
   * With a {@link VectorProbe}: the first build row of the current row, which the probe selected
   * (read from vectors when {@code fromVectors}, else one of the block being read, {@link
   * #keyed()}).
   */
  int match(boolean fromVectors) {
    return probe.match(fromVectors ? vectorRowNext - 1 : guidedNext - 1);
  }

  /** Gives the reader back; once. */
  void close() {
    if (vectorReader != null) {
      compiled.giveBack(vectorReader);
      vectorReader = null;
    }
  }
}
