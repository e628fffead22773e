package io.cairn.jdbc.internal.engine;

import static java.util.Objects.requireNonNull;

import io.cairn.core.type.DataType;

/**
 * A result column: its label (the alias or derived name), the underlying column and table names
 * when it is a plain column reference (else empty strings), and its type ({@code
 * type().nullable()}).
 */
public record ColumnInfo(
    String label, String columnName, String schemaName, String tableName, DataType type) {
  public ColumnInfo {
    requireNonNull(label, "label is null");
    requireNonNull(columnName, "columnName is null");
    requireNonNull(schemaName, "schemaName is null");
    requireNonNull(tableName, "tableName is null");
    requireNonNull(type, "type is null");
  }
}
