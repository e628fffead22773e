package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvTable;
import io.cairn.kv.PageScanner;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A blocking {@link KvTable#scan} read page by page on the {@link ScanPool}: each {@link
 * #nextPage()} is one task that opens the store's scanner (the first time) and reads up to {@value
 * #PAGE_ROWS} rows, or fewer once it has rows and has worked {@value #PAGE_MILLIS} ms, so that a
 * task holds a pool thread briefly. {@link #close()} from any thread closes the store's scanner,
 * which stops a task working inside it.
 */
final class PooledPageScanner implements PageScanner {
  static final int PAGE_ROWS = 1024;
  static final long PAGE_MILLIS = 5;
  private static final long PAGE_NANOS = PAGE_MILLIS * 1_000_000L;

  private final KvTable table;
  private final ScanRequest request;

  // guarded by this
  private RowScanner scanner;
  private boolean closed;

  PooledPageScanner(KvTable table, ScanRequest request) {
    this.table = table;
    this.request = request;
  }

  @Override
  public CompletableFuture<Page> nextPage() {
    CompletableFuture<Page> page = new CompletableFuture<>();
    ScanPool.execute(
        () -> {
          try {
            page.complete(read());
          } catch (RuntimeException | Error e) {
            page.completeExceptionally(e);
          }
        });
    return page;
  }

  private Page read() {
    RowScanner rows = open();
    List<Object[]> page = new ArrayList<>();
    long started = System.nanoTime();
    while (page.size() < PAGE_ROWS) {
      Object[] row = rows.next();
      if (row == null) {
        return new ListPage(page, true);
      }
      page.add(row);
      if ((page.size() & 63) == 0 && System.nanoTime() - started > PAGE_NANOS) {
        break;
      }
    }
    return new ListPage(page, false);
  }

  private RowScanner open() {
    synchronized (this) {
      if (closed) {
        throw closedError();
      }
      if (scanner != null) {
        return scanner;
      }
    }
    RowScanner opened = table.scan(request);
    synchronized (this) {
      if (!closed) {
        scanner = opened;
        return opened;
      }
    }
    opened.close();
    throw closedError();
  }

  private CairnException closedError() {
    return new CairnException(
        ErrorCode.QUERY_CANCELED, "The scan of a chunk of " + table.name() + " was closed");
  }

  @Override
  public void close() {
    RowScanner open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = scanner;
    }
    if (open != null) {
      open.close();
    }
  }

  /** Rows read on the pool. */
  private record ListPage(List<Object[]> rows, boolean last) implements Page {}
}
