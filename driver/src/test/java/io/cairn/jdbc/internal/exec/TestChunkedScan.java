package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.kv.PageScanner;
import io.cairn.kv.SortKey;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The merges, bounds and closing of {@link ChunkedScan} over hand-written page scanners that answer
 * on other threads (the store's side of sorted chunks, per ScanProgram's contract, is tested with
 * the store).
 */
class TestChunkedScan {
  private final ExecutorService answering = Executors.newFixedThreadPool(3);
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();

  @AfterEach
  void stop() {
    answering.shutdownNow();
  }

  /** Pages of {@code pageSize} rows of one column, answered on another thread. */
  private final class TestingPageScanner implements PageScanner {
    private final List<Integer> values;
    private final int pageSize;
    private final int failAtPage;
    private int position;
    private int pages;
    volatile boolean closed;

    TestingPageScanner(List<Integer> values, int pageSize, int failAtPage) {
      this.values = values;
      this.pageSize = pageSize;
      this.failAtPage = failAtPage;
    }

    @Override
    public CompletableFuture<Page> nextPage() {
      int now = inFlight.incrementAndGet();
      maxInFlight.accumulateAndGet(now, Math::max);
      return CompletableFuture.supplyAsync(
          () -> {
            inFlight.decrementAndGet();
            if (closed) {
              throw new CairnException(ErrorCode.QUERY_CANCELED, "closed");
            }
            if (pages++ == failAtPage) {
              throw new CairnException(ErrorCode.DIVISION_BY_ZERO, "Division by zero in a chunk");
            }
            List<Object[]> rows = new ArrayList<>();
            while (rows.size() < pageSize && position < values.size()) {
              rows.add(new Object[] {values.get(position++)});
            }
            boolean last = position == values.size();
            return new Page() {
              @Override
              public List<Object[]> rows() {
                return rows;
              }

              @Override
              public boolean last() {
                return last;
              }
            };
          },
          answering);
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static ExecContext context(ExecutionControl control) {
    return new ExecContext(
        Stores.inMemory("chunked-scan"),
        EvalContext.EMPTY,
        control,
        2,
        io.cairn.core.agg.AggregationMemory.DEFAULT_MAX_BYTES);
  }

  private static List<Integer> drain(ChunkedScan scan) {
    List<Integer> values = new ArrayList<>();
    for (Object[] row = scan.next(); row != null; row = scan.next()) {
      values.add((Integer) row[0]);
    }
    scan.close();
    return values;
  }

  private static List<Integer> range(int from, int to, int step) {
    List<Integer> values = new ArrayList<>();
    for (int v = from; v < to; v += step) {
      values.add(v);
    }
    return values;
  }

  private static List<Integer> reversed(List<Integer> values) {
    List<Integer> copy = new ArrayList<>(values);
    Collections.reverse(copy);
    return copy;
  }

  @Test
  void keyOrderConcatenatesTheChunksWithBoundedRequests() {
    List<TestingPageScanner> chunks = new ArrayList<>();
    List<Integer> expected = new ArrayList<>();
    for (int c = 0; c < 6; c++) {
      List<Integer> values = range(c * 100, c * 100 + 100, 1);
      expected.addAll(values);
      chunks.add(new TestingPageScanner(values, 7, -1));
    }
    ChunkedScan scan =
        new ChunkedScan(
            context(ExecutionControl.unlimited()),
            ScanLayout.Merge.KEY_ORDER,
            2,
            2,
            List.copyOf(chunks),
            null,
            0,
            -1);
    assertThat(drain(scan)).isEqualTo(expected);
    assertThat(maxInFlight.get()).isLessThanOrEqualTo(2);
    assertThat(chunks).allMatch(c -> c.closed);
  }

  @Test
  void sortedChunksAreMergeSortedThenOffsetAndLimited() {
    // three chunks, each sorted descending by the store: a top-(offset + limit) each
    List<PageScanner> chunks =
        List.of(
            new TestingPageScanner(reversed(range(0, 300, 3)), 10, -1),
            new TestingPageScanner(reversed(range(1, 300, 3)), 10, -1),
            new TestingPageScanner(reversed(range(2, 300, 3)), 10, -1));
    ChunkedScan scan =
        new ChunkedScan(
            context(ExecutionControl.unlimited()),
            ScanLayout.Merge.SORTED,
            1,
            3,
            chunks,
            SortKey.comparator(List.of(new SortKey(0, true, false))),
            5,
            20);
    assertThat(drain(scan)).isEqualTo(reversed(range(275, 295, 1)));
    assertThat(chunks).allMatch(c -> ((TestingPageScanner) c).closed);
  }

  @Test
  void anyOrderReturnsEveryRowOfEveryChunk() {
    List<PageScanner> chunks = new ArrayList<>();
    for (int c = 0; c < 5; c++) {
      chunks.add(new TestingPageScanner(List.of(c), 1, -1));
    }
    ChunkedScan scan =
        new ChunkedScan(
            context(ExecutionControl.unlimited()),
            ScanLayout.Merge.ANY_ORDER,
            3,
            3,
            chunks,
            null,
            0,
            -1);
    assertThat(drain(scan)).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
  }

  @Test
  void aLimitStopsAndClosesTheChunksRunningAhead() {
    List<TestingPageScanner> chunks = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      chunks.add(new TestingPageScanner(range(c * 1000, c * 1000 + 1000, 1), 100, -1));
    }
    ChunkedScan scan =
        new ChunkedScan(
            context(ExecutionControl.unlimited()),
            ScanLayout.Merge.KEY_ORDER,
            4,
            4,
            List.copyOf(chunks),
            null,
            0,
            150);
    List<Integer> values = new ArrayList<>();
    for (Object[] row = scan.next(); row != null; row = scan.next()) {
      values.add((Integer) row[0]);
    }
    assertThat(values).isEqualTo(range(0, 150, 1));
    assertThat(chunks).allMatch(c -> c.closed); // before close(): the limit closed them
    scan.close();
  }

  @Test
  void aFailingChunkFailsTheScanAndClosesTheOthers() {
    List<TestingPageScanner> chunks = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      chunks.add(new TestingPageScanner(range(c * 100, c * 100 + 100, 1), 10, c == 2 ? 3 : -1));
    }
    ChunkedScan scan =
        new ChunkedScan(
            context(ExecutionControl.unlimited()),
            ScanLayout.Merge.KEY_ORDER,
            2,
            2,
            List.copyOf(chunks),
            null,
            0,
            -1);
    assertThatThrownBy(() -> drain(scan))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("Division by zero in a chunk");
    assertThat(chunks).allMatch(c -> c.closed);
    scan.close();
  }

  @Test
  void aCancelWakesTheReaderAndClosesEveryChunk() throws Exception {
    ExecutionControl control = ExecutionControl.unlimited();
    // a chunk whose first page never comes
    List<PageScanner> chunks = new ArrayList<>();
    TestingPageScanner quick = new TestingPageScanner(range(0, 10, 1), 10, -1);
    chunks.add(quick);
    CompletableFuture<PageScanner.Page> never = new CompletableFuture<>();
    boolean[] closed = new boolean[1];
    chunks.add(
        new PageScanner() {
          @Override
          public CompletableFuture<Page> nextPage() {
            return never;
          }

          @Override
          public void close() {
            closed[0] = true;
            never.completeExceptionally(new CairnException(ErrorCode.QUERY_CANCELED, "closed"));
          }
        });
    ChunkedScan scan =
        new ChunkedScan(context(control), ScanLayout.Merge.KEY_ORDER, 2, 2, chunks, null, 0, -1);
    for (int i = 0; i < 10; i++) {
      assertThat(scan.next()).isNotNull();
    }
    Thread canceller =
        new Thread(
            () -> {
              try {
                Thread.sleep(200);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              control.cancel();
            });
    canceller.start();
    assertThatThrownBy(scan::next)
        .isInstanceOf(CairnException.class)
        .extracting(e -> ((CairnException) e).errorCode())
        .isEqualTo(ErrorCode.QUERY_CANCELED);
    canceller.join();
    assertThat(closed[0]).isTrue();
    assertThat(quick.closed).isTrue();
    scan.close();
  }
}
