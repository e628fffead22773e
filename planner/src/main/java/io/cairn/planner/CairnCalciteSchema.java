package io.cairn.planner;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;
import org.apache.calcite.util.ImmutableBitSet;

/** An immutable Calcite view of one catalog version: schemas holding {@link CairnTable}s. */
final class CairnCalciteSchema {
  /** Calcite's own guess for a table of unknown size. */
  private static final double DEFAULT_ROW_COUNT = 100;

  private CairnCalciteSchema() {}

  /**
   * Lets INSERT/UPSERT omit NOT NULL columns at validation: Phoenix's UPSERT of some columns keeps
   * the others of an existing row, so whether a value is missing is only known at execution, where
   * a missing NOT NULL value fails with NOT_NULL_VIOLATION naming the column. The placeholder
   * default is never written: the executor writes only the targeted columns.
   */
  private static final InitializerExpressionFactory INITIALIZERS =
      new NullInitializerExpressionFactory() {
        @Override
        public ColumnStrategy generationStrategy(RelOptTable table, int column) {
          return table.getRowType().getFieldList().get(column).getType().isNullable()
              ? ColumnStrategy.NULLABLE
              : ColumnStrategy.DEFAULT;
        }

        @Override
        public RexNode newColumnDefaultValue(
            RelOptTable table, int column, InitializerContext context) {
          RelDataType type = table.getRowType().getFieldList().get(column).getType();
          return context.getRexBuilder().makeZeroLiteral(type);
        }
      };

  /** A table as Calcite sees it; unwraps to its descriptor. */
  static final class CairnTable extends AbstractTable {
    private final TableDescriptor descriptor;
    private final ToLongFunction<TableDescriptor> rowCounts;

    CairnTable(TableDescriptor descriptor, ToLongFunction<TableDescriptor> rowCounts) {
      this.descriptor = descriptor;
      this.rowCounts = rowCounts;
    }

    /** Row count (asked at planning time, so it follows the data) and the primary key. */
    @Override
    public Statistic getStatistic() {
      long rows = rowCounts.applyAsLong(descriptor);
      List<ImmutableBitSet> keys =
          descriptor.hiddenRowId()
              ? List.of()
              : List.of(
                  ImmutableBitSet.of(
                      descriptor.primaryKey().stream().mapToInt(k -> k.columnIndex()).toArray()));
      return Statistics.of(rows < 0 ? DEFAULT_ROW_COUNT : Math.max(1, rows), keys);
    }

    TableDescriptor descriptor() {
      return descriptor;
    }

    @Override
    public <C extends Object> C unwrap(Class<C> aClass) {
      if (aClass.isInstance(INITIALIZERS)) {
        return aClass.cast(INITIALIZERS);
      }
      return super.unwrap(aClass);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      RelDataTypeFactory.Builder builder = typeFactory.builder();
      for (ColumnDescriptor c : descriptor.columns()) {
        builder.add(c.name(), Types.toRelType(typeFactory, c.type()));
      }
      return builder.build();
    }
  }

  private static final class FixedSchema extends AbstractSchema {
    private final Map<String, Table> tables;

    FixedSchema(Map<String, Table> tables) {
      this.tables = tables;
    }

    @Override
    protected Map<String, Table> getTableMap() {
      return tables;
    }
  }

  static CalciteSchema create(
      List<TableDescriptor> tables,
      List<String> schemaNames,
      ToLongFunction<TableDescriptor> rowCounts) {
    CalciteSchema root = CalciteSchema.createRootSchema(false, false);
    Map<String, Map<String, Table>> bySchema = new HashMap<>();
    for (String s : schemaNames) {
      bySchema.put(s, new HashMap<>());
    }
    for (TableDescriptor t : tables) {
      bySchema
          .computeIfAbsent(t.schemaName(), k -> new HashMap<>())
          .put(t.tableName(), new CairnTable(t, rowCounts));
    }
    SchemaPlus plus = root.plus();
    bySchema.forEach((name, map) -> plus.add(name, new FixedSchema(Map.copyOf(map))));
    return root;
  }
}
