package io.cairn.jdbc.internal.exec.spill;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.io.Closeables;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows written to {@link #FANOUT} spill files by a hash of their key: rows of equal keys (by {@link
 * GroupKey#equals}) land in the same partition. Each level of a recursive partitioning uses another
 * seed, so a partition split again spreads over the new files. A key with a NULL goes to partition
 * 0. Each file is created when its first row comes.
 */
public final class SpillPartitions implements AutoCloseable {
  /** Partitions per level. */
  public static final int FANOUT = 16;

  private final SpillSpace space;
  private final String what;
  private final int seed;
  private final SpillWriter[] writers = new SpillWriter[FANOUT];

  public SpillPartitions(SpillSpace space, String what, int level) {
    this.space = space;
    this.what = what;
    this.seed = 0x9E3779B9 * (level + 1);
  }

  /** The partition of {@code key} at this level. */
  public int partition(GroupKey key) {
    if (key.hasNull()) {
      return 0;
    }
    return Math.floorMod(key.spread(seed), FANOUT);
  }

  /** Writes {@code row} to the partition of {@code key}. */
  public void write(GroupKey key, Object[] row) {
    int p = partition(key);
    SpillWriter w = writers[p];
    if (w == null) {
      w = new SpillWriter(space.newFile(what + "-p" + p));
      writers[p] = w;
    }
    w.write(row);
  }

  /** The bytes written to all partitions so far. */
  public long bytes() {
    long bytes = 0;
    for (SpillWriter w : writers) {
      bytes += w == null ? 0 : w.bytes();
    }
    return bytes;
  }

  /**
   * Finishes every file: the runs by partition, null for a partition without rows. The runs' files
   * belong to the caller from now on.
   */
  public List<SpillRun> finish() {
    List<SpillRun> runs = new ArrayList<>(FANOUT);
    for (int p = 0; p < FANOUT; p++) {
      runs.add(writers[p] == null ? null : writers[p].finish());
      writers[p] = null;
    }
    return runs;
  }

  /** Deletes the files not finished yet. */
  @Override
  public void close() {
    List<SpillWriter> open = new ArrayList<>();
    for (int p = 0; p < FANOUT; p++) {
      if (writers[p] != null) {
        open.add(writers[p]);
        writers[p] = null;
      }
    }
    Closeables.closeAllUnchecked(open);
  }
}
