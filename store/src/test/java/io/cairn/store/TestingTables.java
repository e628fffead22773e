package io.cairn.store;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A two-column table (K BIGINT primary key, V INTEGER) for store tests. */
final class TestingTables {
  static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.INTEGER)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);
  static final RowCodec CODEC = new RowCodec(LAYOUT);
  static final Expr K = new Expr.ColumnRef(0, DataType.BIGINT);
  static final Expr V = new Expr.ColumnRef(1, DataType.INTEGER);

  private TestingTables() {}

  static Bytes key(long k) {
    return CODEC.encodeKey(new Object[] {k, null});
  }

  static Mutation put(long k, Integer v) {
    Object[] row = {k, v};
    return new Mutation.Put(CODEC.encodeKey(row), CODEC.encodeValue(row));
  }

  static Mutation insert(long k, Integer v) {
    Object[] row = {k, v};
    return new Mutation.Put(
        CODEC.encodeKey(row), CODEC.encodeValue(row), Mutation.Condition.MUST_NOT_EXIST);
  }

  static Mutation delete(long k) {
    return new Mutation.Delete(key(k));
  }

  static ScanRequest scanAll() {
    return request(List.of(KeyRange.ALL), Optional.empty(), List.of(K, V), ScanProgram.NO_LIMIT);
  }

  static ScanRequest request(
      List<KeyRange> ranges, Optional<Expr> filter, List<Expr> projection, long limit) {
    return new ScanRequest(
        ranges, new ScanProgram(LAYOUT, filter, projection, limit), EvalContext.EMPTY, true);
  }

  static List<List<Object>> readAll(KvTable table, ScanRequest request) {
    List<List<Object>> rows = new ArrayList<>();
    try (RowScanner scanner = table.scan(request)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        rows.add(java.util.Arrays.asList(row));
      }
    }
    return rows;
  }
}
