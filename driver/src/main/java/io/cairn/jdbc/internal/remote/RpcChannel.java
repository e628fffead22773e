package io.cairn.jdbc.internal.remote;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Cancel;
import io.cairn.protocol.CatalogVersion;
import io.cairn.protocol.CloseScan;
import io.cairn.protocol.Event;
import io.cairn.protocol.HelloOk;
import io.cairn.protocol.IndexProgress;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.wire.WireMessages;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One network connection to a server: sends requests with fresh ids and matches each response to
 * its request by id, so any number of requests share the connection and none holds a thread while
 * it waits. Responses with id 0 are the server's events. When the connection breaks, every request
 * in flight fails with CONNECTION_LOST naming the server; the channel is then unusable (the owning
 * {@link RpcConnection} opens a new one for the next request).
 *
 * <p>The last handler of the channel's pipeline: it receives frames and sends {@link Request}s
 * through the encoder before it.
 */
final class RpcChannel extends SimpleChannelInboundHandler<ByteBuf> {
  private static final Logger LOG = LoggerFactory.getLogger(RpcChannel.class);

  /** The frame limit assumed until the server tells its own (rpc.proto's default). */
  static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;

  /** What the channel tells its owner. Called on the event loop: must not block. */
  interface Listener {
    /** A response or event carried the server's catalog version. */
    void catalogVersion(RpcChannel channel, CatalogVersion version);

    /** The server announced that it is shutting down. */
    void shuttingDown(RpcChannel channel);

    /** The connection closed; its calls have failed. */
    void closed(RpcChannel channel);
  }

  private final String server;
  private final long generation;
  private final Listener listener;
  private final Map<Long, RpcCall> calls = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private volatile Channel channel;
  private volatile CairnException failure;
  private volatile Throwable cause;
  private volatile String serverError;
  private volatile String tlsFailure;
  private volatile boolean goingAway;
  private volatile HelloOk hello;

  /**
   * @param server {@code host:port}, for messages
   * @param generation the how-manieth connection of its owner this is
   */
  RpcChannel(String server, long generation, Listener listener) {
    this.server = server;
    this.generation = generation;
    this.listener = listener;
  }

  long generation() {
    return generation;
  }

  String server() {
    return server;
  }

  /** The server's answer to Hello, once the handshake is done. */
  HelloOk hello() {
    return hello;
  }

  void handshakeDone(HelloOk ok) {
    this.hello = ok;
  }

  /** Whether new requests may use this channel: open, and the server is not going away. */
  boolean isUsable() {
    Channel c = channel;
    return failure == null && !goingAway && c != null && c.isActive();
  }

  /** Requests sent and not answered yet. */
  int inFlight() {
    return calls.size();
  }

  private int maxFrameBytes() {
    HelloOk ok = hello;
    return ok == null || ok.getMaxFrameBytes() <= 0
        ? DEFAULT_MAX_FRAME_BYTES
        : ok.getMaxFrameBytes();
  }

  /**
   * Sends a request with a fresh id; its answer is expected within {@code timeout}. Never throws: a
   * request that cannot be sent is a failed call.
   */
  RpcCall send(Request.Builder request, String description, Duration timeout) {
    return send(request, description, timeout, null);
  }

  /**
   * {@link #send(Request.Builder, String, Duration)} of a request the server reports progress of
   * (IndexProgress events naming it): each report goes to {@code progress} on the event loop (it
   * must not block) and restarts the wait of {@code timeout} for the answer, since the server is
   * evidently working on it.
   */
  RpcCall send(
      Request.Builder request, String description, Duration timeout, LongConsumer progress) {
    long id = ids.incrementAndGet();
    Request message = request.setId(id).build();
    RpcCall call = new RpcCall(id, description, progress, timeout);
    CairnException failed = failure;
    if (failed != null) {
      call.fail(lost(description));
      return call;
    }
    int size = message.getSerializedSize() + 4;
    if (size > maxFrameBytes()) {
      call.fail(
          new CairnException(
              ErrorCode.FRAME_TOO_LARGE,
              "Request ["
                  + description
                  + "] needs a frame of ["
                  + size
                  + "] bytes; the Cairn server at "
                  + server
                  + " accepts at most ["
                  + maxFrameBytes()
                  + "] bytes per frame"));
      return call;
    }
    calls.put(id, call);
    if (failure != null) {
      if (calls.remove(id, call)) {
        call.fail(lost(description));
      }
      return call;
    }
    Channel c = channel;
    call.timeout(scheduleTimeout(c, call, timeout));
    c.writeAndFlush(message)
        .addListener(
            written -> {
              if (!written.isSuccess() && calls.remove(id, call)) {
                call.fail(
                    new CairnException(
                        ErrorCode.CONNECTION_LOST,
                        "Cannot send request ["
                            + description
                            + "] to the Cairn server at "
                            + server
                            + ": "
                            + written.cause(),
                        written.cause()));
              }
            });
    return call;
  }

  /**
   * Asks the server to stop request {@code target}; it is answered with QUERY_CANCELLED or, if it
   * finished first, normally. A Cancel gets no answer of its own. Does nothing on a broken channel.
   */
  void cancel(long target) {
    Channel c = channel;
    if (failure != null || c == null) {
      return;
    }
    Request message =
        Request.newBuilder()
            .setId(ids.incrementAndGet())
            .setCancel(Cancel.newBuilder().setTarget(target))
            .build();
    c.writeAndFlush(message);
  }

  /**
   * Releases a server scanner from the client's side: with no page request in flight, closes the
   * scanner {@code id} when it may still be {@code open}; otherwise cancels the request {@code
   * pending} and closes whatever scanner its answer leaves open (a cancelled ScanNext keeps its
   * scanner). Never waits.
   */
  void releaseScanner(RpcCall pending, boolean open, long id, String table, Duration timeout) {
    if (pending == null) {
      if (open) {
        closeScan(id, table, timeout);
      }
      return;
    }
    cancel(pending.id());
    pending
        .future()
        .whenComplete(
            (response, error) -> {
              if (response != null) {
                if (response.hasScanPage() && !response.getScanPage().getDone()) {
                  closeScan(response.getScanPage().getScannerId(), table, timeout);
                }
              } else if (id != 0) {
                closeScan(id, table, timeout);
              }
            });
  }

  private void closeScan(long id, String table, Duration timeout) {
    sendAndForget(
        Request.newBuilder().setCloseScan(CloseScan.newBuilder().setScannerId(id)),
        "CloseScan of " + table,
        timeout);
  }

  /** Sends a request whose answer nobody waits for (its errors are only logged). */
  void sendAndForget(Request.Builder request, String description, Duration timeout) {
    send(request, description, timeout)
        .future()
        .whenComplete(
            (response, error) -> {
              if (error != null) {
                LOG.debug("{} to {} failed: {}", description, server, error.toString());
              }
            });
  }

  private ScheduledFuture<?> scheduleTimeout(Channel c, RpcCall call, Duration timeout) {
    return c.eventLoop()
        .schedule(() -> timedOut(call, timeout), timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** A progress report of a call in flight: passed on, and the call's timeout starts again. */
  private void progress(IndexProgress report) {
    RpcCall call = calls.get(report.getRequest());
    Channel c = channel;
    if (call == null || !call.takesProgress() || c == null) {
      return; // answered or given up meanwhile, or a call that takes no reports
    }
    call.restartTimeout(scheduleTimeout(c, call, call.timeoutAfter()));
    call.progress(report.getRowsIndexed());
  }

  private void timedOut(RpcCall call, Duration timeout) {
    if (!calls.remove(call.id(), call)) {
      return;
    }
    call.fail(
        new CairnException(
            ErrorCode.REQUEST_TIMEOUT,
            "Request ["
                + call.description()
                + "] to the Cairn server at "
                + server
                + " got no answer within ["
                + timeout.toMillis()
                + "] ms (connection property requestTimeout)"));
    cancel(call.id());
  }

  /** Closes the connection; calls in flight fail with CONNECTION_LOST. */
  void close() {
    Channel c = channel;
    if (c != null) {
      c.close();
    }
  }

  // --- Netty -----------------------------------------------------------------------------------

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.channel = ctx.channel();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
    Response response;
    try {
      response = RpcFrames.parse(frame);
    } catch (IOException | RuntimeException e) {
      cause = e;
      serverError = "the server sent a frame that is not a valid response (" + e.getMessage() + ")";
      ctx.close();
      return;
    }
    if (response.hasCatalog()) {
      listener.catalogVersion(this, response.getCatalog());
    }
    if (response.getId() == 0) {
      event(response);
      return;
    }
    RpcCall call = calls.remove(response.getId());
    if (call == null) {
      // answered after its timeout, or a stray id: nobody waits for it
      LOG.debug("Response {} from {} matches no request in flight", response.getId(), server);
      return;
    }
    if (response.hasError()) {
      call.fail(WireMessages.fromProto(response.getError()));
    } else {
      call.complete(response);
    }
  }

  private void event(Response response) {
    if (response.hasEvent()) {
      Event event = response.getEvent();
      switch (event.getKindCase()) {
        case CATALOG_CHANGED -> listener.catalogVersion(this, event.getCatalogChanged());
        case SHUTTING_DOWN -> {
          goingAway = true;
          listener.shuttingDown(this);
        }
        case INDEX_PROGRESS -> progress(event.getIndexProgress());
        default -> LOG.debug("Unknown event from {}: {}", server, event.getKindCase());
      }
    } else if (response.hasError()) {
      // the error that precedes the server closing this connection
      serverError = response.getError().getMessage();
    }
  }

  /** A failed TLS handshake closes the channel without passing through exceptionCaught. */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof SslHandshakeCompletionEvent tls && !tls.isSuccess() && cause == null) {
      Throwable t = tls.cause();
      cause = t;
      serverError = null;
      tlsFailure = "TLS handshake failed: " + (t.getMessage() == null ? t : t.getMessage());
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable t) {
    if (cause == null) {
      cause = t;
    }
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    failure = new CairnException(ErrorCode.CONNECTION_LOST, lostMessage(null));
    List<RpcCall> pending = new ArrayList<>(calls.values());
    for (RpcCall call : pending) {
      if (calls.remove(call.id(), call)) {
        call.fail(lost(call.description()));
      }
    }
    listener.closed(this);
  }

  /** Why the connection closed: what the server said before closing it, or the local cause. */
  String closeReason() {
    if (tlsFailure != null) {
      return tlsFailure;
    }
    if (serverError != null) {
      return "the server said: " + serverError;
    }
    Throwable t = cause;
    if (t != null) {
      return t.getMessage() == null ? t.toString() : t.getMessage();
    }
    return goingAway ? "the server is shutting down" : "the server closed the connection";
  }

  private String lostMessage(String description) {
    return "Lost the connection to the Cairn server at "
        + server
        + (description == null ? "" : " while waiting for the answer to [" + description + "]")
        + ": "
        + closeReason();
  }

  private CairnException lost(String description) {
    return new CairnException(ErrorCode.CONNECTION_LOST, lostMessage(description), cause);
  }

  @Override
  public String toString() {
    return "RpcChannel[" + server + ", generation " + generation + "]";
  }
}
