package io.cairn.core.catalog;

import static java.util.Objects.requireNonNull;

import io.cairn.core.type.DataType;

/** A column of a table; {@code type().nullable()} says whether it accepts NULL. */
public record ColumnDescriptor(String name, int columnId, DataType type) {
  public ColumnDescriptor {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
  }
}
