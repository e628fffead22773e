package io.cairn.store.memstore;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;

/** A visible row: its key and the value of its latest version at some read point. */
public record KeyValue(Bytes key, Bytes value) {
  public KeyValue {
    requireNonNull(key, "key is null");
    requireNonNull(value, "value is null");
  }
}
