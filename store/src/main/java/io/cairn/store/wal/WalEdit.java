package io.cairn.store.wal;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;

/**
 * One logged edit: a put or a delete of one row of one table (tables identified by a store-assigned
 * long id).
 *
 * @param tableId the store-assigned id of the table
 * @param key the row key
 * @param delete whether the edit deletes the row
 * @param value the row's value; for a delete, {@code null} is taken as {@link Bytes#EMPTY}
 */
public record WalEdit(long tableId, Bytes key, boolean delete, Bytes value) {
  public WalEdit {
    requireNonNull(key, "key is null");
    if (value == null) {
      if (!delete) {
        throw new NullPointerException("value is null");
      }
      value = Bytes.EMPTY;
    }
  }

  /** A put of {@code value} at {@code key}. */
  public static WalEdit put(long tableId, Bytes key, Bytes value) {
    return new WalEdit(tableId, key, false, value);
  }

  /** A delete of the row at {@code key}. */
  public static WalEdit delete(long tableId, Bytes key) {
    return new WalEdit(tableId, key, true, Bytes.EMPTY);
  }
}
