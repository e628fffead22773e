package io.cairn.store.file;

import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.NumberVector;
import io.cairn.core.expr.VectorColumn;
import io.cairn.store.cell.BlockRun;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link BlockVectors} from a data block's payload: one pass over its cells with a decoder
 * of its own that records the block's facts and, when every cell is a put of a row of its own,
 * reads the asked-for columns of each row with {@link RowReader#readNumbers} into vectors.
 */
final class BlockVectorBuilder {
  private BlockVectorBuilder() {}

  /**
   * The initial capacity of the vectors; they grow for larger blocks and are trimmed at the end.
   */
  private static final int INITIAL_ROWS = 512;

  /**
   * The block whose payload is {@code data[0, length)} in {@code encoding}, with the columns of
   * {@code run} at indexes {@code wanted}.
   */
  static BlockVectors build(
      byte[] data, int length, DataBlockEncoding encoding, BlockRun run, int[] wanted) {
    DataBlockDecoder decoder = encoding.newDecoder();
    decoder.reset(data, ByteBuffer.wrap(data), 0, length);
    boolean knowsSameRow = decoder.knowsSameRow();
    int m = wanted.length;
    int[] columns = new int[m];
    byte[] kinds = new byte[m];
    int[] scales = new int[m];
    long[] keys = new long[m];
    for (int i = 0; i < m; i++) {
      VectorColumn c = run.column(wanted[i]);
      columns[i] = c.column();
      kinds[i] = c.kind();
      scales[i] = c.scale();
      keys[i] = run.key(wanted[i]);
    }
    int capacity = INITIAL_ROWS;
    byte[][] status = new byte[m][capacity];
    long[][] longs = new long[m][];
    double[][] doubles = new double[m][];
    for (int i = 0; i < m; i++) {
      if (kinds[i] == RowReader.DOUBLE) {
        doubles[i] = new double[capacity];
      } else {
        longs[i] = new long[capacity];
      }
    }
    RowReader reader = run.reader();
    LongStrings[] strings = new LongStrings[m];
    for (int i = 0; i < m; i++) {
      // a key column's bytes are escaped: never asked for as SHORT_CHARS (VectorColumn.bytesOf)
      if (kinds[i] == VectorColumn.SHORT_CHARS) {
        strings[i] = new LongStrings();
      }
    }
    int[] numeric = indexes(kinds, NUMBERS);
    int[] shorts = indexes(kinds, SHORTS);
    int[] slices = indexes(kinds, SLICES);
    ByteHeap[] heaps = new ByteHeap[m];
    for (int i : slices) {
      heaps[i] = new ByteHeap();
    }
    int[] numericColumns = pick(columns, numeric);
    byte[] numericKinds = new byte[numeric.length];
    int[] numericScales = pick(scales, numeric);
    for (int j = 0; j < numeric.length; j++) {
      numericKinds[j] = kinds[numeric[j]];
    }
    byte[][] numericStatus = new byte[numeric.length][];
    long[][] numericLongs = new long[numeric.length][];
    double[][] numericDoubles = new double[numeric.length][];
    boolean views = false;
    int rows = 0;
    boolean plain = true;
    long minSequence = Long.MAX_VALUE;
    long maxSequence = Long.MIN_VALUE;
    byte[] first = null;
    byte[] previous = new byte[0];
    while (decoder.next()) {
      long sequence = decoder.sequenceId;
      minSequence = Math.min(minSequence, sequence);
      maxSequence = Math.max(maxSequence, sequence);
      byte[] rowArray = decoder.rowArray;
      int rowOffset = decoder.rowOffset;
      int rowLength = decoder.rowLength;
      if (first == null) {
        first = Arrays.copyOfRange(rowArray, rowOffset, rowOffset + rowLength);
      } else if (knowsSameRow
          ? decoder.sameRowAsPrevious
          : Arrays.equals(
              rowArray, rowOffset, rowOffset + rowLength, previous, 0, previous.length)) {
        plain = false;
      }
      if (decoder.delete) {
        plain = false;
      }
      if (!knowsSameRow || !decoder.hasMoreCells()) {
        previous = Arrays.copyOfRange(rowArray, rowOffset, rowOffset + rowLength);
      }
      if (plain && m > 0) {
        if (rows == capacity) {
          capacity *= 2;
          views = false;
          for (int i = 0; i < m; i++) {
            status[i] = Arrays.copyOf(status[i], capacity);
            if (longs[i] != null) {
              longs[i] = Arrays.copyOf(longs[i], capacity);
            } else {
              doubles[i] = Arrays.copyOf(doubles[i], capacity);
            }
          }
        }
        reader.reset(
            rowArray,
            rowOffset,
            rowLength,
            decoder.valueBuffer(),
            decoder.valueOffset,
            decoder.valueLength);
        if (!views) {
          // the numeric columns' arrays as readNumbers takes them (again after they grow)
          for (int j = 0; j < numeric.length; j++) {
            numericStatus[j] = status[numeric[j]];
            numericLongs[j] = longs[numeric[j]];
            numericDoubles[j] = doubles[numeric[j]];
          }
          views = true;
        }
        reader.readNumbers(
            numericColumns,
            numericKinds,
            numericScales,
            numericStatus,
            numericLongs,
            numericDoubles,
            rows);
        for (int i : shorts) {
          int column = columns[i];
          if (reader.isNull(column)) {
            status[i][rows] = RowReader.NUMBER_NULL;
          } else {
            long v;
            if (kinds[i] != VectorColumn.SHORT_CHARS) {
              v = reader.shortBytes(column);
            } else {
              v = reader.shortChars(column);
              if (v == RowReader.NOT_SHORT) {
                v = strings[i].refer(reader.trimmedChars(column));
              }
            }
            status[i][rows] =
                v == RowReader.NOT_SHORT ? RowReader.NUMBER_UNFIT : RowReader.NUMBER_VALUE;
            longs[i][rows] = v;
          }
        }
        for (int i : slices) {
          int column = columns[i];
          if (reader.isNull(column)) {
            status[i][rows] = RowReader.NUMBER_NULL;
          } else {
            status[i][rows] = RowReader.NUMBER_VALUE;
            longs[i][rows] = heaps[i].add(reader, column);
          }
        }
      }
      rows++;
    }
    if (first == null) {
      first = new byte[0];
      minSequence = 0;
      maxSequence = 0;
    }
    NumberVector[] vectors;
    if (!plain) {
      keys = new long[0];
      vectors = new NumberVector[0];
    } else {
      vectors = new NumberVector[m];
      for (int i = 0; i < m; i++) {
        vectors[i] =
            vector(
                status[i],
                longs[i],
                doubles[i],
                rows,
                strings[i] == null ? null : strings[i].values(),
                heaps[i] == null ? null : heaps[i].bytes());
      }
    }
    return new BlockVectors(rows, plain, minSequence, maxSequence, first, previous, keys, vectors);
  }

  /** {@link #indexes}: the kinds read by {@link RowReader#readNumbers}. */
  private static final int NUMBERS = 0;

  /** {@link #indexes}: SHORT_BYTES and SHORT_CHARS. */
  private static final int SHORTS = 1;

  /** {@link #indexes}: BYTES. */
  private static final int SLICES = 2;

  /** The indexes of the kinds of {@code group} (NUMBERS, SHORTS or SLICES). */
  private static int[] indexes(byte[] kinds, int group) {
    int[] found = new int[kinds.length];
    int n = 0;
    for (int i = 0; i < kinds.length; i++) {
      int g =
          VectorColumn.isShort(kinds[i])
              ? SHORTS
              : kinds[i] == VectorColumn.BYTES ? SLICES : NUMBERS;
      if (g == group) {
        found[n++] = i;
      }
    }
    return Arrays.copyOf(found, n);
  }

  /**
   * The bytes of a BYTES column's values one after the other: a value's long is its offset (high 32
   * bits) and length (low 32 bits).
   */
  private static final class ByteHeap {
    private byte[] bytes = new byte[4096];
    private int size;

    long add(RowReader reader, int column) {
      int length = reader.valueBytesLength(column);
      if (size + length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(size + length, 2 * bytes.length));
      }
      int at = size;
      size += reader.copyValueBytes(column, bytes, at);
      return VectorColumn.slice(at, length);
    }

    byte[] bytes() {
      return Arrays.copyOf(bytes, size);
    }
  }

  private static int[] pick(int[] values, int[] at) {
    int[] picked = new int[at.length];
    for (int j = 0; j < at.length; j++) {
      picked[j] = values[at[j]];
    }
    return picked;
  }

  /**
   * The values of more than 7 bytes of a SHORT_CHARS column of one block, each once: a row's long
   * refers to one ({@link VectorColumn#LONG_STRING} | index); past {@value #MAX_LONG_STRINGS}
   * distinct ones, the others are NUMBER_UNFIT (read row by row), so that a column of unique long
   * strings does not copy itself into the vectors and a filter's lookup stays short.
   */
  private static final class LongStrings {
    static final int MAX_LONG_STRINGS = 64;

    private final Map<ByteBuffer, Integer> index = new HashMap<>();
    private final List<byte[]> values = new ArrayList<>();

    long refer(byte[] bytes) {
      ByteBuffer key = ByteBuffer.wrap(bytes);
      Integer at = index.get(key);
      if (at == null) {
        if (values.size() >= MAX_LONG_STRINGS) {
          return RowReader.NOT_SHORT;
        }
        at = values.size();
        values.add(bytes);
        index.put(key, at);
      }
      return VectorColumn.LONG_STRING | at;
    }

    byte[][] values() {
      return values.isEmpty() ? null : values.toArray(new byte[0][]);
    }
  }

  private static NumberVector vector(
      byte[] status, long[] longs, double[] doubles, int rows, byte[][] strings, byte[] heap) {
    int nulls = 0;
    int unfit = 0;
    for (int r = 0; r < rows; r++) {
      byte s = status[r];
      if (s == RowReader.NUMBER_NULL) {
        nulls++;
      } else if (s == RowReader.NUMBER_UNFIT) {
        unfit++;
      }
    }
    return new NumberVector(
        nulls == 0 && unfit == 0 ? null : Arrays.copyOf(status, rows),
        longs == null ? null : Arrays.copyOf(longs, rows),
        doubles == null ? null : Arrays.copyOf(doubles, rows),
        nulls,
        unfit,
        strings,
        heap);
  }
}
