package io.cairn.core.catalog;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.Expr;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A local secondary index of a table as the catalog records it: its id (unique within the table,
 * never reused: entries of a dropped index may linger until compactions drop them), its name
 * (unique within the table's schema), its key columns (a column or an expression over the table's
 * row, each with its order and SQL text), the table columns it carries ({@code include}: indexes
 * into the table's columns) and its state.
 */
public record IndexDescriptor(
    int indexId, String name, List<IndexColumn> columns, List<Integer> include, State state) {

  /** One key part: an expression over the table's row (a column reference for a plain index). */
  public record IndexColumn(Expr expr, String sql, SortOrder order) {
    public IndexColumn {
      requireNonNull(expr, "expr is null");
      requireNonNull(sql, "sql is null");
      requireNonNull(order, "order is null");
    }

    /** The table column this part is, when it is a plain column reference. */
    public java.util.OptionalInt columnIndex() {
      return expr instanceof Expr.ColumnRef ref
          ? java.util.OptionalInt.of(ref.index())
          : java.util.OptionalInt.empty();
    }
  }

  /**
   * Where an index is in its life: writes maintain it from BUILDING on; queries read it only when
   * ACTIVE; FAILED when its build failed (ALTER INDEX ... REBUILD builds it again). The ids are
   * persistent.
   */
  public enum State {
    BUILDING(1),
    ACTIVE(2),
    FAILED(3);

    private final int id;

    State(int id) {
      this.id = id;
    }

    public int id() {
      return id;
    }

    public static State fromId(int id) {
      for (State s : values()) {
        if (s.id == id) {
          return s;
        }
      }
      throw new IllegalArgumentException("Unknown index state id [" + id + "]");
    }
  }

  public IndexDescriptor {
    requireNonNull(name, "name is null");
    columns = List.copyOf(columns);
    include = List.copyOf(include);
    requireNonNull(state, "state is null");
  }

  public IndexDescriptor withState(State newState) {
    return new IndexDescriptor(indexId, name, columns, include, newState);
  }

  /** What the store needs to maintain and read it. */
  public IndexSpec spec() {
    List<Expr> parts = new ArrayList<>(columns.size());
    List<SortOrder> orders = new ArrayList<>(columns.size());
    for (IndexColumn c : columns) {
      parts.add(c.expr());
      orders.add(c.order());
    }
    return new IndexSpec(indexId, parts, orders, include, state == State.ACTIVE);
  }
}
