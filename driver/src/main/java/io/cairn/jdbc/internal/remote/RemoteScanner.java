package io.cairn.jdbc.internal.remote;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.Get;
import io.cairn.protocol.OpenScan;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanNext;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.wire.RowPageReader;
import io.cairn.protocol.wire.WireMessages;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The rows of a scan on a server, page by page. A scan is a Get (point keys: one page) or an
 * OpenScan followed by ScanNext requests on the same network connection. One page is always
 * prefetched: as soon as the reader takes a page, the next is asked for, so the server works on it
 * while the reader consumes this one; never more than one request is outstanding.
 *
 * <p>{@link #close()} may come from another thread (Statement.cancel, a query timeout): it sends a
 * Cancel for the outstanding request and a CloseScan for a scanner left open on the server, without
 * waiting for either, and a reader waiting for a page fails at once with QUERY_CANCELED.
 */
final class RemoteScanner implements RowScanner {
  private static final Object[][] NO_ROWS = new Object[0][];

  private final RpcConnection connection;
  private final RpcChannel channel;
  private final String table;
  private final CompletableFuture<Void> closing = new CompletableFuture<>();

  // the reader's state
  private Object[][] rows = NO_ROWS;
  private int position;
  private boolean done;

  // shared with close(), guarded by this
  private RpcCall outstanding;
  private long scannerId;
  private boolean serverOpen;
  private boolean closed;

  private RemoteScanner(RpcConnection connection, RpcChannel channel, String table) {
    this.connection = connection;
    this.channel = channel;
    this.table = table;
  }

  /** Sends the Get or OpenScan; its first page is awaited by the first {@link #next()}. */
  static RemoteScanner open(
      RpcConnection connection, String table, ScanRequest request, boolean get) {
    RpcChannel channel = connection.awaitChannel();
    RemoteScanner scanner = new RemoteScanner(connection, channel, table);
    ScanSpec spec = WireMessages.toProto(table, request);
    Request.Builder message =
        get
            ? Request.newBuilder().setGet(Get.newBuilder().setScan(spec))
            : Request.newBuilder().setOpenScan(OpenScan.newBuilder().setScan(spec));
    scanner.outstanding =
        channel.send(
            message,
            (get ? "Get of " : "OpenScan of ") + table,
            connection.config().requestTimeout());
    return scanner;
  }

  @Override
  public Object[] next() {
    while (true) {
      if (position < rows.length) {
        Object[] row = rows[position];
        rows[position++] = null;
        return row;
      }
      if (done) {
        return null;
      }
      nextPage();
    }
  }

  private void nextPage() {
    RpcCall call;
    synchronized (this) {
      if (closed) {
        throw closedError();
      }
      call = outstanding;
    }
    Response response;
    try {
      CompletableFuture.anyOf(call.future(), closing).get();
      synchronized (this) {
        if (closed) {
          throw closedError();
        }
      }
      response = Rpc.await(call.future());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new CairnException(
          ErrorCode.QUERY_CANCELED, "Interrupted while waiting for a page of " + table, e);
    } catch (ExecutionException e) {
      done = true;
      synchronized (this) {
        outstanding = null;
      }
      throw Rpc.rethrown(e.getCause());
    } catch (CairnException e) {
      done = true;
      synchronized (this) {
        outstanding = null;
      }
      throw e;
    }
    if (!response.hasScanPage()) {
      done = true;
      throw RemoteCatalog.unexpected(call.description(), "ScanPage", response);
    }
    ScanPage page = response.getScanPage();
    synchronized (this) {
      if (page.getDone()) {
        done = true;
        serverOpen = false;
        outstanding = null;
      } else if (closed) {
        // closed while this page was on its way: close() closes the scanner, ask for no more
        outstanding = null;
      } else {
        scannerId = page.getScannerId();
        serverOpen = true;
        // prefetch: the server works on the next page while this one is read
        outstanding =
            channel.send(
                Request.newBuilder()
                    .setScanNext(ScanNext.newBuilder().setScannerId(page.getScannerId())),
                "ScanNext of " + table,
                connection.config().requestTimeout());
      }
    }
    rows = RowPageReader.read(page.getRows(), page.getRowCount(), page.getColumnCount());
    position = 0;
  }

  private CairnException closedError() {
    return new CairnException(ErrorCode.QUERY_CANCELED, "The scan of " + table + " was closed");
  }

  @Override
  public void close() {
    RpcCall pending;
    long id;
    boolean open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      pending = outstanding;
      outstanding = null;
      id = scannerId;
      open = serverOpen;
    }
    closing.complete(null);
    channel.releaseScanner(pending, open, id, table, connection.config().requestTimeout());
  }
}
