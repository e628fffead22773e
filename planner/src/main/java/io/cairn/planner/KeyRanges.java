package io.cairn.planner;

import com.google.common.collect.BoundType;
import com.google.common.collect.Range;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.planner.plan.IndexScan;
import io.cairn.planner.plan.KeyBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Sarg;

/**
 * Derives key ranges from the conjuncts of a filter over a table row: equalities on leading
 * primary-key columns form a prefix; IN lists / OR of points / ranges on the next key column expand
 * into several ranges (a skip scan; more than {@link #MAX_RANGES} become the one range spanning
 * them); a comparison bounds the next column. The filter stays as the residual, so ranges only have
 * to contain every matching row.
 */
final class KeyRanges {
  static final int MAX_RANGES = 10_000;

  record Result(List<KeyBounds> bounds) {}

  private KeyRanges() {}

  static Result extract(
      TableDescriptor table,
      List<RexNode> conjuncts,
      RexBuilder rexBuilder,
      List<KeyBounds> existing) {
    if (!existing.isEmpty() || table.hiddenRowId() || conjuncts.isEmpty()) {
      return new Result(existing);
    }
    List<Part> parts = new ArrayList<>();
    for (KeyColumn key : table.primaryKey()) {
      int column = key.columnIndex();
      parts.add(new Part(node -> isColumn(node, column), table.columns().get(column).type()));
    }
    return new Result(extract(parts, conjuncts, rexBuilder));
  }

  /**
   * Key ranges over the parts of local index {@code index} of {@code table} from the conjuncts of a
   * filter over the table's row, by the same rules as over primary-key columns: an operand matches
   * a part when it is the part's column, or, for a part that is an expression, when it converts to
   * an equal expression (a functional index serves the query that has its expression). Empty:
   * nothing bounds the first part.
   */
  static List<KeyBounds> extractIndex(
      IndexDescriptor index, List<RexNode> conjuncts, RexBuilder rexBuilder, RexToExpr rex) {
    if (conjuncts.isEmpty()) {
      return List.of();
    }
    List<Part> parts = new ArrayList<>();
    for (IndexDescriptor.IndexColumn column : index.columns()) {
      Expr expr = column.expr();
      if (expr instanceof Expr.ColumnRef ref) {
        parts.add(new Part(node -> isColumn(node, ref.index()), expr.type()));
      } else {
        parts.add(new Part(node -> sameExpr(node, expr, rex), expr.type()));
      }
    }
    return extract(parts, conjuncts, rexBuilder);
  }

  private static boolean sameExpr(RexNode node, Expr expr, RexToExpr rex) {
    if (node instanceof RexInputRef || node instanceof RexLiteral) {
      return false;
    }
    try {
      return IndexScan.sameExpr(rex.convert(node), expr);
    } catch (RuntimeException e) {
      return false; // an expression Cairn cannot evaluate is no index part
    }
  }

  /** A key column: which operands are it, and its type. */
  private record Part(Predicate<RexNode> matches, DataType type) {}

  private static List<KeyBounds> extract(
      List<Part> parts, List<RexNode> conjuncts, RexBuilder rexBuilder) {
    List<Expr> prefix = new ArrayList<>();
    for (Part part : parts) {
      DataType type = part.type();
      if (!rangeable(type)) {
        break;
      }
      Expr equal = findEquality(conjuncts, part.matches(), type);
      if (equal != null) {
        prefix.add(equal);
        continue;
      }
      List<KeyBounds> sarg = findSarg(conjuncts, part.matches(), type, prefix, rexBuilder);
      if (sarg != null) {
        return sarg;
      }
      Optional<KeyBounds.Bound> lower = findBound(conjuncts, part.matches(), type, true);
      Optional<KeyBounds.Bound> upper = findBound(conjuncts, part.matches(), type, false);
      if (prefix.isEmpty() && lower.isEmpty() && upper.isEmpty()) {
        return List.of();
      }
      return List.of(new KeyBounds(prefix, lower, upper));
    }
    if (prefix.isEmpty()) {
      return List.of();
    }
    return List.of(new KeyBounds(prefix, Optional.empty(), Optional.empty()));
  }

  /** Types whose values compare in SQL exactly as their key encoding does. */
  private static boolean rangeable(DataType type) {
    return type.name() != TypeName.CHAR
        && type.name() != TypeName.FLOAT
        && type.name() != TypeName.DOUBLE;
  }

  private static boolean compatible(DataType column, DataType value) {
    if (column.name().isExactInteger()) {
      return value.name().isExactInteger();
    }
    if (column.name() == TypeName.VARCHAR) {
      return value.name() == TypeName.VARCHAR || value.name() == TypeName.CHAR;
    }
    return column.name() == value.name();
  }

  /** A literal or parameter usable as a key value of {@code column}, else null. */
  private static Expr value(RexNode node, DataType column) {
    Expr expr = null;
    if (node instanceof RexLiteral literal && !literal.isNull()) {
      expr = RexToExpr.literal(literal);
    } else if (node instanceof RexDynamicParam param) {
      expr = new Expr.Param(param.getIndex(), Types.toDataType(param.getType()));
    }
    if (expr == null || !compatible(column, expr.type())) {
      return null;
    }
    return expr;
  }

  private static boolean isColumn(RexNode node, int column) {
    return node instanceof RexInputRef ref && ref.getIndex() == column;
  }

  private static Expr findEquality(
      List<RexNode> conjuncts, Predicate<RexNode> column, DataType type) {
    for (RexNode c : conjuncts) {
      if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call) {
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        Expr v = column.test(a) ? value(b, type) : column.test(b) ? value(a, type) : null;
        if (v != null) {
          return v;
        }
      }
    }
    return null;
  }

  private static Optional<KeyBounds.Bound> findBound(
      List<RexNode> conjuncts, Predicate<RexNode> column, DataType type, boolean lower) {
    for (RexNode c : conjuncts) {
      if (!(c instanceof RexCall call) || call.getOperands().size() != 2) {
        continue;
      }
      SqlKind kind = c.getKind();
      if (kind != SqlKind.GREATER_THAN
          && kind != SqlKind.GREATER_THAN_OR_EQUAL
          && kind != SqlKind.LESS_THAN
          && kind != SqlKind.LESS_THAN_OR_EQUAL) {
        continue; // e.g. a SEARCH, whose second operand is a Sarg, not a key value
      }
      RexNode a = call.getOperands().get(0);
      RexNode b = call.getOperands().get(1);
      if (column.test(b) && !column.test(a)) {
        kind = kind.reverse();
        RexNode t = a;
        a = b;
        b = t;
      }
      if (!column.test(a)) {
        continue;
      }
      Expr v = value(b, type);
      if (v == null) {
        continue;
      }
      if (lower && (kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL)) {
        return Optional.of(new KeyBounds.Bound(v, kind == SqlKind.GREATER_THAN_OR_EQUAL));
      }
      if (!lower && (kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL)) {
        return Optional.of(new KeyBounds.Bound(v, kind == SqlKind.LESS_THAN_OR_EQUAL));
      }
    }
    return Optional.empty();
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static List<KeyBounds> findSarg(
      List<RexNode> conjuncts,
      Predicate<RexNode> column,
      DataType type,
      List<Expr> prefix,
      RexBuilder rexBuilder) {
    for (RexNode c : conjuncts) {
      if (c.getKind() != SqlKind.SEARCH || !(c instanceof RexCall call)) {
        continue;
      }
      if (!column.test(call.getOperands().get(0))
          || !(call.getOperands().get(1) instanceof RexLiteral sargLiteral)) {
        continue;
      }
      Sarg sarg = sargLiteral.getValueAs(Sarg.class);
      if (sarg == null || sarg.nullAs == RexUnknownAs.TRUE) {
        continue;
      }
      List<Range> ranges = new ArrayList<>(sarg.rangeSet.asRanges());
      if (ranges.isEmpty()) {
        continue;
      }
      if (ranges.size() > MAX_RANGES) {
        // too many ranges for one scan: read from the lowest to the highest, filtering
        ranges = List.of(sarg.rangeSet.span());
      }
      List<KeyBounds> result = new ArrayList<>();
      for (Range range : ranges) {
        KeyBounds bounds = bounds(range, call.getOperands().get(1), type, prefix, rexBuilder);
        if (bounds == null) {
          return null;
        }
        result.add(bounds);
      }
      return result;
    }
    return null;
  }

  @SuppressWarnings("rawtypes")
  private static KeyBounds bounds(
      Range range, RexNode sargNode, DataType type, List<Expr> prefix, RexBuilder rexBuilder) {
    Expr low =
        range.hasLowerBound() ? sargValue(range.lowerEndpoint(), sargNode, type, rexBuilder) : null;
    Expr high =
        range.hasUpperBound() ? sargValue(range.upperEndpoint(), sargNode, type, rexBuilder) : null;
    if ((range.hasLowerBound() && low == null) || (range.hasUpperBound() && high == null)) {
      return null;
    }
    if (low != null
        && high != null
        && range.lowerBoundType() == BoundType.CLOSED
        && range.upperBoundType() == BoundType.CLOSED
        && range.lowerEndpoint().equals(range.upperEndpoint())) {
      List<Expr> point = new ArrayList<>(prefix);
      point.add(low);
      return new KeyBounds(point, Optional.empty(), Optional.empty());
    }
    return new KeyBounds(
        prefix,
        Optional.ofNullable(low)
            .map(v -> new KeyBounds.Bound(v, range.lowerBoundType() == BoundType.CLOSED)),
        Optional.ofNullable(high)
            .map(v -> new KeyBounds.Bound(v, range.upperBoundType() == BoundType.CLOSED)));
  }

  private static Expr sargValue(
      Comparable<?> value, RexNode sargNode, DataType type, RexBuilder rexBuilder) {
    RexNode literal = rexBuilder.makeLiteral(value, ((RexLiteral) sargNode).getType(), true, true);
    return literal instanceof RexLiteral l ? value(l, type) : null;
  }
}
