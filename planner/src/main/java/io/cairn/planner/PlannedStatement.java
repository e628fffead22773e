package io.cairn.planner;

import static java.util.Objects.requireNonNull;

import io.cairn.planner.plan.StatementPlan;
import java.util.List;

/** A statement's plan and the warnings planning it produced (e.g. unknown hints). */
public record PlannedStatement(StatementPlan plan, List<String> warnings) {
  public PlannedStatement {
    requireNonNull(plan, "plan is null");
    warnings = List.copyOf(warnings);
  }
}
