package io.cairn.planner;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.tree.AlterIndex;
import io.cairn.sql.tree.AlterTableSet;
import io.cairn.sql.tree.CheckIndex;
import io.cairn.sql.tree.ColumnDefinition;
import io.cairn.sql.tree.CompactTable;
import io.cairn.sql.tree.CreateIndex;
import io.cairn.sql.tree.CreateTable;
import io.cairn.sql.tree.DropIndex;
import io.cairn.sql.tree.DropTable;
import io.cairn.sql.tree.FlushTable;
import io.cairn.sql.tree.IndexPart;
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

  /** Compiles a key part of an index, given as source text, to an expression over a table's row. */
  interface RowExpressions {
    /**
     * @param what names the part in error messages, e.g. {@code Key part 1 [UPPER(NAME)] of index
     *     [I]}
     */
    Expr compile(TableDescriptor table, String source, String what);
  }

  private DdlTranslator() {}

  static StatementPlan translate(
      Statement statement, Catalog catalog, Constants constants, RowExpressions expressions) {
    if (statement instanceof CreateTable create) {
      return createTable(create, constants);
    }
    if (statement instanceof CreateIndex create) {
      return createIndex(create, catalog, expressions);
    }
    if (statement instanceof DropIndex drop) {
      return dropIndex(drop);
    }
    if (statement instanceof AlterIndex alter) {
      return alterIndex(alter, catalog);
    }
    if (statement instanceof CheckIndex check) {
      IndexOf index = indexOf(catalog, check.name(), check.table(), false);
      return new StatementPlan.CheckIndex(index.schema(), index.table(), index.name());
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
    return existingTable(catalog, name.schema().orElse(Catalog.DEFAULT_SCHEMA), name.name());
  }

  private static TableDescriptor existingTable(Catalog catalog, String schema, String name) {
    return catalog
        .table(schema, name)
        .orElseThrow(
            () ->
                new CairnException(
                    ErrorCode.TABLE_NOT_FOUND,
                    "Table [" + schema + "." + name + "] does not exist"));
  }

  // ---- local indexes

  /**
   * CREATE INDEX: the clauses Cairn does not support are refused by name (never ignored); the table
   * must exist, be a table (not a system view) and have a primary key; each key part is a column or
   * a deterministic expression over the row ({@link RowExpressions}), none twice; the INCLUDE
   * columns are columns that are neither primary-key columns nor key parts. The draft has id 0 and
   * state BUILDING: the catalog assigns the id and checks the name.
   */
  private static StatementPlan createIndex(
      CreateIndex create, Catalog catalog, RowExpressions expressions) {
    String name = create.name().name();
    refuseUnsupported(create, name);
    String schema = indexSchema(create.name(), Optional.of(create.table()));
    TableDescriptor table = existingTable(catalog, schema, create.table().name());
    if (table.tableId() < 0 || schema.equals(SystemViews.SCHEMA)) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Indexes on system tables and views are not supported: expected a table of your own,"
              + " found ["
              + table.qualifiedName()
              + "] for index ["
              + name
              + "]");
    }
    if (table.hiddenRowId()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Local indexes need a primary key: expected a table with a PRIMARY KEY, found ["
              + table.qualifiedName()
              + "] keyed by a hidden row id (index ["
              + name
              + "])");
    }
    List<IndexDescriptor.IndexColumn> columns = new ArrayList<>();
    for (int i = 0; i < create.parts().size(); i++) {
      IndexPart part = create.parts().get(i);
      String source = part.expression().strip();
      String what = "Key part " + (i + 1) + " [" + source + "] of index [" + name + "]";
      Expr expr = expressions.compile(table, source, what);
      for (int j = 0; j < columns.size(); j++) {
        if (columns.get(j).expr().equals(expr)) {
          throw new CairnException(
              ErrorCode.INVALID_TABLE_DEFINITION,
              what
                  + " repeats key part "
                  + (j + 1)
                  + " ["
                  + columns.get(j).sql()
                  + "]: expected distinct key parts");
        }
      }
      String sql =
          expr instanceof Expr.ColumnRef ref ? table.columns().get(ref.index()).name() : source;
      SortOrder order = part.ordering() == Ordering.DESC ? SortOrder.DESC : SortOrder.ASC;
      columns.add(new IndexDescriptor.IndexColumn(expr, sql, order));
    }
    List<Integer> include = new ArrayList<>();
    for (String column : create.include()) {
      include.add(includedColumn(table, name, column, columns));
    }
    IndexDescriptor draft =
        new IndexDescriptor(0, name, columns, include, IndexDescriptor.State.BUILDING);
    return new StatementPlan.CreateIndex(
        table.schemaName(), table.tableName(), draft, create.ifNotExists());
  }

  /** UNIQUE, a method other than BTREE, ASYNC, options, SPLIT ON, WHERE: each NOT_SUPPORTED. */
  private static void refuseUnsupported(CreateIndex create, String name) {
    String index = " (index [" + name + "])";
    if (create.unique()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "UNIQUE indexes are not supported: expected CREATE [LOCAL] INDEX, found CREATE UNIQUE"
              + " INDEX"
              + index
              + "; a local index does not enforce uniqueness, a PRIMARY KEY does");
    }
    if (create.method().isPresent() && !create.method().get().equals("BTREE")) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Index method ["
              + create.method().get()
              + "] is not supported: expected USING BTREE or no USING, found USING ["
              + create.method().get()
              + "]"
              + index);
    }
    if (create.async()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "ASYNC is not supported: CREATE INDEX builds the index before it returns, while writes"
              + " go on; found ASYNC"
              + index);
    }
    if (!create.options().isEmpty()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Index options are not supported: expected nothing after the column list, found ["
              + create.options().get(0).name()
              + "]"
              + index
              + "; a local index lives in its table's regions and files");
    }
    if (!create.splitPoints().isEmpty()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "SPLIT ON is not supported for an index: a local index lives in its table's regions,"
              + " found SPLIT ON"
              + index);
    }
    if (create.where().isPresent()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Partial indexes are not supported: expected no WHERE clause, found WHERE ["
              + create.where().get()
              + "]"
              + index);
    }
  }

  /** An INCLUDE column: a column of the table, neither a primary-key column nor a key part. */
  private static int includedColumn(
      TableDescriptor table, String index, String column, List<IndexDescriptor.IndexColumn> parts) {
    String what = "INCLUDE column [" + column + "] of index [" + index + "]";
    int c =
        table
            .columnIndex(column)
            .orElseThrow(
                () ->
                    new CairnException(
                        ErrorCode.COLUMN_NOT_FOUND,
                        what
                            + ": expected a column of table ["
                            + table.qualifiedName()
                            + "], found none of that name"));
    if (table.isPrimaryKeyColumn(c)) {
      throw new CairnException(
          ErrorCode.INVALID_TABLE_DEFINITION,
          what
              + ": expected a column outside the primary key, found a primary-key column of ["
              + table.qualifiedName()
              + "] (every entry carries its row's key already)");
    }
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i).columnIndex().orElse(-1) == c) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_DEFINITION,
            what
                + ": expected a column that is not a key part, found key part "
                + (i + 1)
                + " (every entry carries its key parts already)");
      }
    }
    return c;
  }

  /**
   * The schema of an index: its table's (an index lives in its table's schema), which {@code
   * name}'s qualifier (SQLite's {@code CREATE INDEX s.i ON t}, PostgreSQL's {@code DROP INDEX s.i})
   * names too, or PUBLIC.
   */
  private static String indexSchema(QualifiedName name, Optional<QualifiedName> table) {
    Optional<String> tableSchema = table.flatMap(QualifiedName::schema);
    String schema = tableSchema.orElse(name.schema().orElse(Catalog.DEFAULT_SCHEMA));
    if (name.schema().isPresent() && !name.schema().get().equals(schema)) {
      throw new CairnException(
          ErrorCode.VALIDATION_ERROR,
          "An index lives in its table's schema: expected index ["
              + name.name()
              + "] in schema ["
              + schema
              + "], found ["
              + name.schema().get()
              + "."
              + name.name()
              + "]");
    }
    return schema;
  }

  private static StatementPlan dropIndex(DropIndex drop) {
    String schema = indexSchema(drop.name(), drop.table());
    return new StatementPlan.DropIndex(
        schema, drop.name().name(), drop.table().map(QualifiedName::name), drop.ifExists());
  }

  /** ALTER INDEX ... REBUILD [ALL]; every other action NOT_SUPPORTED, named. */
  private static StatementPlan alterIndex(AlterIndex alter, Catalog catalog) {
    String action = alter.action();
    if (!action.equals("REBUILD") && !action.equals("REBUILD ALL")) {
      String detail =
          action.startsWith("REBUILD")
              ? " (REBUILD builds the index before it returns, while writes go on)"
              : "";
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "ALTER INDEX ... "
              + action
              + " is not supported in this version of Cairn"
              + detail
              + "; supported: ALTER INDEX [IF EXISTS] name ON table REBUILD");
    }
    IndexOf index = indexOf(catalog, alter.name(), alter.table(), alter.ifExists());
    return new StatementPlan.RebuildIndex(
        index.schema(), index.table(), index.name(), alter.ifExists());
  }

  /** An index and its table, as named (the table empty: IF EXISTS found no such index). */
  private record IndexOf(String schema, String table, String name) {}

  /**
   * The index {@code name} of table {@code table}, or, without a table, the table of the schema
   * that has an index of that name. A missing table is TABLE_NOT_FOUND, a missing index (without a
   * table) INDEX_NOT_FOUND, unless {@code ifExists}; the index of a named table is the catalog's to
   * find.
   */
  private static IndexOf indexOf(
      Catalog catalog, QualifiedName name, Optional<QualifiedName> table, boolean ifExists) {
    String schema = indexSchema(name, table);
    if (table.isPresent()) {
      String tableName = table.get().name();
      if (!ifExists) {
        existingTable(catalog, schema, tableName);
      }
      return new IndexOf(schema, tableName, name.name());
    }
    for (TableDescriptor t : catalog.tables()) {
      if (t.schemaName().equals(schema) && t.index(name.name()).isPresent()) {
        return new IndexOf(schema, t.tableName(), name.name());
      }
    }
    if (ifExists) {
      return new IndexOf(schema, "", name.name());
    }
    throw new CairnException(
        ErrorCode.INDEX_NOT_FOUND, "Index [" + schema + "." + name.name() + "] does not exist");
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
