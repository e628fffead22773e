package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.List;
import java.util.Optional;

/**
 * A scan of a table, run by the store: key ranges ({@code keys}, empty list = full scan), then the
 * residual {@code filter} and the {@code projection} over the decoded table row, stopping after
 * {@code limit} rows when not negative. A projection entry may be a ColumnRef whose index equals
 * the table's column count: it reads the row key itself (for DELETE of tables keyed by a hidden row
 * id).
 */
public record ScanNode(
    TableDescriptor table,
    List<KeyBounds> keys,
    Optional<Expr> filter,
    List<Expr> projection,
    long limit)
    implements PlanNode {
  public ScanNode {
    requireNonNull(table, "table is null");
    keys = List.copyOf(keys);
    requireNonNull(filter, "filter is null");
    projection = List.copyOf(projection);
  }

  /** The same scan emitting {@code newProjection} (expressions over the table row). */
  public ScanNode withProjection(List<Expr> newProjection) {
    return new ScanNode(table, keys, filter, newProjection, limit);
  }

  public boolean isFullScan() {
    return keys.isEmpty() || keys.stream().anyMatch(KeyBounds::isAll);
  }

  @Override
  public List<DataType> outputTypes() {
    return projection.stream().map(Expr::type).toList();
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of();
  }
}
