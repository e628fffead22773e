package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;
import java.util.Set;

/**
 * A column type as written, with synonyms folded into one canonical name: BOOLEAN, TINYINT,
 * SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, DATE, TIME, TIMESTAMP,
 * VARBINARY. For DECIMAL, {@code precision} and {@code scale} are as written; for CHAR, VARCHAR and
 * VARBINARY, {@code precision} is the length. Absent values mean "not written".
 */
public record TypeSpec(String name, OptionalInt precision, OptionalInt scale) {
  public static final Set<String> CANONICAL_NAMES =
      Set.of(
          "BOOLEAN",
          "TINYINT",
          "SMALLINT",
          "INTEGER",
          "BIGINT",
          "FLOAT",
          "DOUBLE",
          "DECIMAL",
          "CHAR",
          "VARCHAR",
          "DATE",
          "TIME",
          "TIMESTAMP",
          "VARBINARY");

  public TypeSpec {
    requireNonNull(name, "name is null");
    requireNonNull(precision, "precision is null");
    requireNonNull(scale, "scale is null");
    if (!CANONICAL_NAMES.contains(name)) {
      throw new IllegalArgumentException("not a canonical type name: [" + name + "]");
    }
    if (scale.isPresent() && precision.isEmpty()) {
      throw new IllegalArgumentException("scale without precision for type [" + name + "]");
    }
  }

  public static TypeSpec of(String name) {
    return new TypeSpec(name, OptionalInt.empty(), OptionalInt.empty());
  }

  public static TypeSpec of(String name, int precision) {
    return new TypeSpec(name, OptionalInt.of(precision), OptionalInt.empty());
  }

  public static TypeSpec of(String name, int precision, int scale) {
    return new TypeSpec(name, OptionalInt.of(precision), OptionalInt.of(scale));
  }
}
