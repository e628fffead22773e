package io.cairn.kv;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The result rows of a scan, asked for page by page without a thread waiting for each page: what a
 * store that answers asynchronously (a server over the network) offers for parallel scans, through
 * {@link AsyncPageScans}. Rows come in the order a {@link RowScanner} would return them.
 *
 * <p>At most one page is asked for at a time: {@link #nextPage()} is called again only after the
 * future it returned has completed. {@link #close()} may come from any thread at any time (a
 * cancel, a timeout, another chunk's failure): it stops the scan wherever it runs, releases what
 * the scan holds, and fails or completes the page in flight. Always close a page scanner, also
 * after its last page.
 */
public interface PageScanner extends AutoCloseable {
  /**
   * Asks for the next page. The future completes on whatever thread received the answer (an I/O
   * thread): what is chained to it must not block. It fails with the scan's error as a {@link
   * io.cairn.core.error.CairnException}.
   */
  CompletableFuture<Page> nextPage();

  @Override
  void close();

  /** One page of rows. */
  interface Page {
    /**
     * The page's rows, handed over to the caller. May decode the page (call it on the consuming
     * thread, not in a completion callback); call it at most once.
     */
    List<Object[]> rows();

    /** Whether this is the scan's last page (no further {@link #nextPage()}). */
    boolean last();
  }
}
