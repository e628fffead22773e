package io.cairn.jdbc.internal.exec;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.kv.KeyRange;
import io.cairn.planner.plan.KeyBounds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Turns a scan's key bounds (SQL values, possibly parameters) into sorted, disjoint byte ranges at
 * execution time. A value that cannot be a key value (e.g. out of the column's range) widens the
 * scan to the whole table: the residual filter still decides, so results stay correct.
 */
final class KeyRangeBuilder {
  private KeyRangeBuilder() {}

  static List<KeyRange> ranges(
      TableDescriptor table, RowCodec codec, List<KeyBounds> bounds, EvalContext context) {
    return ranges(
        new Keys(table.primaryKey(), c -> table.columns().get(c).type(), true),
        codec,
        bounds,
        context);
  }

  /**
   * The byte ranges of {@code bounds} over the key columns of {@code layout} (a local index's
   * entries: the bounds are over its parts, the ranges over the entry key without the index's
   * prefix and suffix, see {@link io.cairn.kv.IndexKeys#range(int, KeyRange)}).
   */
  static List<KeyRange> ranges(
      RowLayout layout, RowCodec codec, List<KeyBounds> bounds, EvalContext context) {
    return ranges(new Keys(layout.keyColumns(), layout::columnType, false), codec, bounds, context);
  }

  /**
   * The key columns bounds are over, in key order, and the type of each column; {@code wholeKey}:
   * their encoding is the whole row key (a table's), not a part of an index entry's.
   */
  private record Keys(
      List<RowLayout.KeyColumn> columns, IntFunction<DataType> types, boolean wholeKey) {
    DataType type(int keyIndex) {
      return types.apply(columns.get(keyIndex).columnIndex());
    }

    SortOrder order(int keyIndex) {
      return columns.get(keyIndex).order();
    }
  }

  private static List<KeyRange> ranges(
      Keys table, RowCodec codec, List<KeyBounds> bounds, EvalContext context) {
    if (bounds.isEmpty() || bounds.stream().anyMatch(KeyBounds::isAll)) {
      return List.of(KeyRange.ALL);
    }
    List<KeyRange> ranges = new ArrayList<>();
    try {
      for (KeyBounds b : bounds) {
        KeyRange r = range(table, codec, b, context);
        if (r != null && !r.isEmptyRange()) {
          ranges.add(r);
        }
      }
    } catch (CairnException e) {
      return List.of(KeyRange.ALL);
    }
    return merge(ranges);
  }

  private static Object keyValue(Keys table, int keyIndex, Expr expr, EvalContext ctx) {
    Object value = ExprCompiler.compile(expr).evaluate(new Object[0], ctx);
    if (value == null) {
      return null;
    }
    DataType type = table.type(keyIndex);
    if ((type.name() == TypeName.VARCHAR || type.name() == TypeName.VARBINARY)
        && type.hasLength()) {
      // not cut to the length: 'abcdefgh' must not find the key 'abcde' of a VARCHAR(5)
      return Values.cast(value, DataType.of(type.name()));
    }
    return Values.cast(value, type);
  }

  /** The byte range of one bound, or null when no row can match (a NULL key value). */
  private static KeyRange range(Keys table, RowCodec codec, KeyBounds b, EvalContext ctx) {
    List<Object> prefix = new ArrayList<>();
    for (int i = 0; i < b.equalPrefix().size(); i++) {
      Object v = keyValue(table, i, b.equalPrefix().get(i), ctx);
      if (v == null) {
        return null;
      }
      prefix.add(v);
    }
    Bytes prefixBytes = prefix.isEmpty() ? Bytes.EMPTY : codec.encodeKeyPrefix(prefix);
    if (b.lower().isEmpty() && b.upper().isEmpty()) {
      // every key column equal: the one key (each column's encoding ends where it ends, so no
      // other key starts with it), a point range, which a store reads as a lookup
      return table.wholeKey() && !prefix.isEmpty() && prefix.size() == table.columns().size()
          ? KeyRange.point(prefixBytes)
          : KeyRange.prefix(prefixBytes);
    }
    int k = prefix.size();
    boolean descending = table.order(k) == SortOrder.DESC;
    Optional<KeyBounds.Bound> startBound = descending ? b.upper() : b.lower();
    Optional<KeyBounds.Bound> stopBound = descending ? b.lower() : b.upper();
    Bytes start = prefixBytes;
    if (startBound.isPresent()) {
      Bytes enc = encode(table, codec, prefix, k, startBound.get(), ctx);
      if (enc == null) {
        return null;
      }
      start = startBound.get().inclusive() ? enc : enc.prefixEnd();
      if (start.isEmpty()) {
        return null;
      }
    }
    Bytes stop = prefixBytes.isEmpty() ? Bytes.EMPTY : prefixBytes.prefixEnd();
    if (stopBound.isPresent()) {
      Bytes enc = encode(table, codec, prefix, k, stopBound.get(), ctx);
      if (enc == null) {
        return null;
      }
      stop = stopBound.get().inclusive() ? enc.prefixEnd() : enc;
    }
    return new KeyRange(start, stop);
  }

  private static Bytes encode(
      Keys table,
      RowCodec codec,
      List<Object> prefix,
      int k,
      KeyBounds.Bound bound,
      EvalContext ctx) {
    Object v = keyValue(table, k, bound.value(), ctx);
    if (v == null) {
      return null;
    }
    List<Object> values = new ArrayList<>(prefix);
    values.add(v);
    return codec.encodeKeyPrefix(values);
  }

  /** Sorts by start and merges overlapping or touching ranges. */
  static List<KeyRange> merge(List<KeyRange> ranges) {
    if (ranges.size() <= 1) {
      return ranges;
    }
    List<KeyRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparing(KeyRange::start));
    List<KeyRange> result = new ArrayList<>();
    KeyRange current = sorted.get(0);
    for (int i = 1; i < sorted.size(); i++) {
      KeyRange next = sorted.get(i);
      if (current.stop().isEmpty()) {
        break;
      }
      if (next.start().compareTo(current.stop()) <= 0) {
        Bytes stop =
            next.stop().isEmpty() || next.stop().compareTo(current.stop()) > 0
                ? next.stop()
                : current.stop();
        current = new KeyRange(current.start(), stop);
      } else {
        result.add(current);
        current = next;
      }
    }
    result.add(current);
    return result;
  }
}
