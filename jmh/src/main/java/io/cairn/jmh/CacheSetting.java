package io.cairn.jmh;

import java.util.Map;

/**
 * Where the store keeps the blocks it has read, as the {@code cache} parameter of the benchmarks
 * names it; each maps to the store settings a store is opened with.
 */
public enum CacheSetting {
  /** The default layout: data blocks in the off-heap L2 bucket cache of the given size. */
  OFF_HEAP,
  /** No L2: data blocks go to the on-heap L1 LRU, sized as the L2 would have been. */
  ON_HEAP,
  /** No block cache at all: every block is read from its file (the OS page cache holds it). */
  NONE;

  public static final String L2_SIZE = "cairn.block-cache.size";
  public static final String L1_SIZE = "cairn.block-cache.l1-size";

  /** The store settings ({@code cairn.*}) for this setting with a cache of {@code size} bytes. */
  public Map<String, String> storeSettings(String size) {
    return switch (this) {
      case OFF_HEAP -> Map.of(L2_SIZE, size);
      case ON_HEAP -> Map.of(L2_SIZE, "0", L1_SIZE, size);
      case NONE -> Map.of(L2_SIZE, "0", L1_SIZE, "0");
    };
  }
}
