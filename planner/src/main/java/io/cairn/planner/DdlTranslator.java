package io.cairn.planner;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.tree.ColumnDefinition;
import io.cairn.sql.tree.CreateTable;
import io.cairn.sql.tree.DropTable;
import io.cairn.sql.tree.KeyPart;
import io.cairn.sql.tree.Nullability;
import io.cairn.sql.tree.Ordering;
import io.cairn.sql.tree.Statement;
import io.cairn.sql.tree.TableOption;
import io.cairn.sql.tree.TypeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns DDL syntax trees into validated catalog changes. */
final class DdlTranslator {
  private DdlTranslator() {}

  static StatementPlan translate(Statement statement) {
    if (statement instanceof CreateTable create) {
      return createTable(create);
    }
    if (statement instanceof DropTable drop) {
      return new StatementPlan.DropTable(
          drop.name().schema().orElse(Catalog.DEFAULT_SCHEMA), drop.name().name(), drop.ifExists());
    }
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "Statement [" + statement.getClass().getSimpleName() + "] is not supported yet");
  }

  private static StatementPlan createTable(CreateTable create) {
    String schema = create.name().schema().orElse(Catalog.DEFAULT_SCHEMA);
    String name = create.name().name();
    if (!create.splitPoints().isEmpty()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "SPLIT ON needs regions, which this version does not have yet (table [" + name + "])");
    }
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
    return new StatementPlan.CreateTable(draft, create.ifNotExists());
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
      case "TIMESTAMP" -> DataType.TIMESTAMP;
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
