package io.cairn.kv;

/**
 * Optional capability of a {@link KvTable}: scans read page by page with completions instead of a
 * blocked thread ({@link PageScanner}). Parallel scans run every chunk of a query this way, so a
 * query over many chunks of a remote table holds no thread per chunk. Tables without it (the
 * embedded store) are scanned through {@link KvTable#scan} on a shared pool of threads.
 */
public interface AsyncPageScans {
  /**
   * Prepares a scan of {@code request}; nothing is sent or read until the first {@link
   * PageScanner#nextPage()}, which also takes the scan's snapshot.
   */
  PageScanner scanPages(ScanRequest request);
}
