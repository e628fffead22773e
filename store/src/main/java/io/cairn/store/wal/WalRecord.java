package io.cairn.store.wal;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One atomic batch: all edits under one sequence id; replay applies a record whole or not at all.
 *
 * @param sequenceId the batch's sequence id, at least 0; ids need not grow in log order
 * @param edits the edits, at least one
 */
public record WalRecord(long sequenceId, List<WalEdit> edits) {
  public WalRecord {
    if (sequenceId < 0) {
      throw new IllegalArgumentException("sequenceId is negative: [" + sequenceId + "]");
    }
    edits = List.copyOf(requireNonNull(edits, "edits is null"));
    if (edits.isEmpty()) {
      throw new IllegalArgumentException("edits is empty");
    }
  }
}
