package io.cairn.store.cache;

/**
 * A snapshot of a {@link BufferPool}'s counters.
 *
 * @param poolAllocationBytes bytes requested and served from pooled direct buffers, ever
 * @param heapAllocationBytes bytes requested and served from heap buffers, ever (too small, too
 *     large, or the pool was exhausted)
 * @param heapAllocationRatio heap bytes over all bytes, 0 before the first allocation
 * @param usedBuffers pooled buffers handed out and not yet released
 * @param totalBuffers pooled buffers created so far (they are created lazily)
 * @param maxBuffers the most pooled buffers the pool creates
 */
public record BufferPoolStats(
    long poolAllocationBytes,
    long heapAllocationBytes,
    double heapAllocationRatio,
    int usedBuffers,
    int totalBuffers,
    int maxBuffers) {}
