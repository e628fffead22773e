package io.cairn.jdbc.internal.engine;

import static java.util.Objects.requireNonNull;

import io.cairn.core.type.DataType;

/** A {@code ?} parameter and the type the statement expects for it. */
public record ParameterInfo(DataType type) {
  public ParameterInfo {
    requireNonNull(type, "type is null");
  }
}
