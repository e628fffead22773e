package io.cairn.jdbc.internal.remote;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.PageScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.OpenScan;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanNext;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.wire.RowPageReader;
import io.cairn.protocol.wire.WireMessages;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A scan on a server read page by page with no thread waiting: the first {@link #nextPage()} sends
 * OpenScan, the next ones ScanNext, and each page's future completes on the connection's event
 * loop. The page's rows are decoded by whoever takes them ({@link Page#rows()}), not on the event
 * loop. The parallel scans of the driver run each chunk of a remote table as one of these.
 *
 * <p>{@link #close()}, from any thread: a Cancel for the request in flight and a CloseScan for a
 * scanner left open on the server, without waiting for either (as {@link RemoteScanner} does).
 */
final class RemotePageScanner implements PageScanner {
  private final RpcConnection connection;
  private final RpcChannel channel;
  private final String table;
  private final ScanRequest request;

  // guarded by this
  private RpcCall outstanding;
  private long scannerId;
  private boolean serverOpen;
  private boolean started;
  private boolean closed;

  /** Takes the connection's channel now (connecting if need be); sends nothing yet. */
  RemotePageScanner(RpcConnection connection, String table, ScanRequest request) {
    this.connection = connection;
    this.channel = connection.awaitChannel();
    this.table = table;
    this.request = request;
  }

  @Override
  public CompletableFuture<Page> nextPage() {
    RpcCall call;
    synchronized (this) {
      if (closed) {
        return CompletableFuture.failedFuture(closedError());
      }
      if (outstanding != null) {
        throw new IllegalStateException("A page of " + table + " is already asked for");
      }
      Request.Builder message;
      String description;
      if (!started) {
        started = true;
        message =
            Request.newBuilder()
                .setOpenScan(OpenScan.newBuilder().setScan(WireMessages.toProto(table, request)));
        description = "OpenScan of " + table;
      } else {
        if (!serverOpen) {
          throw new IllegalStateException("The scan of " + table + " has no more pages");
        }
        message = Request.newBuilder().setScanNext(ScanNext.newBuilder().setScannerId(scannerId));
        description = "ScanNext of " + table;
      }
      call = channel.send(message, description, connection.config().requestTimeout());
      outstanding = call;
    }
    return call.future().handle((response, error) -> answered(call, response, error));
  }

  /** On the event loop: the answer to {@code call}. */
  private Page answered(RpcCall call, Response response, Throwable error) {
    synchronized (this) {
      if (outstanding == call) {
        outstanding = null;
      }
      if (error != null) {
        throw Rpc.rethrown(error); // the scanner may stay open on the server: close() closes it
      }
      if (!response.hasScanPage()) {
        throw RemoteCatalog.unexpected(call.description(), "ScanPage", response);
      }
      ScanPage page = response.getScanPage();
      if (page.getDone()) {
        serverOpen = false;
      } else if (!closed) {
        scannerId = page.getScannerId();
        serverOpen = true;
      }
      return new WirePage(page);
    }
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
      serverOpen = false;
    }
    channel.releaseScanner(pending, open, id, table, connection.config().requestTimeout());
  }

  /** A page as it came from the server, decoded when its rows are taken. */
  private static final class WirePage implements Page {
    private final ScanPage page;

    WirePage(ScanPage page) {
      this.page = page;
    }

    @Override
    public List<Object[]> rows() {
      return Arrays.asList(
          RowPageReader.read(page.getRows(), page.getRowCount(), page.getColumnCount()));
    }

    @Override
    public boolean last() {
      return page.getDone();
    }
  }
}
