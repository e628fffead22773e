package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.ProgramRows.KEPT;
import static io.cairn.store.coprocessor.ProgramRows.PAUSED;

import io.cairn.core.encoding.ByteBuilder;
import io.cairn.core.encoding.KeyEncoding;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.NumberVector;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.memory.MemoryPool;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import io.cairn.store.cell.BlockRun;
import io.cairn.store.cell.RowCursor;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The ORDER BY of a program: reads every kept row (only the top offset + limit under a limit),
 * sorts them in the order of {@link SortKey#comparator} (the driver's ORDER BY comparison), then
 * emits them after the offset, up to the limit. What the sort holds is counted in a reservation of
 * the scan's pool.
 *
 * <p>When every sort key is a plain column (and there is no probe step, and the projection does not
 * read the row key), rows are sorted as bytes ({@link SortBuffer}): each kept row's sort key is
 * encoded into order-preserving bytes, per key a byte for NULL first (0), a value (1) or NULL last
 * (2), then for a value its key encoding ({@link RowReader#appendKey}, inverted for DESC; the same
 * order as {@link io.cairn.core.expr.Values#compare}: numbers by value, strings by code point, -0.0
 * as 0.0, NaN last), and the row's key and value bytes are copied with it; rows are decoded only
 * when emitted. A top-N keeps the rows whose keys are below its N-th row's key, found each time the
 * buffer grows past 2N rows, so that a row which does not enter the top costs its key's encoding
 * and one byte comparison. Otherwise every kept row is projected into Java values and sorted, in a
 * bounded heap under a limit. A byte sort given a spill directory ({@link #spillTo}) writes its
 * buffer as a sorted run when the next row does not fit its memory, and merges the runs at the end
 * ({@link SortRuns}).
 *
 * <p>Used by the scanning thread of its {@link ProgramScanner} only.
 */
final class ProgramSort {
  /** A sorted row's slot in the buffer and in the array it is sorted in. */
  private static final long SORT_SLOT_BYTES = 16;

  /** The byte sort's first byte of a key: NULLS FIRST, a value, NULLS LAST. */
  private static final int NULL_FIRST = 0;

  private static final int VALUE = 1;
  private static final int NULL_LAST = 2;

  /** The sorted rows once all were emitted. */
  private static final Object[][] NO_ROWS = new Object[0][];

  private final ProgramRows rows;
  private final Comparator<Object[]> order;
  private final long limit;
  private final long offset;

  /** The scan's own pool. */
  private final MemoryPool memory;

  /** What the sort buffer or the top-N heap holds; null before the first row. */
  private MemoryReservation sortMemory;

  /** A sort in progress: the projected rows read so far (or the top ones); null before. */
  private List<Object[]> sortRows;

  private PriorityQueue<Object[]> topRows;
  private int topCapacity;

  /** The sorted rows to emit once all rows are read (offset applied at {@link #sortedAt}). */
  private Object[][] sortedOutput;

  private int sortedAt;
  private long emitted;

  /** The reused array of {@link #sortProbe()}. */
  private Object[] probe;

  /** The byte sort's layout columns of the sort keys, their directions and NULL places. */
  private final int[] keyColumns;

  private final SortKey[] keys;

  /** The byte sort's rows; null before the first row, or when rows are sorted as values. */
  private SortBuffer buffer;

  /** The current row's encoded sort key; reused. */
  private final ByteBuilder sortKey = new ByteBuilder(64);

  /**
   * How the first sort key makes a row's prefix in the {@link SortBuffer}: PREFIX_BYTES, the first
   * 8 bytes of the encoded sort key; else the first key's value as a long that does not decrease as
   * the value grows (PREFIX_LONG: {@link RowReader#getLong}; PREFIX_DECIMAL: floor(value * 10^scale
   * of the column), clamped to the longs; PREFIX_DOUBLE: the key encoding's bits; PREFIX_TIMESTAMP:
   * the epoch second), as unsigned, inverted for DESC, NULLs 0 (first) or all ones (last). Rows
   * with equal prefixes are ordered by their whole sort keys.
   */
  private final int prefixKind;

  private static final int PREFIX_BYTES = 0;
  private static final int PREFIX_LONG = 1;
  private static final int PREFIX_DECIMAL = 2;
  private static final int PREFIX_DOUBLE = 3;
  private static final int PREFIX_TIMESTAMP = 4;

  /**
   * Whether equal prefixes are of equal sort keys so far: one key, whose prefix is its value
   * exactly (a decimal of the column's scale or less and in range, no value's prefix that of a
   * NULL); then {@link SortBuffer#sort} need not compare keys.
   */
  private boolean exactPrefixes;

  /** PREFIX_DECIMAL's column scale. */
  private final int decimalScale;

  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  /** A byte top-N's N-th key: rows with a key not below it are out; null until found. */
  private byte[] threshold;

  /**
   * A prefix that at least N kept rows are not above (unsigned; all ones when none is known): a row
   * whose prefix is greater is not in the top. The least of the buffer's N-th row's prefix and the
   * greatest of the N least prefixes seen in blocks' vectors ({@link #vectorPrefixes}), which
   * tightens from the first block on, where the buffer's threshold waits for 2N rows to enter.
   */
  private long prefixBound = -1L;

  /** The least prefixes of the rows seen in blocks' vectors, when the top-N passes over rows. */
  private LeastPrefixes vectorPrefixes;

  /** The largest N for which {@link #vectorPrefixes} is kept. */
  private static final int MAX_VECTOR_PREFIXES = 1 << 16;

  /** The byte top-N's rows at which it keeps its top N and finds its threshold. */
  private int compactAt;

  /** The next and end position of the rows a byte sort emits, once all are read and sorted. */
  private int emitAt = -1;

  private int emitEnd;

  ProgramSort(ProgramRows rows, MemoryPool memory) {
    this.rows = rows;
    this.order = rows.compiled.order;
    ScanProgram program = rows.compiled.program;
    this.limit = program.limit();
    this.offset = program.offset();
    this.memory = memory;
    this.keys = program.orderBy().toArray(new SortKey[0]);
    this.keyColumns = sortsBytes(rows) ? new int[keys.length] : null;
    int kind = PREFIX_BYTES;
    int scale = 0;
    if (keyColumns != null) {
      for (int i = 0; i < keys.length; i++) {
        keyColumns[i] = rows.projectedColumns[keys[i].column()];
      }
      DataType first = program.layout().columnType(keyColumns[0]);
      kind =
          switch (first.name()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIME -> PREFIX_LONG;
            case DECIMAL ->
                first.precision() != DataType.UNSPECIFIED ? PREFIX_DECIMAL : PREFIX_BYTES;
            case FLOAT, DOUBLE -> PREFIX_DOUBLE;
            case TIMESTAMP -> PREFIX_TIMESTAMP;
            default -> PREFIX_BYTES;
          };
      scale = first.scale();
    }
    this.prefixKind = kind;
    this.decimalScale = scale;
    this.exactPrefixes =
        keys.length == 1
            && (kind == PREFIX_LONG || kind == PREFIX_DECIMAL || kind == PREFIX_DOUBLE);
  }

  /** Whether {@code rows} are sorted as bytes: see the class comment. */
  private static boolean sortsBytes(ProgramRows rows) {
    if (rows.probes() || rows.readsKey) {
      return false;
    }
    RowLayout layout = rows.compiled.program.layout();
    for (SortKey key : rows.compiled.program.orderBy()) {
      int column = rows.projectedColumns[key.column()];
      if (column < 0 || !KeyEncoding.isKeyType(layout.columnType(column).name())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads and projects every kept row (keeping only the top {@code offset + limit} of them under a
   * limit), then emits them sorted, after the offset, up to the limit; NOT_YET while reading when
   * the deadline passes (the rows read so far are kept for the next call).
   */
  Object[] next() {
    if (keyColumns != null) {
      return nextSortedBytes();
    }
    if (sortedOutput == null) {
      if (limit == 0) {
        return null;
      }
      if (sortRows == null && topRows == null) {
        sortMemory = memory.reservation("a sort in the store");
        long capacity = limit == ScanProgram.NO_LIMIT ? Long.MAX_VALUE : offset + limit;
        if (capacity < Integer.MAX_VALUE / 2 && capacity >= 0) {
          topCapacity = (int) capacity;
          topRows = new PriorityQueue<>(Math.min(topCapacity, 1 << 16), order.reversed());
        } else {
          sortRows = new ArrayList<>();
        }
      }
      int found;
      while ((found = rows.nextKept()) == KEPT) {
        if (topRows == null) {
          sortRows.add(holdSorted(rows.project()));
        } else if (topRows.size() < topCapacity) {
          topRows.add(holdSorted(rows.project()));
        } else if (order.compare(sortProbe(), topRows.peek()) < 0) {
          // only a row that enters the top is projected whole
          sortMemory.free(SORT_SLOT_BYTES + RowSizes.row(topRows.poll()));
          topRows.add(holdSorted(rows.project()));
        }
      }
      if (found == PAUSED) {
        return ProgramScanner.NOT_YET;
      }
      rows.closeRowsEarly();
      Object[][] all = (topRows != null ? topRows : sortRows).toArray(new Object[0][]);
      topRows = null;
      sortRows = null;
      Arrays.sort(all, order);
      sortedOutput = all;
      sortedAt = (int) Math.min(offset, all.length);
    }
    if ((limit != ScanProgram.NO_LIMIT && emitted >= limit) || sortedAt >= sortedOutput.length) {
      sortedOutput = NO_ROWS; // every row emitted: what the sort held goes now, not at close
      sortedAt = 0;
      sortMemory.close();
      return null;
    }
    emitted++;
    Object[] row = sortedOutput[sortedAt];
    sortedOutput[sortedAt++] = null;
    return row;
  }

  /** Where rows past the sort's memory go as sorted runs; null: the sort fails there (53200). */
  private Path spillDirectory;

  /** The runs written, or null while the rows fit. */
  private SortRuns runs;

  void spillTo(Path directory) {
    spillDirectory = directory;
  }

  /** {@link #next()} of the byte sort. */
  private Object[] nextSortedBytes() {
    if (runs != null && emitAt >= 0) {
      Object[] row = runs.nextRow(rows);
      if (row == null) {
        release(); // every row emitted: the runs' files go now, not at close
      }
      return row;
    }
    if (emitAt < 0) {
      if (limit == 0) {
        return null;
      }
      if (buffer == null) {
        sortMemory = memory.reservation("a sort in the store");
        buffer = new SortBuffer(sortMemory);
        long capacity = limit == ScanProgram.NO_LIMIT ? Long.MAX_VALUE : offset + limit;
        if (capacity < Integer.MAX_VALUE / 2 && capacity >= 0) {
          topCapacity = (int) capacity;
          compactAt = Math.max(2 * topCapacity, topCapacity + 1024);
          passOverRowsOutOfTheTop();
        } else {
          topCapacity = -1;
        }
      }
      RowCursor cursor = rows.currentRow();
      int found;
      while ((found = rows.nextKept()) == KEPT) {
        long prefix = 0;
        if (prefixKind != PREFIX_BYTES) {
          prefix = firstPrefix();
          if (Long.compareUnsigned(prefix, prefixBound) > 0) {
            continue; // not in the top: no key encoded, nothing copied
          }
        }
        encodeSortKey();
        byte[] key = sortKey.array();
        int length = sortKey.length();
        if (prefixKind == PREFIX_BYTES) {
          prefix = SortBuffer.bytesPrefix(key, 0, length);
        }
        if (threshold != null
            && Arrays.compareUnsigned(key, 0, length, threshold, 0, threshold.length) >= 0) {
          continue; // not in the top: nothing copied
        }
        try {
          add(prefix, key, length, cursor);
        } catch (CairnException e) {
          if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED
              || spillDirectory == null
              || buffer.size() == 0) {
            throw e;
          }
          spill(); // then the row again, in an empty buffer: alone past the memory, it fails
          add(prefix, key, length, cursor);
        }
        if (topCapacity > 0 && buffer.size() >= compactAt) {
          buffer.keepFirst(topCapacity, exactPrefixes);
          threshold = buffer.copyKey(topCapacity - 1);
          long nthPrefix = buffer.prefix(topCapacity - 1);
          if (Long.compareUnsigned(nthPrefix, prefixBound) < 0) {
            prefixBound = nthPrefix;
          }
        }
      }
      if (found == PAUSED) {
        return ProgramScanner.NOT_YET;
      }
      rows.closeRowsEarly();
      if (runs != null) {
        spill(); // the rest as the last run: all are merged
        sortMemory.close();
        buffer = null;
        runs.window(offset, limit);
        emitAt = 0;
        return nextSortedBytes();
      }
      buffer.sort(exactPrefixes);
      emitAt = (int) Math.min(offset, buffer.size());
      emitEnd =
          limit == ScanProgram.NO_LIMIT
              ? buffer.size()
              : (int) Math.min(buffer.size(), Math.min(Integer.MAX_VALUE, offset + limit));
    }
    if (emitAt >= emitEnd) {
      buffer = null; // every row emitted: what the sort held goes now, not at close
      sortMemory.close();
      return null;
    }
    SortBuffer b = buffer;
    int i = emitAt++;
    return rows.projectCopy(
        b.page(i), b.keyOffset(i), b.keyLength(i), b.view(i), b.valueOffset(i), b.valueLength(i));
  }

  /** The first sort key's column as a block's vector, when a top-N skips blocks; else null. */
  private VectorColumn prefixVector;

  /**
   * Lets a top-N whose first key is an integer, date or DECIMAL column pass over the rows of blocks
   * read as vectors whose prefixes are above its bound, undecoded: only the others are read.
   */
  private void passOverRowsOutOfTheTop() {
    int column = keyColumns[0];
    if (prefixKind == PREFIX_LONG) {
      prefixVector = new VectorColumn(column, RowReader.LONG, 0);
    } else if (prefixKind == PREFIX_DECIMAL && decimalScale >= 0 && decimalScale <= 18) {
      prefixVector = new VectorColumn(column, RowReader.DECIMAL_AT_SCALE, decimalScale);
    } else {
      return;
    }
    if (topCapacity <= MAX_VECTOR_PREFIXES) {
      vectorPrefixes = new LeastPrefixes(topCapacity);
    }
    rows.sinkBlocks(this::inTheTop, List.of(prefixVector));
  }

  /**
   * The selected rows of a block that may enter the top, into {@code narrowed}: those whose
   * first-key prefix is not above the bound, and those whose prefix the vector does not hold (a
   * NULL, a value beyond a long); how many (0: the block is done). Each prefix of the block that is
   * among the N least seen so far tightens the bound, for the rest of the block too.
   */
  private int inTheTop(BlockRun run, int[] selection, int count, int[] narrowed) {
    NumberVector v = run.numbers(prefixVector);
    long[] values = v.longs;
    byte[] status = v.status;
    long flip = keys[0].descending() ? -1L : 0L;
    long bound = prefixBound;
    LeastPrefixes least = vectorPrefixes;
    int in = 0;
    for (int i = 0; i < count; i++) {
      int at = selection == null ? i : selection[i];
      narrowed[in] = at;
      if (status != null && status[at] != RowReader.NUMBER_VALUE) {
        in++; // a NULL's prefix (or a value the vector does not hold) is found when it is read
        continue;
      }
      long prefix = (values[at] ^ Long.MIN_VALUE) ^ flip;
      if (Long.compareUnsigned(prefix, bound) <= 0) {
        in++;
        if (least != null) {
          bound = least.add(prefix, bound);
        }
      }
    }
    prefixBound = bound;
    return in;
  }

  /** The current row's prefix of {@link #prefixKind} (not PREFIX_BYTES). */
  private long firstPrefix() {
    int column = keyColumns[0];
    SortKey key = keys[0];
    RowReader reader = rows.reader;
    if (reader.isNull(column)) {
      return key.nullsFirst() ? 0 : -1L;
    }
    long value =
        switch (prefixKind) {
          case PREFIX_LONG -> reader.getLong(column);
          case PREFIX_DECIMAL -> decimalPrefix(reader, column);
          case PREFIX_DOUBLE -> {
            double d = reader.getDouble(column);
            long bits = Double.doubleToLongBits(d == 0.0d ? 0.0d : d); // -0.0 is 0.0
            yield bits < 0 ? ~bits ^ Long.MIN_VALUE : bits; // NaN (canonical) the greatest
          }
          default -> reader.getEpochSecond(column);
        };
    long prefix = value ^ Long.MIN_VALUE;
    prefix = key.descending() ? ~prefix : prefix;
    if (prefix == 0 || prefix == -1L) {
      exactPrefixes = false; // a NULL's prefix
    }
    return prefix;
  }

  /** floor(value * 10^decimalScale) of a non-NULL DECIMAL column, clamped to the longs. */
  private long decimalPrefix(RowReader reader, int column) {
    if (!reader.decimalFitsLong(column)) {
      exactPrefixes = false;
      BigInteger floor =
          reader.getDecimal(column).setScale(decimalScale, RoundingMode.FLOOR).unscaledValue();
      return floor.bitLength() < 64
          ? floor.longValue()
          : floor.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    long unscaled = reader.getUnscaledLong(column);
    int scale = reader.getScale(column);
    if (scale == decimalScale) {
      return unscaled;
    }
    if (scale > decimalScale) {
      exactPrefixes = false; // digits past the column's scale (floored)
      int digits = scale - decimalScale;
      return digits < POWERS_OF_TEN.length
          ? Math.floorDiv(unscaled, POWERS_OF_TEN[digits])
          : unscaled < 0 ? -1 : 0;
    }
    int digits = decimalScale - scale;
    if (unscaled == 0) {
      return 0;
    }
    if (digits >= POWERS_OF_TEN.length) {
      exactPrefixes = false;
      return unscaled < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    long factor = POWERS_OF_TEN[digits];
    long product = unscaled * factor;
    if (Math.multiplyHigh(unscaled, factor) != (product >> 63)) {
      exactPrefixes = false; // clamped
      return unscaled < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return product;
  }

  /**
   * Encodes the reader's current row's sort keys into {@link #sortKey}: per key its NULL byte, then
   * for a value its key encoding (see the class comment).
   */
  private void encodeSortKey() {
    ByteBuilder out = sortKey;
    out.truncate(0);
    RowReader reader = rows.reader;
    for (int i = 0; i < keyColumns.length; i++) {
      int column = keyColumns[i];
      SortKey key = keys[i];
      if (reader.isNull(column)) {
        out.write(key.nullsFirst() ? NULL_FIRST : NULL_LAST);
      } else {
        int from = out.length();
        reader.appendKey(column, key.descending() ? SortOrder.DESC : SortOrder.ASC, out);
        out.set(from, VALUE); // the key encoding's marker, inverted for DESC
      }
    }
  }

  /** Counts a row that the sort keeps, before it is kept. */
  private Object[] holdSorted(Object[] row) {
    sortMemory.add(SORT_SLOT_BYTES + RowSizes.row(row));
    return row;
  }

  /**
   * The sort keys of the reader's current row, at their projection positions in a reused array (the
   * other positions are stale): a top-N compares this with its worst row and projects the row whole
   * only when it enters. Decodes only the columns the sort keys read.
   */
  private Object[] sortProbe() {
    if (rows.readsKey) {
      return rows.project();
    }
    if (probe == null) {
      probe = new Object[rows.projection.length];
    }
    Object[] row = rows.reader.peekDecodedRow(rows.compiled.sortColumns);
    for (int i : rows.compiled.sortPositions) {
      int column = rows.projectedColumns[i];
      probe[i] = column >= 0 ? row[column] : rows.projection[i].evaluate(row, rows.context);
    }
    return probe;
  }

  /** Whether the sort has started, and so holds memory until {@link #release()}. */
  boolean holdsMemory() {
    return sortMemory != null;
  }

  /** Copies the cursor's row with its sort key {@code key[0, length)} into the buffer. */
  private void add(long prefix, byte[] key, int length, RowCursor cursor) {
    buffer.add(
        prefix,
        key,
        length,
        cursor.keyArray(),
        cursor.keyOffset(),
        cursor.keyLength(),
        cursor.valueBuffer(),
        cursor.valueOffset(),
        cursor.valueLength());
  }

  /**
   * Writes the buffer's rows, sorted (a top-N's first N), as a run and starts an empty buffer in a
   * new reservation.
   */
  private void spill() {
    if (runs == null) {
      runs = new SortRuns(spillDirectory);
    }
    buffer.sort(exactPrefixes);
    runs.write(buffer, topCapacity > 0 ? Math.min(buffer.size(), topCapacity) : buffer.size());
    sortMemory.close();
    sortMemory = memory.reservation("a sort in the store");
    buffer = new SortBuffer(sortMemory);
  }

  /** Drops the sorted rows and gives their reservation back (idempotent). */
  void release() {
    if (runs != null) {
      runs.close();
      runs = null;
    }
    buffer = null;
    emitAt = Integer.MAX_VALUE;
    emitEnd = 0;
    sortRows = null;
    topRows = null;
    sortedOutput = null;
    if (sortMemory != null) {
      sortMemory.close();
    }
  }
}
