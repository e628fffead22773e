package io.cairn.planner;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.planner.plan.StatementPlan;
import java.util.List;

/**
 * A statement's plan and the warnings planning it produced (e.g. unknown hints), with what the plan
 * depends on: the catalog version it was planned at and the tables it reads or writes, each with
 * the row count the optimizer saw (-1 when not read or unknown). {@link CairnPlanner#isCurrent}
 * tells whether the plan still fits the catalog and the data.
 */
public record PlannedStatement(
    StatementPlan plan, List<String> warnings, long catalogVersion, List<TableUse> tables) {
  public PlannedStatement {
    requireNonNull(plan, "plan is null");
    warnings = List.copyOf(warnings);
    tables = List.copyOf(tables);
  }

  /** A plan that depends on nothing (DDL, or plans made outside a planner). */
  public PlannedStatement(StatementPlan plan, List<String> warnings) {
    this(plan, warnings, -1, List.of());
  }

  /**
   * A table a plan uses: as the catalog described it at planning, the approximate rows the
   * optimizer saw for it (-1 when the plan only writes it or the count was unknown), and the
   * distinct values of each of its columns it saw (empty when unknown).
   */
  public record TableUse(TableDescriptor table, long rowCount, List<Long> distinct) {
    public TableUse {
      requireNonNull(table, "table is null");
      distinct = List.copyOf(distinct);
    }

    public TableUse(TableDescriptor table, long rowCount) {
      this(table, rowCount, List.of());
    }
  }
}
