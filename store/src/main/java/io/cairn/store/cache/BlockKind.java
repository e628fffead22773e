package io.cairn.store.cache;

/** What a block holds; decides the cache level it goes to (an in-memory choice, never stored). */
public enum BlockKind {
  /** Rows: the bulk of the blocks, cached off-heap in L2 ({@link BucketCache}). */
  DATA,
  /** A level of a file's block index: small and read on every seek, cached on-heap in L1. */
  INDEX,
  /** A chunk of a file's bloom filter: small and read on every point lookup, cached in L1. */
  BLOOM
}
