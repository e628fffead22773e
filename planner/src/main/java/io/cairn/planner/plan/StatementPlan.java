package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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
        StatementPlan.AlterTableOptions,
        StatementPlan.FlushTable,
        StatementPlan.CompactTable,
        StatementPlan.SplitTable,
        StatementPlan.UpdateStatistics,
        StatementPlan.CreateIndex,
        StatementPlan.DropIndex,
        StatementPlan.RebuildIndex,
        StatementPlan.CheckIndex,
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
   * for existing rows (Phoenix semantics). {@code insert} fails on an existing key. {@code
   * onDuplicateKey}: what an UPSERT ... VALUES does to a row whose key exists (Phoenix's atomic
   * upsert); empty: the values overwrite it. {@code readRows} (UPDATE): each source row goes on,
   * after the target columns' values, with the table row it was computed from (every column, in
   * table order), so that a store without read points can write it on condition that the row is
   * still that one ({@code Mutation.Condition.valueIs}).
   */
  record Upsert(
      TableDescriptor table,
      PlanNode source,
      List<Integer> targetColumns,
      boolean insert,
      List<DataType> parameterTypes,
      Optional<OnDuplicateKey> onDuplicateKey,
      boolean readRows)
      implements StatementPlan {
    public Upsert {
      requireNonNull(table, "table is null");
      requireNonNull(source, "source is null");
      targetColumns = List.copyOf(targetColumns);
      parameterTypes = List.copyOf(parameterTypes);
      requireNonNull(onDuplicateKey, "onDuplicateKey is null");
      if (insert && onDuplicateKey.isPresent()) {
        throw new IllegalArgumentException("INSERT has no ON DUPLICATE KEY clause");
      }
      int width = targetColumns.size() + (readRows ? table.columns().size() : 0);
      if (source.outputTypes().size() != width) {
        throw new IllegalArgumentException(
            "Upsert source: expected ["
                + width
                + "] columns, found ["
                + source.outputTypes().size()
                + "]");
      }
    }

    /** An UPSERT or INSERT without ON DUPLICATE KEY. */
    public Upsert(
        TableDescriptor table,
        PlanNode source,
        List<Integer> targetColumns,
        boolean insert,
        List<DataType> parameterTypes) {
      this(table, source, targetColumns, insert, parameterTypes, Optional.empty(), false);
    }

    public boolean targetsAllColumns() {
      return targetColumns.size() == table.columns().size();
    }
  }

  /**
   * {@code ON DUPLICATE KEY UPDATE column = expression, ...} or {@code ON DUPLICATE KEY IGNORE} of
   * an UPSERT ... VALUES: for each row whose key exists, IGNORE leaves it as it is; UPDATE sets
   * each assignment's column to its value, an expression over the existing row (column references
   * are table column indexes: the existing values; parameters are the statement's), the other
   * columns kept. A row whose key is absent is inserted from the VALUES.
   */
  record OnDuplicateKey(boolean ignore, List<Assignment> assignments) {
    /** {@code ON DUPLICATE KEY IGNORE}. */
    public static final OnDuplicateKey IGNORE = new OnDuplicateKey(true, List.of());

    /** Table column {@code column} (not a primary-key column) takes {@code value}. */
    public record Assignment(int column, Expr value) {
      public Assignment {
        requireNonNull(value, "value is null");
      }
    }

    public OnDuplicateKey {
      assignments = List.copyOf(assignments);
      if (ignore != assignments.isEmpty()) {
        throw new IllegalArgumentException(
            "ON DUPLICATE KEY: expected IGNORE or at least one assignment, found ignore ["
                + ignore
                + "] with ["
                + assignments.size()
                + "] assignments");
      }
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

  /**
   * CREATE TABLE; the draft's table id is assigned by the catalog. {@code splitPoints} are the
   * encoded row-key prefixes of SPLIT ON, strictly increasing (empty: one region).
   */
  record CreateTable(TableDescriptor draft, boolean ifNotExists, List<Bytes> splitPoints)
      implements StatementPlan {
    public CreateTable {
      requireNonNull(draft, "draft is null");
      splitPoints = List.copyOf(requireNonNull(splitPoints, "splitPoints is null"));
    }

    public CreateTable(TableDescriptor draft, boolean ifNotExists) {
      this(draft, ifNotExists, List.of());
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

  /**
   * ALTER TABLE ... SET: {@code options} are validated, canonical (upper-case names) and may change
   * (see {@link io.cairn.core.catalog.TableOptions#validateChanges}).
   */
  record AlterTableOptions(String schemaName, String tableName, Map<String, String> options)
      implements StatementPlan {
    public AlterTableOptions {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
      options = java.util.Collections.unmodifiableMap(new TreeMap<>(options));
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /** FLUSH TABLE: write every region's memstore to files. */
  record FlushTable(String schemaName, String tableName) implements StatementPlan {
    public FlushTable {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /**
   * UPDATE STATISTICS: collects the table's statistics now (every region read at a snapshot); the
   * update count is the number of chunks collected.
   */
  record UpdateStatistics(String schemaName, String tableName) implements StatementPlan {
    public UpdateStatistics {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /** SPLIT TABLE: every region that holds data splits at its middle row. */
  record SplitTable(String schemaName, String tableName) implements StatementPlan {
    public SplitTable {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /** COMPACT TABLE (minor, policy-driven) or MAJOR_COMPACT TABLE (all files into one). */
  record CompactTable(String schemaName, String tableName, boolean major) implements StatementPlan {
    public CompactTable {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /**
   * CREATE INDEX on table {@code schemaName.tableName}: {@code draft} has id 0 and state BUILDING
   * (the catalog assigns the id, builds it and makes it ACTIVE); its key parts are expressions over
   * the table's row, validated.
   */
  record CreateIndex(
      String schemaName, String tableName, IndexDescriptor draft, boolean ifNotExists)
      implements StatementPlan {
    public CreateIndex {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
      requireNonNull(draft, "draft is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /**
   * DROP INDEX {@code indexName} of schema {@code schemaName}, of table {@code tableName} when
   * given (Phoenix's {@code ON table}).
   */
  record DropIndex(
      String schemaName, String indexName, Optional<String> tableName, boolean ifExists)
      implements StatementPlan {
    public DropIndex {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(indexName, "indexName is null");
      requireNonNull(tableName, "tableName is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /**
   * ALTER INDEX ... REBUILD: builds the index again from the table's rows; with {@code ifExists}
   * nothing happens when the table or the index is missing at execution.
   */
  record RebuildIndex(String schemaName, String tableName, String indexName, boolean ifExists)
      implements StatementPlan {
    public RebuildIndex {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
      requireNonNull(indexName, "indexName is null");
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /**
   * CHECK INDEX: a query of one row ({@link #COLUMNS}) comparing the index with its table's rows.
   */
  record CheckIndex(String schemaName, String tableName, String indexName)
      implements StatementPlan {
    /** The row's columns: names and types, in order. */
    public static final List<ResultColumn> COLUMNS =
        List.of(
            column("INDEX_NAME", DataType.VARCHAR),
            column("TABLE_NAME", DataType.VARCHAR),
            column("ROWS_CHECKED", DataType.BIGINT),
            column("ENTRIES_CHECKED", DataType.BIGINT),
            column("MISSING", DataType.BIGINT),
            column("EXTRA", DataType.BIGINT),
            column("CONSISTENT", DataType.BOOLEAN),
            column("SAMPLES", DataType.VARCHAR));

    public CheckIndex {
      requireNonNull(schemaName, "schemaName is null");
      requireNonNull(tableName, "tableName is null");
      requireNonNull(indexName, "indexName is null");
    }

    private static ResultColumn column(String label, DataType type) {
      return new ResultColumn(label, "", "", "", type.withNullable(false));
    }

    @Override
    public List<DataType> parameterTypes() {
      return List.of();
    }
  }

  /**
   * EXPLAIN of {@code plan}: one row per line of the plan's text. {@code lines} are the plan alone;
   * the driver renders {@code plan} again when the EXPLAIN runs, with each scan's chunks as found
   * then (plans are cached, chunks are not).
   */
  record Explain(StatementPlan plan, List<String> lines, List<DataType> parameterTypes)
      implements StatementPlan {
    public Explain {
      requireNonNull(plan, "plan is null");
      lines = List.copyOf(lines);
      parameterTypes = List.copyOf(parameterTypes);
    }
  }
}
