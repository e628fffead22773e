/**
 * The read path's memory (DESIGN.md, "Read path and the off-heap block cache"): pooled,
 * reference-counted buffers, the block cache, and the leak detector that says where an unreleased
 * buffer or block was taken. Uses only {@code io.cairn.store.io} of the store (its settings
 * parser).
 *
 * <h2>Threads and locks</h2>
 *
 * <p>Thread-safe; callers hold no lock of this package, and may hold a region's write lock (a
 * conditional write reads blocks of the region's files to see whether a row exists). The package's
 * own locks are innermost and short: a monitor per {@code BlockMap} segment, the {@code
 * BucketAllocator}'s monitor and a cache's eviction lock (eviction runs on the inserting thread,
 * and only tries the lock); while holding one it calls nothing outside this package.
 *
 * <h2>Buffers</h2>
 *
 * <p>A {@link io.cairn.store.cache.BufferPool} hands out {@link
 * io.cairn.store.cache.PooledBuffer}s: fixed-size direct buffers, created lazily up to a limit and
 * reused, or heap buffers when a request is too small or too large for a pooled buffer or the pool
 * is exhausted; heap fallbacks are counted in {@link io.cairn.store.cache.BufferPoolStats}.
 *
 * <h2>Reference counting</h2>
 *
 * <p>Buffers and cached blocks are {@link io.cairn.store.cache.BlockBuffer}s: a reference count
 * that starts at 1 for whoever took the buffer, and a view of the bytes created once and shared,
 * read with absolute gets only. Whoever holds a reference releases it exactly once, on every path,
 * errors included; a release without a reference throws, and so does a retain or a use after the
 * last release. Memory goes back to its pool or cache only at the last release, so a block a
 * scanner holds stays intact however much the cache evicts meanwhile.
 *
 * <h2>The block cache</h2>
 *
 * <p>A {@link io.cairn.store.cache.BlockCache} maps (file id, offset) to a copy of a block's bytes.
 * {@link io.cairn.store.cache.CombinedBlockCache} has two levels, each a {@link
 * io.cairn.store.cache.BlockCache} of its own:
 *
 * <ul>
 *   <li>L1, {@link io.cairn.store.cache.LruBlockCache}: on the heap, for index and bloom blocks
 *       ({@link io.cairn.store.cache.BlockKind}), which are small and read on every seek or point
 *       lookup. Each block is a copied byte array.
 *   <li>L2, {@link io.cairn.store.cache.BucketCache}: off the heap, for data blocks, so that a
 *       large cache adds nothing to garbage collection. Its {@code BucketAllocator} cuts the
 *       capacity into buckets of 520 KiB, each serving one slot size at a time (5 to 129 KiB, so a
 *       64 KiB block and its slack take a 65 KiB slot, eight to a bucket); an empty bucket can
 *       serve another size. Buckets live in slabs of 8 (about 4 MiB) that are allocated only as
 *       they are needed: the capacity is a ceiling, not a reservation, so an embedded store does
 *       not take gigabytes at start.
 * </ul>
 *
 * <p>Without L2 data blocks go to L1, and the other way round; without either nothing is cached
 * ({@link io.cairn.store.cache.BlockCache#disabled()}). {@link
 * io.cairn.store.cache.BlockCacheConfig} sizes the levels (a tenth of the heap up to 256 MiB for
 * L1, a quarter of the direct memory limit for L2, {@code cairn.block-cache.size} and {@code
 * cairn.block-cache.l1-size}), and a cache that would not fit in the direct memory with the buffer
 * pool fails at construction.
 *
 * <p>A lookup takes no lock and allocates nothing: a {@code BlockMap} keyed by the two longs (no
 * boxed key), a compare-and-set on the block's reference count, and two counter updates. The cache
 * holds one reference to each block it maps; eviction unmaps a block and drops that reference, and
 * the memory is freed at the block's last release.
 *
 * <h2>Priorities and eviction</h2>
 *
 * <p>A block is cached as {@link io.cairn.store.cache.BlockPriority#SINGLE}, or {@link
 * io.cairn.store.cache.BlockPriority#MEMORY} for an in-memory table, and becomes {@link
 * io.cairn.store.cache.BlockPriority#MULTI} on its first hit. Eviction runs on the inserting thread
 * when a level's used bytes pass the acceptable watermark (95% of its capacity) or an allocation
 * fails, and frees down to the low watermark (85%), as HBase's caches do: each priority has a share
 * of that (single 25%, multi 50%, memory 25%); the groups over their share give up their excess,
 * least recently used blocks first, so that a scan's flood of single blocks does not push out the
 * blocks read again and again. Blocks a reader holds are never evicted to make room (freeing them
 * would free nothing). When L2 still has no slot of the size a block needs, it evicts the least
 * valuable block of that size, or empties the bucket with the fewest blocks. A block that does not
 * fit the largest slot, or that finds every block in its way held, is served but not cached, and
 * counted in {@link io.cairn.store.cache.BlockCacheStats}. Deleting a file evicts its blocks at
 * once ({@link io.cairn.store.cache.BlockCache#evictFile}).
 *
 * <h2>Leaks</h2>
 *
 * <p>{@link io.cairn.store.cache.LeakDetector} in paranoid mode ({@code
 * -Dcairn.leakDetection=paranoid}, or {@link io.cairn.store.cache.LeakDetector#setMode}) records
 * where each buffer was allocated, and where each cached block was last retained, and reports
 * buffers and blocks that became unreachable unreleased, or were still out when their pool or cache
 * was checked or closed; {@link io.cairn.store.cache.LeakDetector#assertNoLeaks()} then fails.
 */
package io.cairn.store.cache;
