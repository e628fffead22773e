package io.cairn.server.cache;

/** What a cached block holds: data blocks go to L2 (off-heap), index and bloom blocks to L1. */
public enum BlockKind {
  DATA,
  INDEX,
  BLOOM
}
