package io.cairn.tpch.pe;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import java.util.List;
import java.util.Optional;

/**
 * The PE table layout: key = the row number as HBase PE formats it (26 zero-padded ASCII digits)
 * encoded as one VARCHAR key column; value = one VARBINARY column of {@code valueSize} random
 * bytes.
 */
final class PeTable {
  /** Length of a formatted row number, as in HBase PE. */
  static final int ROW_LENGTH = 26;

  static final int KEY_COLUMN = 0;
  static final int VALUE_COLUMN = 1;

  static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(0, DataType.VARCHAR),
              new RowLayout.ColumnLayout(1, DataType.VARBINARY)),
          List.of(new RowLayout.KeyColumn(KEY_COLUMN, SortOrder.ASC)),
          false,
          1);

  static final RowCodec CODEC = new RowCodec(LAYOUT);

  private static final List<Expr> PROJECT_VALUE =
      List.of(new Expr.ColumnRef(VALUE_COLUMN, DataType.VARBINARY));

  private PeTable() {}

  /** The row number zero-padded to 26 digits, as HBase PE's {@code format(int)}. */
  static String format(long row) {
    char[] digits = new char[ROW_LENGTH];
    long v = row;
    for (int i = ROW_LENGTH - 1; i >= 0; i--) {
      digits[i] = (char) ('0' + (v % 10));
      v /= 10;
    }
    return new String(digits);
  }

  static Bytes key(long row) {
    return CODEC.encodeKey(new Object[] {format(row), null});
  }

  static Mutation put(long row, byte[] value) {
    String k = format(row);
    Object[] cells = {k, value};
    return new Mutation.Put(CODEC.encodeKey(cells), CODEC.encodeValue(cells));
  }

  /** Rows {@code [from, to)}. */
  static KeyRange range(long from, long to) {
    return new KeyRange(key(from), key(to));
  }

  /** Reads the value column of the rows in {@code ranges}, at most {@code limit} rows. */
  static ScanRequest read(List<KeyRange> ranges, long limit) {
    return new ScanRequest(
        ranges,
        new ScanProgram(LAYOUT, Optional.empty(), PROJECT_VALUE, limit),
        EvalContext.EMPTY,
        true);
  }

  /**
   * A scan whose server-side filter matches no row: {@code value = X} where X is one byte longer
   * than every value written, so it never occurs.
   */
  static ScanRequest filterAll(KeyRange range, int valueSize) {
    Expr filter =
        new Expr.Call(
            Op.EQUALS,
            List.of(
                new Expr.ColumnRef(VALUE_COLUMN, DataType.VARBINARY),
                new Expr.Literal(new byte[valueSize + 1], DataType.VARBINARY)),
            DataType.BOOLEAN);
    return new ScanRequest(
        List.of(range),
        new ScanProgram(LAYOUT, Optional.of(filter), PROJECT_VALUE, ScanProgram.NO_LIMIT),
        EvalContext.EMPTY,
        true);
  }
}
