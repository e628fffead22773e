package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.type.DataType;
import java.util.List;

/**
 * A planned statement, immutable and cacheable: executing it again with other parameter values
 * needs no planning.
 */
public sealed interface StatementPlan
    permits StatementPlan.Query,
        StatementPlan.Upsert,
        StatementPlan.Delete,
        StatementPlan.CreateTable,
        StatementPlan.DropTable,
        StatementPlan.Explain {

  /** Types of the {@code ?} parameters, in order. */
  List<DataType> parameterTypes();

  /** A result column. Column, schema and table names are empty when not a plain column. */
  record ResultColumn(
      String label, String columnName, String schemaName, String tableName, DataType type) {
    public ResultColumn {
      requireNonNull(label, "label is null");
      requireNonNull(columnName, "columnName is null");
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
      requireNonNull(type, "type is null");
    }
  }

  /** SELECT, VALUES, WITH ...: rows. */
  record Query(PlanNode root, List<ResultColumn> columns, List<DataType> parameterTypes)
      implements StatementPlan {
    public Query {
      requireNonNull(root, "root is null");
      columns = List.copyOf(columns);
      parameterTypes = List.copyOf(parameterTypes);
    }
  }

  /**
   * UPSERT / INSERT: {@code source} yields rows whose i-th value goes to table column {@code
   * targetColumns.get(i)}; table columns not targeted are NULL for new rows and, for UPSERT, kept
   * for existing rows (Phoenix semantics). {@code insert} fails on an existing key.
   */
  record Upsert(
      TableDescriptor table,
      PlanNode source,
      List<Integer> targetColumns,
      boolean insert,
      List<DataType> parameterTypes)
      implements StatementPlan {
    public Upsert {
      requireNonNull(table, "table is null");
      requireNonNull(source, "source is null");
      targetColumns = List.copyOf(targetColumns);
      parameterTypes = List.copyOf(parameterTypes);
    }

    public boolean targetsAllColumns() {
      return targetColumns.size() == table.columns().size();
    }
  }

  /**
   * DELETE: {@code source} yields, per row to delete, its primary-key column values in table column
   * order (all columns), or for a hidden-row-id table a single value: the row key bytes.
   */
  record Delete(TableDescriptor table, PlanNode source, List<DataType> parameterTypes)
      implements StatementPlan {
    public Delete {
      requireNonNull(table, "table is null");
      requireNonNull(source, "source is null");
      parameterTypes = List.copyOf(parameterTypes);
    }
  }

  /** CREATE TABLE; the draft's table id is assigned by the catalog. */
  record CreateTable(TableDescriptor draft, boolean ifNotExists) implements StatementPlan {
    public CreateTable {
      requireNonNull(draft, "draft is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /** DROP TABLE. */
  record DropTable(String schemaName, String tableName, boolean ifExists) implements StatementPlan {
    public DropTable {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /** EXPLAIN: one row per line of the plan's text. */
  record Explain(List<String> lines, List<DataType> parameterTypes) implements StatementPlan {
    public Explain {
      lines = List.copyOf(lines);
      parameterTypes = List.copyOf(parameterTypes);
    }
  }
}
