package io.cairn.store.file;

import io.cairn.core.expr.NumberVector;
import java.util.Arrays;

/**
 * One data block as its {@link VectorCache} keeps it: the block's facts (cells, whether each is a
 * put of a row of its own, the sequence ids, the first and last row) and the vectors of the columns
 * scans asked for, by key ({@link io.cairn.store.cell.BlockRun#key}). The facts never change; the
 * columns grow (copy on write, under the cache's lock) and are read without a lock.
 */
final class BlockVectors {
  final int rows;
  final boolean plain;
  final long minSequenceId;
  final long maxSequenceId;
  final byte[] firstRow;
  final byte[] lastRow;

  private volatile long[] keys;
  private volatile NumberVector[] vectors;

  BlockVectors(
      int rows,
      boolean plain,
      long minSequenceId,
      long maxSequenceId,
      byte[] firstRow,
      byte[] lastRow,
      long[] keys,
      NumberVector[] vectors) {
    this.rows = rows;
    this.plain = plain;
    this.minSequenceId = minSequenceId;
    this.maxSequenceId = maxSequenceId;
    this.firstRow = firstRow;
    this.lastRow = lastRow;
    this.keys = keys;
    this.vectors = vectors;
  }

  /** The vector of column key {@code key}, or null when not built. */
  NumberVector find(long key) {
    long[] k = keys;
    NumberVector[] v = vectors;
    for (int i = 0; i < k.length; i++) {
      if (k[i] == key) {
        return v[i];
      }
    }
    return null;
  }

  /** Adds the columns of {@code other} (the same block) this one lacks; under the cache's lock. */
  void addColumnsOf(BlockVectors other) {
    long[] k = keys;
    NumberVector[] v = vectors;
    int n = k.length;
    long[] otherKeys = other.keys;
    NumberVector[] otherVectors = other.vectors;
    for (int i = 0; i < otherKeys.length; i++) {
      if (find(otherKeys[i]) == null) {
        k = Arrays.copyOf(k, n + 1);
        v = Arrays.copyOf(v, n + 1);
        k[n] = otherKeys[i];
        v[n] = otherVectors[i];
        n++;
      }
    }
    vectors = v;
    keys = k;
  }

  /** Estimated heap bytes: the vectors, the rows, the object. */
  long bytes() {
    long b = 64L + firstRow.length + lastRow.length + keys.length * 16L;
    for (NumberVector v : vectors) {
      b += v.bytes();
    }
    return b;
  }
}
