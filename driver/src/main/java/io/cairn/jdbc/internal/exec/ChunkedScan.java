package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.PageScanner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The rows of a scan cut into chunks, each read page by page through its own {@link PageScanner}
 * (asynchronous for a remote table, on the {@link ScanPool} for an embedded one), merged as the
 * {@link ScanLayout} says. No thread belongs to a chunk: page requests complete on whichever thread
 * answers them and only the consumer (the statement's thread) waits.
 *
 * <p>Bounds: at most {@code parallelism} page requests in flight; at most {@code window} chunks
 * started and not finished (the merge of sorted chunks starts them all, as it needs the head of
 * each); at most {@value #BUFFERED_PAGES} page buffered per chunk, so a chunk runs at most a page
 * or two ahead of the consumer. Closing (the end, a limit reached, a failure of any chunk, a cancel
 * or timeout through {@link io.cairn.jdbc.internal.engine.ExecutionControl#onCancel}) closes every
 * chunk's scanner, which stops it where it runs.
 */
final class ChunkedScan implements Operator {
  static final int BUFFERED_PAGES = 1;

  private static final long WAIT_MILLIS = 100;

  private final ExecContext ctx;
  private final ScanLayout.Merge merge;
  private final int parallelism;
  private final int window;
  private final Chunk[] chunks;
  private final Comparator<Object[]> order;
  private long skip;
  private long remaining;

  /** How long {@link #close()} waits for the pages in flight to stop. */
  static final long CLOSE_WAIT_MILLIS = 10_000;

  private final Object lock = new Object();
  // guarded by lock
  private int inFlight;
  private int active;
  private int nextToStart;
  private int firstUnfinished;
  private final ArrayDeque<Chunk> ready = new ArrayDeque<>();
  private RuntimeException failure;
  private boolean closed;

  // the consumer's state
  private int current;
  private int finishedChunks;
  private PriorityQueue<Chunk> heads;
  private Chunk consuming;
  private int sinceCheck;

  /**
   * @param scanners one per chunk, in key order; closed by this scan
   * @param order the sort of each chunk's rows ({@link ScanLayout.Merge#SORTED}), or null
   * @param skip rows to skip after the merge
   * @param limit rows to return at most after skipping, negative: all
   */
  ChunkedScan(
      ExecContext ctx,
      ScanLayout.Merge merge,
      int parallelism,
      int window,
      List<PageScanner> scanners,
      Comparator<Object[]> order,
      long skip,
      long limit) {
    this.ctx = ctx;
    this.merge = merge;
    this.parallelism = parallelism;
    this.window = window;
    this.chunks = new Chunk[scanners.size()];
    for (int i = 0; i < chunks.length; i++) {
      chunks[i] = new Chunk(i, scanners.get(i));
    }
    this.order = order;
    this.skip = skip;
    this.remaining = limit < 0 ? Long.MAX_VALUE : limit;
    // a cancel or timeout stops every chunk
    this.unregister = ctx.control().onCancel(this::closeScanners);
    pump();
  }

  /** Removes the cancel action that closes the scanners (once closed, nothing to cancel). */
  private final Runnable unregister;

  /** One chunk's scanner and its pages. */
  private static final class Chunk {
    final int index;
    final PageScanner scanner;
    // guarded by the scan's lock
    final ArrayDeque<PageScanner.Page> pages = new ArrayDeque<>();
    boolean started;
    boolean requested;
    boolean done; // its last page has arrived
    boolean finished; // its last page was taken and its scanner closed
    // the consumer's
    List<Object[]> rows = List.of();
    int position;
    Object[] head;

    Chunk(int index, PageScanner scanner) {
      this.index = index;
      this.scanner = scanner;
    }
  }

  // --- scheduling (any thread) ----------------------------------------------------------------

  /** Starts chunks and asks for pages as far as the bounds allow. */
  private void pump() {
    List<Chunk> toRequest = new ArrayList<>();
    synchronized (lock) {
      if (closed || failure != null) {
        return;
      }
      while (nextToStart < chunks.length && active < window) {
        chunks[nextToStart++].started = true;
        active++;
      }
      for (int i = firstUnfinished; i < nextToStart && inFlight < parallelism; i++) {
        Chunk c = chunks[i];
        if (c.finished || c.done || c.requested || c.pages.size() >= BUFFERED_PAGES) {
          continue;
        }
        c.requested = true;
        inFlight++;
        toRequest.add(c);
      }
    }
    for (Chunk c : toRequest) {
      CompletableFuture<PageScanner.Page> page;
      try {
        page = c.scanner.nextPage();
      } catch (RuntimeException e) {
        page = CompletableFuture.failedFuture(e);
      }
      page.whenComplete((p, error) -> arrived(c, p, error));
    }
  }

  /** A page (or the failure) of {@code c} arrived, on the thread that answered it. */
  private void arrived(Chunk c, PageScanner.Page page, Throwable error) {
    boolean failed = false;
    synchronized (lock) {
      c.requested = false;
      inFlight--;
      if (closed || c.finished) {
        lock.notifyAll(); // close() may wait for the pages in flight
        return;
      }
      if (error != null) {
        if (failure == null) {
          failure = rethrown(error);
          failed = true;
        }
      } else {
        c.pages.add(page);
        if (page.last()) {
          c.done = true;
        }
        if (merge == ScanLayout.Merge.ANY_ORDER) {
          ready.add(c);
        }
      }
      lock.notifyAll();
    }
    if (failed) {
      closeScanners(); // a failing chunk fails the query: stop the others now
    } else {
      pump();
    }
  }

  private static RuntimeException rethrown(Throwable error) {
    Throwable t = error;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof CairnException c) {
      return c;
    }
    if (t instanceof RuntimeException r) {
      return r;
    }
    return CairnException.internal("A chunk of a parallel scan failed: " + t);
  }

  // --- consuming (the statement's thread) -----------------------------------------------------

  @Override
  public Object[] next() {
    try {
      return nextRow();
    } catch (RuntimeException e) {
      try {
        closeScanners(); // a failure (of a chunk, or a cancel) stops every chunk
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private Object[] nextRow() {
    if (++sinceCheck >= Operators.CHECK_INTERVAL) {
      sinceCheck = 0;
      ctx.control().check();
    }
    while (skip > 0) {
      if (nextMerged() == null) {
        return end();
      }
      skip--;
    }
    if (remaining <= 0) {
      return end();
    }
    Object[] row = nextMerged();
    if (row == null) {
      return end();
    }
    remaining--;
    return row;
  }

  private Object[] end() {
    closeScanners(); // a limit reached leaves chunks running: stop them
    return null;
  }

  private Object[] nextMerged() {
    return switch (merge) {
      case KEY_ORDER, SINGLE -> nextInKeyOrder();
      case ANY_ORDER -> nextInAnyOrder();
      case SORTED -> nextSorted();
    };
  }

  private Object[] nextInKeyOrder() {
    while (current < chunks.length) {
      Object[] row = nextOf(chunks[current]);
      if (row != null) {
        return row;
      }
      current++;
    }
    return null;
  }

  private Object[] nextInAnyOrder() {
    while (true) {
      if (consuming != null && consuming.position < consuming.rows.size()) {
        return take(consuming);
      }
      consuming = null;
      if (finishedChunks == chunks.length) {
        return null;
      }
      Chunk c;
      PageScanner.Page page;
      synchronized (lock) {
        while (true) {
          checkFailure();
          c = ready.poll();
          if (c != null) {
            page = c.pages.poll();
            break;
          }
          await();
        }
      }
      accept(c, page);
      consuming = c;
    }
  }

  private Object[] nextSorted() {
    if (heads == null) {
      heads =
          new PriorityQueue<>(
              Math.max(1, chunks.length),
              (a, b) -> {
                int cmp = order.compare(a.head, b.head);
                return cmp != 0 ? cmp : Integer.compare(a.index, b.index);
              });
      for (Chunk c : chunks) {
        c.head = nextOf(c);
        if (c.head != null) {
          heads.add(c);
        }
      }
    }
    Chunk c = heads.poll();
    if (c == null) {
      return null;
    }
    Object[] row = c.head;
    c.head = nextOf(c);
    if (c.head != null) {
      heads.add(c);
    }
    return row;
  }

  /** The next row of chunk {@code c}, waiting for its pages; null at its end. */
  private Object[] nextOf(Chunk c) {
    while (c.position >= c.rows.size()) {
      PageScanner.Page page;
      synchronized (lock) {
        while (true) {
          checkFailure();
          page = c.pages.poll();
          if (page != null) {
            break;
          }
          if (c.finished) {
            return null;
          }
          await();
        }
      }
      accept(c, page);
    }
    return take(c);
  }

  private static Object[] take(Chunk c) {
    return c.rows.get(c.position++);
  }

  /** Takes {@code page} of {@code c} (outside the lock): frees its buffer and decodes its rows. */
  private void accept(Chunk c, PageScanner.Page page) {
    if (page.last()) {
      finish(c);
    }
    pump();
    c.rows = page.rows();
    c.position = 0;
  }

  /** Chunk {@code c} has delivered its last page: close its scanner, let the next one start. */
  private void finish(Chunk c) {
    synchronized (lock) {
      c.finished = true;
      active--;
      while (firstUnfinished < chunks.length && chunks[firstUnfinished].finished) {
        firstUnfinished++;
      }
    }
    finishedChunks++;
    c.scanner.close();
  }

  /** Under the lock: throws the failure of a chunk, the cancel or timeout, or a close. */
  private void checkFailure() {
    if (failure != null) {
      RuntimeException f = failure;
      // a scanner closed by a cancel fails: report the cancel
      try {
        ctx.control().check();
      } catch (CairnException stopped) {
        stopped.addSuppressed(f);
        throw stopped;
      }
      if (f instanceof CairnException c) {
        throw new CairnException(c.errorCode(), c.getMessage(), c);
      }
      throw f;
    }
    ctx.control().check();
    if (closed) {
      throw new CairnException(ErrorCode.QUERY_CANCELED, "The scan was closed");
    }
  }

  /** Under the lock: waits for a page, a failure or a cancel. */
  private void await() {
    try {
      lock.wait(WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(
          ErrorCode.QUERY_CANCELED, "Interrupted while waiting for a page of a scan", e);
    }
  }

  private void closeScanners() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      ready.clear();
      for (Chunk c : chunks) {
        c.pages.clear();
      }
      lock.notifyAll();
    }
    List<AutoCloseable> scanners = new ArrayList<>();
    for (Chunk c : chunks) {
      scanners.add(c.scanner);
    }
    Operators.closeAll(scanners);
  }

  /**
   * Closes every chunk and waits (at most {@value #CLOSE_WAIT_MILLIS} ms) until no page request is
   * in flight: a page task of the store's pool stops within a few rows once its scanner is closed,
   * so that when the statement is closed no task still reads the store (which its connection may
   * close right after: blocks held by a running task would then outlive the store's cache).
   */
  @Override
  public void close() {
    unregister.run();
    closeScanners();
    long deadline = System.nanoTime() + CLOSE_WAIT_MILLIS * 1_000_000L;
    boolean interrupted = false;
    synchronized (lock) {
      while (inFlight > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000L));
        } catch (InterruptedException e) {
          interrupted = true;
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
