/**
 * SQL types: {@link io.cairn.core.type.TypeName} (the names Cairn supports), {@link
 * io.cairn.core.type.DataType} (a name with precision, scale and nullability) and {@link
 * io.cairn.core.type.SortOrder} of a key column. Uses only {@code io.cairn.core.error}; immutable.
 */
package io.cairn.core.type;
