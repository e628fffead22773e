package io.cairn.store.region;

import static java.util.Objects.requireNonNull;

import io.cairn.store.memstore.Memstore;
import java.util.List;

/**
 * What a region reads at one moment: the active memstore (takes writes), frozen memstores waiting
 * to be flushed (newest first) and block files (newest first). Immutable: a flush, compaction or
 * split publishes a new state; a scan keeps the one it started with.
 */
public record RegionState(Memstore active, List<Memstore> frozen, List<StoreFile> files) {
  public RegionState {
    requireNonNull(active, "active is null");
    frozen = List.copyOf(frozen);
    files = List.copyOf(files);
  }

  /** Releases the file references a scan took with {@link Region#acquireState()}. */
  public void release() {
    for (StoreFile f : files) {
      f.release();
    }
  }
}
