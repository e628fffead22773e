package io.cairn.store.cell;

import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.ColumnVectors;
import io.cairn.core.expr.NumberVector;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.type.DataType;
import java.util.List;

/**
 * A scan's request for whole data blocks as column vectors, and the block a cursor last described
 * through it: a cursor whose next cells are exactly one data block ({@link CellCursor#peekBlock})
 * fills in the block's facts (its cells, whether every cell is a put of a row of its own, its
 * sequence ids, its first and last row) and the vectors of the {@link #columns()} asked for, built
 * once per block and kept by the store's vector cache. {@link RowCursor#peekBlock} tells whether
 * the rows of the block are exactly the scan's next visible rows; then the scan reads them here
 * ({@link ColumnVectors}) and skips the block ({@link RowCursor#skipBlock}) without decoding a
 * cell. One per scan, used by its thread; the vectors are shared, immutable.
 */
public final class BlockRun implements ColumnVectors {
  private final RowLayout layout;
  private final RowReader reader;
  private final List<VectorColumn> columns;

  /**
   * {@link #columns} as an array, for {@link #numbers}: a list's class depends on its size (List.of
   * of 1-2 elements or more), so a loop over lists of both sizes is compiled for one and
   * deoptimizes on the other.
   */
  private final VectorColumn[] asked;

  private final long[] keys;
  private final NumberVector[] vectors;

  private int rows;
  private boolean plain;
  private long minSequenceId;
  private long maxSequenceId;
  private byte[] firstRow;
  private byte[] lastRow;

  /**
   * Asks for {@code columns} of rows of {@code layout}; {@code reader}, a reader of that layout
   * that only this request uses, decodes blocks whose vectors are not cached yet (a NO_CACHE scan
   * is offered only blocks whose vectors are cached already).
   */
  public BlockRun(RowLayout layout, RowReader reader, List<VectorColumn> columns) {
    this.layout = requireNonNull(layout, "layout is null");
    this.reader = requireNonNull(reader, "reader is null");
    this.columns = List.copyOf(columns);
    this.asked = this.columns.toArray(new VectorColumn[0]);
    this.keys = new long[this.columns.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = key(layout, this.columns.get(i));
    }
    this.vectors = new NumberVector[keys.length];
  }

  /**
   * The cache key of {@code column}: the column's id (stable in its table) with its type, the kind
   * and scale it is read at, so a block's vectors are never read under another layout's meaning.
   */
  private static long key(RowLayout layout, VectorColumn column) {
    DataType type = layout.columnType(column.column());
    long id = layout.columns().get(column.column()).columnId();
    long typeCode = type.name().ordinal() & 0xFF;
    boolean keyColumn = layout.isKeyColumn(column.column());
    return id << 32
        | typeCode << 24
        | (keyColumn ? 1L : 0L) << 23
        | (long) (column.kind() & 0x7F) << 16
        | (column.scale() & 0xFFFF);
  }

  public RowLayout layout() {
    return layout;
  }

  /** The reader that decodes a block's rows to build its vectors. */
  public RowReader reader() {
    return reader;
  }

  public List<VectorColumn> columns() {
    return columns;
  }

  /** Column {@code i} of {@link #columns()}. */
  public VectorColumn column(int i) {
    return asked[i];
  }

  /** How many columns were asked for: {@code columns().size()}. */
  public int columnCount() {
    return asked.length;
  }

  /** The cache key of column {@code i} of {@link #columns()}. */
  public long key(int i) {
    return keys[i];
  }

  /** Sets the described block's facts (by the cursor that describes it). */
  public void describe(
      int rows, boolean plain, long minSequenceId, long maxSequenceId, byte[] first, byte[] last) {
    this.rows = rows;
    this.plain = plain;
    this.minSequenceId = minSequenceId;
    this.maxSequenceId = maxSequenceId;
    this.firstRow = first;
    this.lastRow = last;
  }

  /** Sets the vector of column {@code i} of the described block. */
  public void vector(int i, NumberVector vector) {
    vectors[i] = vector;
  }

  /** Cells of the described block. */
  @Override
  public int size() {
    return rows;
  }

  /** Whether every cell of the block is a put, each of a row of its own. */
  public boolean plain() {
    return plain;
  }

  public long minSequenceId() {
    return minSequenceId;
  }

  public long maxSequenceId() {
    return maxSequenceId;
  }

  /** The block's first row key (do not change it). */
  public byte[] firstRow() {
    return firstRow;
  }

  /** The block's last row key (do not change it). */
  public byte[] lastRow() {
    return lastRow;
  }

  @Override
  public NumberVector numbers(VectorColumn column) {
    VectorColumn[] asked = this.asked;
    for (int i = 0; i < asked.length; i++) {
      if (asked[i] == column) {
        return vectors[i];
      }
    }
    // an equal column from another holder (a filter's, a probe's): compared field by field here,
    // not by List.indexOf, whose call of equals is megamorphic (a scan asks once per block)
    for (int i = 0; i < asked.length; i++) {
      VectorColumn a = asked[i];
      if (a.column() == column.column()
          && a.kind() == column.kind()
          && a.scale() == column.scale()) {
        return vectors[i];
      }
    }
    throw new IllegalArgumentException(
        "Column " + column + " was not asked for: expected one of " + columns);
  }
}
