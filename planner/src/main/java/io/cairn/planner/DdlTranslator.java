package io.cairn.planner;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.tree.AlterTableSet;
import io.cairn.sql.tree.ColumnDefinition;
import io.cairn.sql.tree.CompactTable;
import io.cairn.sql.tree.CreateTable;
import io.cairn.sql.tree.DropTable;
import io.cairn.sql.tree.FlushTable;
import io.cairn.sql.tree.KeyPart;
import io.cairn.sql.tree.Nullability;
import io.cairn.sql.tree.Ordering;
import io.cairn.sql.tree.QualifiedName;
import io.cairn.sql.tree.SplitTable;
import io.cairn.sql.tree.Statement;
import io.cairn.sql.tree.TableOption;
import io.cairn.sql.tree.TypeSpec;
import io.cairn.sql.tree.UpdateStatistics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns DDL and table-maintenance syntax trees into validated plans. */
final class DdlTranslator {
  /**
   * Evaluates the source text of a constant expression (parsed and validated by Calcite) and
   * assigns it to a column of type {@code target} with INSERT's store-assignment rules.
   */
  interface Constants {
    /**
     * @param what names the value in error messages, e.g. {@code Split point 2 [10] of table [T]}
     * @return the value, of {@code target}'s Java class, or null for NULL
     */
    Object assign(String source, DataType target, String column, String what);
  }

  private DdlTranslator() {}

  static StatementPlan translate(Statement statement, Catalog catalog, Constants constants) {
    if (statement instanceof CreateTable create) {
      return createTable(create, constants);
    }
    if (statement instanceof DropTable drop) {
      return new StatementPlan.DropTable(
          drop.name().schema().orElse(Catalog.DEFAULT_SCHEMA), drop.name().name(), drop.ifExists());
    }
    if (statement instanceof AlterTableSet alter) {
      TableDescriptor table = existingTable(catalog, alter.name());
      Map<String, String> changes = new LinkedHashMap<>();
      for (TableOption option : alter.options()) {
        changes.put(option.name(), option.value());
      }
      return new StatementPlan.AlterTableOptions(
          table.schemaName(), table.tableName(), TableOptions.validateChanges(changes));
    }
    if (statement instanceof FlushTable flush) {
      TableDescriptor table = existingTable(catalog, flush.name());
      return new StatementPlan.FlushTable(table.schemaName(), table.tableName());
    }
    if (statement instanceof UpdateStatistics update) {
      TableDescriptor table = existingTable(catalog, update.name());
      return new StatementPlan.UpdateStatistics(table.schemaName(), table.tableName());
    }
    if (statement instanceof SplitTable split) {
      TableDescriptor table = existingTable(catalog, split.name());
      return new StatementPlan.SplitTable(table.schemaName(), table.tableName());
    }
    if (statement instanceof CompactTable compact) {
      TableDescriptor table = existingTable(catalog, compact.name());
      return new StatementPlan.CompactTable(table.schemaName(), table.tableName(), compact.major());
    }
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "Statement [" + statement.getClass().getSimpleName() + "] is not supported yet");
  }

  private static TableDescriptor existingTable(Catalog catalog, QualifiedName name) {
    String schema = name.schema().orElse(Catalog.DEFAULT_SCHEMA);
    return catalog
        .table(schema, name.name())
        .orElseThrow(
            () ->
                new CairnException(
                    ErrorCode.TABLE_NOT_FOUND,
                    "Table [" + schema + "." + name.name() + "] does not exist"));
  }

  private static StatementPlan createTable(CreateTable create, Constants constants) {
    String schema = create.name().schema().orElse(Catalog.DEFAULT_SCHEMA);
    String name = create.name().name();
    List<KeyPart> keyParts = new ArrayList<>();
    create.primaryKey().ifPresent(pk -> keyParts.addAll(pk.columns()));
    for (ColumnDefinition c : create.columns()) {
      c.inlinePrimaryKey().ifPresent(o -> keyParts.add(new KeyPart(c.name(), o)));
    }
    Map<String, Integer> keyIndex = new LinkedHashMap<>();
    for (KeyPart part : keyParts) {
      if (keyIndex.put(part.column(), keyIndex.size()) != null) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_DEFINITION,
            "Column [" + part.column() + "] appears twice in the primary key of [" + name + "]");
      }
    }
    List<ColumnDescriptor> columns = new ArrayList<>();
    for (int i = 0; i < create.columns().size(); i++) {
      ColumnDefinition c = create.columns().get(i);
      if (c.defaultExpression().isPresent()) {
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED,
            "DEFAULT values are not supported yet (column [" + c.name() + "])");
      }
      boolean inKey = keyIndex.containsKey(c.name());
      if (inKey && c.nullability() == Nullability.NULL) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_DEFINITION,
            "Primary key column [" + c.name() + "] cannot be NULL");
      }
      boolean nullable = !inKey && c.nullability() != Nullability.NOT_NULL;
      DataType type = dataType(c.name(), c.type()).withNullable(nullable);
      columns.add(new ColumnDescriptor(c.name(), i + 1, type));
    }
    List<KeyColumn> key = new ArrayList<>();
    for (KeyPart part : keyParts) {
      int index = -1;
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).name().equals(part.column())) {
          index = i;
        }
      }
      if (index < 0) {
        throw new CairnException(
            ErrorCode.COLUMN_NOT_FOUND,
            "Primary key column [" + part.column() + "] is not a column of [" + name + "]");
      }
      key.add(
          new KeyColumn(index, part.ordering() == Ordering.DESC ? SortOrder.DESC : SortOrder.ASC));
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (TableOption option : create.options()) {
      options.put(option.name(), option.value());
    }
    TableDescriptor draft =
        new TableDescriptor(0, schema, name, columns, key, TableOptions.validate(options), 1);
    return new StatementPlan.CreateTable(
        draft, create.ifNotExists(), splitPoints(create.splitPoints(), draft, constants));
  }

  /**
   * SPLIT ON, as in Phoenix: each point is a constant of the first primary-key column's type,
   * encoded as a row-key prefix (so a DESC column's points are bit-inverted); the encoded points
   * must be distinct and strictly increasing.
   */
  private static List<Bytes> splitPoints(
      List<String> sources, TableDescriptor draft, Constants constants) {
    if (sources.isEmpty()) {
      return List.of();
    }
    String table = draft.qualifiedName();
    if (draft.hiddenRowId()) {
      throw new CairnException(
          ErrorCode.INVALID_TABLE_DEFINITION,
          "SPLIT ON needs a primary key: expected a PRIMARY KEY whose first column the split points"
              + " are values of, found table ["
              + table
              + "] without one (its rows are keyed by a hidden row id)");
    }
    KeyColumn first = draft.primaryKey().get(0);
    ColumnDescriptor column = draft.columns().get(first.columnIndex());
    boolean descending = first.order() == SortOrder.DESC;
    RowCodec codec = new RowCodec(draft.layout());
    List<Bytes> points = new ArrayList<>();
    Map<Bytes, Integer> seen = new HashMap<>();
    for (int i = 0; i < sources.size(); i++) {
      String source = sources.get(i);
      String what = "Split point " + (i + 1) + " [" + source + "] of table [" + table + "]";
      Object value = constants.assign(source, column.type(), column.name(), what);
      if (value == null) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_DEFINITION,
            what
                + ": expected a value of type ["
                + column.type().sql()
                + "] for key column ["
                + column.name()
                + "], found [NULL]");
      }
      Bytes point = codec.encodeKeyPrefix(List.of(value));
      Integer previous = seen.putIfAbsent(point, i);
      if (previous != null) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_DEFINITION,
            "Duplicate split points of table ["
                + table
                + "]: expected distinct keys, found point "
                + (previous + 1)
                + " ["
                + sources.get(previous)
                + "] and point "
                + (i + 1)
                + " ["
                + source
                + "] with the same key ["
                + column.name()
                + "="
                + Values.toSqlString(value)
                + "]");
      }
      points.add(point);
    }
    for (int i = 1; i < points.size(); i++) {
      if (points.get(i - 1).compareTo(points.get(i)) > 0) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_DEFINITION,
            "Split points of table ["
                + table
                + "] must be strictly increasing in row-key order: expected point "
                + (i + 1)
                + " ["
                + sources.get(i)
                + "] to sort after point "
                + i
                + " ["
                + sources.get(i - 1)
                + "], found it before"
                + (descending
                    ? " (key column ["
                        + column.name()
                        + "] is DESC: list its values from highest to lowest)"
                    : ""));
      }
    }
    return points;
  }

  static DataType dataType(String column, TypeSpec spec) {
    Optional<Integer> precision =
        spec.precision().isPresent() ? Optional.of(spec.precision().getAsInt()) : Optional.empty();
    int scale = spec.scale().orElse(0);
    return switch (spec.name()) {
      case "BOOLEAN" -> DataType.BOOLEAN;
      case "TINYINT" -> DataType.TINYINT;
      case "SMALLINT" -> DataType.SMALLINT;
      case "INTEGER" -> DataType.INTEGER;
      case "BIGINT" -> DataType.BIGINT;
      case "FLOAT" -> DataType.FLOAT;
      case "DOUBLE" -> DataType.DOUBLE;
      case "DATE" -> DataType.DATE;
      case "TIME" -> DataType.TIME;
      case "TIMESTAMP" -> {
        if (precision.isEmpty()) {
          yield DataType.TIMESTAMP;
        }
        if (precision.get() < 0 || precision.get() > 9) {
          throw new CairnException(
              ErrorCode.INVALID_TABLE_DEFINITION,
              "Invalid TIMESTAMP precision for column ["
                  + column
                  + "]: expected 0..9 fractional digits, found ["
                  + precision.get()
                  + "]");
        }
        // TIMESTAMP(9) is TIMESTAMP: both keep nanoseconds
        yield precision.get() == 9 ? DataType.TIMESTAMP : DataType.timestamp(precision.get());
      }
      case "DECIMAL" -> {
        int p = precision.orElse(DataType.MAX_DECIMAL_PRECISION);
        if (p < 1 || p > DataType.MAX_DECIMAL_PRECISION || scale < 0 || scale > p) {
          throw new CairnException(
              ErrorCode.INVALID_TABLE_DEFINITION,
              "Invalid DECIMAL for column ["
                  + column
                  + "]: expected precision 1..38 and scale 0..precision, found [DECIMAL("
                  + p
                  + ","
                  + scale
                  + ")]");
        }
        yield DataType.decimal(p, scale);
      }
      case "CHAR", "VARCHAR", "VARBINARY" -> {
        if (precision.isPresent() && precision.get() < 1) {
          throw new CairnException(
              ErrorCode.INVALID_TABLE_DEFINITION,
              "Invalid length for column ["
                  + column
                  + "]: expected at least 1, found ["
                  + precision.get()
                  + "]");
        }
        TypeName typeName = TypeName.valueOf(spec.name());
        int length = precision.orElse(typeName == TypeName.CHAR ? 1 : DataType.UNSPECIFIED);
        yield new DataType(typeName, length, 0, true);
      }
      default ->
          throw new CairnException(
              ErrorCode.INVALID_TABLE_DEFINITION,
              "Unknown type for column [" + column + "]: found [" + spec.name() + "]");
    };
  }
}
