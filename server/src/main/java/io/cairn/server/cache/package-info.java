/**
 * Pooled, reference-counted buffers for the read path (DESIGN.md, "Read path and the off-heap block
 * cache"), and the leak detector that says where an unreleased buffer was taken.
 *
 * <p>A {@link io.cairn.server.cache.BufferPool} hands out {@link
 * io.cairn.server.cache.PooledBuffer}s: fixed-size direct buffers, created lazily up to a limit and
 * reused, or heap buffers when a request is too small or too large for a pooled buffer or the pool
 * is exhausted; heap fallbacks are counted in {@link io.cairn.server.cache.BufferPoolStats}. A
 * buffer's reference count starts at 1; whoever holds a reference releases it exactly once, on
 * every path, errors included.
 *
 * <p>{@link io.cairn.server.cache.LeakDetector} in paranoid mode ({@code
 * -Dcairn.leakDetection=paranoid}, or {@link io.cairn.server.cache.LeakDetector#setMode}) records
 * where each buffer was allocated and reports buffers that became unreachable, or were still out
 * when their pool was checked or closed; {@link io.cairn.server.cache.LeakDetector#assertNoLeaks()}
 * then fails. Uses only {@code io.cairn.server.io} of the server (nothing yet).
 */
package io.cairn.server.cache;
