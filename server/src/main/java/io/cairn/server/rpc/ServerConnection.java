package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import io.cairn.kv.RowScanner;
import io.cairn.protocol.Event;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ShuttingDown;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.store.StoreConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: its session (Hello first), the requests it has running, its scanners,
 * snapshots and hash caches, and the backpressure that keeps what the server holds for it bounded.
 *
 * <p>Threads: the channel's event loop reads requests and writes answers; every request's work runs
 * on the server's worker pool ({@link RequestHandler}), never on the event loop. The fields marked
 * "event loop" are touched only there.
 *
 * <p>Backpressure: a request starts only while the connection has fewer than {@code max-in-flight}
 * requests running and its channel is writable (its unsent answers are below the write buffer's
 * high water mark). Otherwise it waits, and the connection stops reading frames until the answers
 * drain: a client that sends without reading ends up blocked in its own writes, with at most one
 * socket read's worth of requests waiting here.
 */
final class ServerConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ServerConnection.class);

  /** How long an error that closes the connection may take to reach a client that does not read. */
  private static final long CLOSE_GRACE_MILLIS = 5000;

  /**
   * Logs (at debug) a write or close that failed: the connection is gone, which its own close
   * handles; nothing else is to be done.
   */
  private static final ChannelFutureListener LOG_FAILURE =
      f -> {
        if (!f.isSuccess() && LOG.isDebugEnabled()) {
          LOG.debug(
              "Write or close on {} failed: {}", f.channel().remoteAddress(), f.cause().toString());
        }
      };

  private enum Phase {
    AWAITING_HELLO,
    HELLO_RUNNING,
    OPEN,
    CLOSED
  }

  private final ServerContext server;
  private final RequestHandler handler;
  private final HashCaches hashCaches;
  private final Logins logins;
  private final ConnectionAdmission.Ticket ticket;
  private final FrameDecoder frames;
  private final long openedAtMillis = System.currentTimeMillis();
  private Channel channel;
  private volatile Phase phase = Phase.AWAITING_HELLO;

  /** The password check of the Hello succeeded (or none was needed); set on the event loop. */
  private volatile boolean authenticated;

  /** When a request last arrived or was answered (System.nanoTime), for the idle timeout. */
  private volatile long lastActivityNanos = System.nanoTime();

  private Future<?> handshakeDeadline;

  // event loop
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private int inFlight;

  // any thread
  private final Map<Long, Call> calls = new ConcurrentHashMap<>();
  private final Map<Long, ServerScanner> scanners = new ConcurrentHashMap<>();
  private final Map<Long, ServerSnapshot> snapshots = new ConcurrentHashMap<>();

  /** ScanNext calls waiting behind a running one of the same scanner, by scanner id. */
  private final Map<Long, ArrayDeque<Call>> pagesInOrder = new HashMap<>();

  private final AtomicLong scannerIds = new AtomicLong();
  private final AtomicLong snapshotIds = new AtomicLong();
  private final AtomicLong requestCount = new AtomicLong();
  private final AtomicLong answered = new AtomicLong();
  private final AtomicLong bytesIn = new AtomicLong();
  private final AtomicLong bytesOut = new AtomicLong();
  private final AtomicBoolean databaseReleased = new AtomicBoolean();
  private final Object stateLock = new Object();
  private boolean closed; // guarded by stateLock
  private volatile ServedDatabase database;
  private volatile MemoryPool queryMemory; // the connection's budget, set by Hello
  private volatile long sessionId;
  private volatile String user = "";
  private volatile String clientName = "";

  ServerConnection(
      ServerContext server,
      RequestHandler handler,
      Logins logins,
      ConnectionAdmission.Ticket ticket,
      FrameDecoder frames) {
    this.server = requireNonNull(server, "server is null");
    this.handler = requireNonNull(handler, "handler is null");
    this.logins = requireNonNull(logins, "logins is null");
    this.ticket = requireNonNull(ticket, "ticket is null");
    this.frames = requireNonNull(frames, "frames is null");
    this.hashCaches = new HashCaches(server.hashCacheMemory());
  }

  /** Whether the Hello's password check succeeded (always, once open, without authentication). */
  boolean authenticated() {
    return authenticated;
  }

  // --- session state, read by the handler and the status page ---------------------------------

  /** The database chosen by Hello; null before. */
  ServedDatabase database() {
    return database;
  }

  long sessionId() {
    return sessionId;
  }

  String user() {
    return user;
  }

  String clientName() {
    return clientName;
  }

  long openedAtMillis() {
    return openedAtMillis;
  }

  long requestCount() {
    return requestCount.get();
  }

  /** Requests answered so far. */
  long answered() {
    return answered.get();
  }

  /** Frame bytes received (after TLS). */
  long bytesIn() {
    return bytesIn.get();
  }

  /** Frame bytes sent (before TLS). */
  long bytesOut() {
    return bytesOut.get();
  }

  SocketAddress remoteAddress() {
    Channel c = channel;
    return c == null ? null : c.remoteAddress();
  }

  /**
   * The connection's query memory budget (under its database's and the server's); null before
   * Hello.
   */
  MemoryPool queryMemory() {
    return queryMemory;
  }

  HashCaches hashCaches() {
    return hashCaches;
  }

  int openScanners() {
    return scanners.size();
  }

  /** Snapshots held now (one past its maximum age counts until the next sweep forgets it). */
  int openSnapshots() {
    return snapshots.size();
  }

  /**
   * Records a successful Hello: the connection joins {@code db} (and hears its events), and holds
   * it (acquired by the caller) until it closed and its last request ended.
   *
   * @throws CairnException CONNECTION_CLOSED (and releases {@code db}) when the connection closed
   *     meanwhile
   */
  void opened(ServedDatabase db, long session, String userName, String client) {
    synchronized (stateLock) {
      if (closed) {
        db.release();
        throw new CairnException(ErrorCode.CONNECTION_CLOSED, "The connection closed");
      }
      this.sessionId = session;
      this.user = userName;
      this.clientName = client;
      this.queryMemory = server.queryMemory().connection(db.name(), session);
      this.database = db;
      db.connections().add(this);
    }
  }

  /**
   * Gives back the session's database once the connection closed and its last request ended (a
   * request still running may use its store); at most once.
   */
  private void releaseDatabaseWhenDone() {
    if (phase == Phase.CLOSED && calls.isEmpty() && databaseReleased.compareAndSet(false, true)) {
      ServedDatabase db;
      synchronized (stateLock) {
        db = database;
      }
      if (db != null) {
        db.release();
      } else {
        databaseReleased.set(false); // no session: nothing held (a Hello still running releases)
      }
    }
  }

  // --- scanners --------------------------------------------------------------------------------

  /**
   * Takes ownership of {@code rows} as a new open scanner.
   *
   * @throws CairnException CONNECTION_CLOSED (and closes {@code rows}) when the connection closed
   */
  ServerScanner registerScanner(RowScanner rows, int columnCount) {
    synchronized (stateLock) {
      if (closed) {
        rows.close();
        throw new CairnException(ErrorCode.CONNECTION_CLOSED, "The connection closed");
      }
      ServerScanner s = new ServerScanner(scannerIds.incrementAndGet(), rows, columnCount);
      scanners.put(s.id(), s);
      server.metrics().scannerOpened();
      return s;
    }
  }

  ServerScanner scanner(long id) {
    return scanners.get(id);
  }

  /** Closes and forgets scanner {@code id}; false when the connection does not hold it. */
  boolean closeScanner(long id) {
    ServerScanner s = scanners.remove(id);
    if (s == null) {
      return false;
    }
    s.close();
    server.metrics().scannerClosed();
    return true;
  }

  /** Closes the scanners untouched for {@code timeoutNanos} and not in use; returns how many. */
  int expireScanners(long nowNanos, long timeoutNanos) {
    int expired = 0;
    for (ServerScanner s : scanners.values()) {
      if (s.idleNanos(nowNanos) >= timeoutNanos && s.lock().tryLock()) {
        try {
          if (s.idleNanos(System.nanoTime()) >= timeoutNanos && closeScanner(s.id())) {
            expired++;
            LOG.debug("Scanner {} of connection {} expired (idle)", s.id(), describe());
          }
        } finally {
          s.lock().unlock();
        }
      }
    }
    return expired;
  }

  // --- snapshots -------------------------------------------------------------------------------

  /**
   * Opens a snapshot of {@code db}'s store, held by this connection until {@link #closeSnapshot},
   * the connection's close or the store's maximum snapshot age.
   *
   * @throws CairnException SERVER_BUSY when the connection holds max-snapshots-per-connection
   *     already, CONNECTION_CLOSED when it closed
   */
  ServerSnapshot openSnapshot(ServedDatabase db) {
    expireSnapshots(System.nanoTime());
    int limit = server.config().maxSnapshotsPerConnection();
    synchronized (stateLock) {
      if (closed) {
        throw new CairnException(ErrorCode.CONNECTION_CLOSED, "The connection closed");
      }
      if (snapshots.size() >= limit) {
        throw new CairnException(
            ErrorCode.SERVER_BUSY,
            "Too many open snapshots: this connection holds ["
                + snapshots.size()
                + "], the most "
                + ServerConfig.MAX_SNAPSHOTS_PER_CONNECTION
                + " ["
                + limit
                + "] allows; close snapshots (CloseSnapshot) before opening more");
      }
      ServerSnapshot s =
          new ServerSnapshot(
              snapshotIds.incrementAndGet(), db.store().openSnapshot(), System.nanoTime());
      snapshots.put(s.id(), s);
      server.metrics().snapshotOpened();
      return s;
    }
  }

  /** Releases and forgets snapshot {@code id}; false when the connection does not hold it. */
  boolean closeSnapshot(long id) {
    ServerSnapshot s = snapshots.remove(id);
    if (s == null) {
      return false;
    }
    s.close();
    server.metrics().snapshotClosed();
    return true;
  }

  /**
   * Forgets (and releases, if the store has not yet) the snapshots past the database's maximum
   * snapshot age; returns how many.
   */
  int expireSnapshots(long nowNanos) {
    ServedDatabase db = database;
    if (db == null || snapshots.isEmpty()) {
      return 0;
    }
    long maxAge = TimeUnit.MILLISECONDS.toNanos(db.snapshotMaxAgeMillis());
    int expired = 0;
    for (ServerSnapshot s : snapshots.values()) {
      if (s.expired(nowNanos, maxAge) && closeSnapshot(s.id())) {
        expired++;
        LOG.debug(
            "Snapshot {} (read point {}) of connection {} expired ({})",
            s.id(),
            s.readPoint(),
            describe(),
            StoreConfig.SNAPSHOT_MAX_AGE);
      }
    }
    return expired;
  }

  // --- Netty -----------------------------------------------------------------------------------

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    channel = ctx.channel();
    server.connections().add(this);
    server.metrics().connectionOpened();
    LOG.debug("Connection from {} opened", channel.remoteAddress());
    handshakeDeadline =
        ctx.executor()
            .schedule(
                this::handshakeExpired,
                server.config().connections().handshakeTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    phase = Phase.CLOSED;
    waiting.clear();
    if (handshakeDeadline != null) {
      handshakeDeadline.cancel(false);
    }
    List<ServerScanner> open;
    List<ServerSnapshot> pinned;
    synchronized (stateLock) {
      closed = true;
      ServedDatabase db = database;
      if (db != null) {
        db.connections().remove(this);
      }
      open = new ArrayList<>(scanners.values());
      scanners.clear();
      pinned = new ArrayList<>(snapshots.values());
      snapshots.clear();
    }
    // a client that went away gets no answers: stop its work and give back what it held
    for (Call call : calls.values()) {
      call.cancel();
    }
    for (ServerScanner s : open) {
      s.close();
      server.metrics().scannerClosed();
    }
    for (ServerSnapshot s : pinned) {
      s.close();
      server.metrics().snapshotClosed();
    }
    hashCaches.close();
    server.connections().remove(this);
    server.metrics().connectionClosed();
    LOG.debug(
        "Connection {} closed after {} requests ({} scanners, {} snapshots closed)",
        describe(),
        requestCount.get(),
        open.size(),
        pinned.size());
    releaseDatabaseWhenDone();
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof UnreadableRequest unreadable) {
      unreadable(unreadable);
      return;
    }
    Request request = (Request) msg;
    server.metrics().request();
    requestCount.incrementAndGet();
    bytesIn.addAndGet(FrameDecoder.LENGTH_BYTES + request.getSerializedSize());
    lastActivityNanos = System.nanoTime();
    if (phase == Phase.CLOSED) {
      return;
    }
    if (request.getId() == 0) {
      failAndClose(
          ErrorCode.PROTOCOL_ERROR,
          "Request ids must be > 0, found [0] (a " + request.getBodyCase() + " request)");
      return;
    }
    switch (phase) {
      case AWAITING_HELLO -> {
        if (request.getBodyCase() == Request.BodyCase.HELLO) {
          phase = Phase.HELLO_RUNNING;
          ticket.helloReceived();
          if (logins.required()) {
            authenticate(request);
          } else {
            start(request);
          }
        } else {
          // answered under the request's own id (the client waits for it), then closed
          writeAndClose(
              error(
                  request.getId(),
                  ErrorCode.AUTHENTICATION_REQUIRED,
                  "Expected Hello as the first request, found ["
                      + request.getBodyCase()
                      + "]: nothing is done before a successful Hello"));
        }
      }
      case HELLO_RUNNING -> {
        // pipelined behind the Hello: runs once it succeeds
        waiting.add(request);
        updateReading();
      }
      default -> admit(request);
    }
  }

  /**
   * A frame that is not a request, with a readable id: answered PROTOCOL_ERROR for that id; the
   * connection goes on (before Hello it is closed after the answer, as for any other request).
   */
  private void unreadable(UnreadableRequest r) {
    server.metrics().request();
    requestCount.incrementAndGet();
    bytesIn.addAndGet(FrameDecoder.LENGTH_BYTES + r.frameBytes());
    LOG.debug("Connection {}: {}", describe(), r.message());
    if (phase == Phase.AWAITING_HELLO) {
      writeAndClose(error(r.id(), ErrorCode.PROTOCOL_ERROR, r.message()));
    } else if (phase != Phase.CLOSED) {
      write(error(r.id(), ErrorCode.PROTOCOL_ERROR, r.message()));
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event == ConnectionAdmission.EVICT) {
      if (phase == Phase.AWAITING_HELLO && !authenticated) {
        LOG.debug("Connection {}: closed before its Hello to make room", describe());
        closeNow(
            ErrorCode.SERVER_BUSY,
            "The server is busy: closed without a Hello after ["
                + (System.currentTimeMillis() - openedAtMillis)
                + "] ms to make room for a new connection ("
                + ConnectionConfig.MAX_UNAUTHENTICATED_CONNECTIONS
                + " ["
                + server.config().connections().maxUnauthenticatedConnections()
                + "])");
      }
      return;
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    startWaiting();
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable c =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    if (c instanceof CairnException e
        && (e.errorCode() == ErrorCode.FRAME_TOO_LARGE
            || e.errorCode() == ErrorCode.PROTOCOL_ERROR)) {
      LOG.debug("Connection {}: {}", describe(), e.getMessage());
      failAndClose(e.errorCode(), e.getMessage());
    } else if (c instanceof IOException || c instanceof SSLException) {
      LOG.debug("Connection {} failed: {}", describe(), c.toString());
      ctx.close().addListener(LOG_FAILURE);
    } else {
      LOG.warn("Unexpected failure on connection {}; closing it", describe(), c);
      failAndClose(ErrorCode.INTERNAL_ERROR, "Internal error on the server: " + c);
    }
  }

  // --- admission (event loop) ------------------------------------------------------------------

  /** Checks the Hello's password on the login pool; the Hello runs once it is accepted. */
  private void authenticate(Request hello) {
    logins.check(
        ticket.address(),
        hello.getHello().getUser(),
        hello.getHello().getPassword(),
        refusal -> {
          try {
            channel.eventLoop().execute(() -> authenticated(hello, refusal));
          } catch (RejectedExecutionException e) {
            // the event loop stopped: the connection is gone
          }
        });
  }

  private void authenticated(Request hello, CairnException refusal) {
    if (phase != Phase.HELLO_RUNNING) {
      return; // closed meanwhile (the handshake deadline, the client)
    }
    if (refusal != null) {
      writeAndClose(error(hello.getId(), refusal.errorCode(), refusal.getMessage()));
      return;
    }
    loggedIn();
    start(hello);
  }

  /** The client has authenticated: full-size frames, no handshake deadline, no longer counted. */
  private void loggedIn() {
    authenticated = true;
    ticket.authenticated();
    frames.loggedIn();
    if (handshakeDeadline != null) {
      handshakeDeadline.cancel(false);
    }
  }

  private void handshakeExpired() {
    if (phase == Phase.CLOSED || authenticated) {
      return;
    }
    server.metrics().handshakeTimeout();
    Duration timeout = server.config().connections().handshakeTimeout();
    LOG.debug("Connection {}: no login within {}; closing it", describe(), timeout);
    String message =
        phase == Phase.AWAITING_HELLO
            ? "No Hello within ["
                + timeout.toMillis()
                + "] ms of connecting ("
                + ConnectionConfig.HANDSHAKE_TIMEOUT
                + ")"
            : "The login did not complete within ["
                + timeout.toMillis()
                + "] ms of connecting ("
                + ConnectionConfig.HANDSHAKE_TIMEOUT
                + "): the server is busy checking passwords";
    closeNow(
        phase == Phase.AWAITING_HELLO ? ErrorCode.PROTOCOL_ERROR : ErrorCode.SERVER_BUSY, message);
  }

  /**
   * Closes the connection when it has been idle past {@code idle-timeout} or has held a frame begun
   * but not complete past {@code frame-read-timeout} (the server's timer; from any thread).
   */
  void expireIdle(long nowNanos) {
    ConnectionConfig limits = server.config().connections();
    Channel c = channel;
    if (c == null || phase != Phase.OPEN) {
      return;
    }
    long partialSince = frames.partialSinceNanos();
    long frameTimeout = limits.frameReadTimeout().toNanos();
    if (partialSince != 0 && nowNanos - partialSince >= frameTimeout && c.config().isAutoRead()) {
      runOnEventLoop(
          () -> {
            long since = frames.partialSinceNanos();
            if (phase == Phase.OPEN
                && since != 0
                && System.nanoTime() - since >= frameTimeout
                && channel.config().isAutoRead()) {
              server.metrics().frameReadTimeout();
              LOG.debug(
                  "Connection {}: a frame not complete after {}",
                  describe(),
                  limits.frameReadTimeout());
              closeNow(
                  ErrorCode.PROTOCOL_ERROR,
                  "A frame begun ["
                      + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since)
                      + "] ms ago is not complete ("
                      + ConnectionConfig.FRAME_READ_TIMEOUT
                      + " ["
                      + limits.frameReadTimeout().toMillis()
                      + "] ms)");
            }
          });
      return;
    }
    long idleTimeout = limits.idleTimeout().toNanos();
    if (idleTimeout > 0 && isIdle(nowNanos, idleTimeout)) {
      runOnEventLoop(
          () -> {
            if (phase == Phase.OPEN
                && waiting.isEmpty()
                && inFlight == 0
                && isIdle(System.nanoTime(), idleTimeout)) {
              server.metrics().idleTimeout();
              LOG.debug("Connection {} closed after {} idle", describe(), limits.idleTimeout());
              failAndClose(
                  ErrorCode.CONNECTION_LOST,
                  "The server closed the connection after ["
                      + limits.idleTimeout().toMillis()
                      + "] ms without a request ("
                      + ConnectionConfig.IDLE_TIMEOUT
                      + ")");
            }
          });
    }
  }

  private boolean isIdle(long nowNanos, long idleTimeoutNanos) {
    return calls.isEmpty()
        && scanners.isEmpty()
        && noPartialFrame()
        && nowNanos - lastActivityNanos >= idleTimeoutNanos;
  }

  private boolean noPartialFrame() {
    return frames.partialSinceNanos() == 0;
  }

  private void runOnEventLoop(Runnable task) {
    try {
      channel.eventLoop().execute(task);
    } catch (RejectedExecutionException e) {
      // the event loop stopped: the connection is gone
    }
  }

  /** Writes an error of the connection (id 0) and closes at once, without waiting for the write. */
  private void closeNow(ErrorCode code, String message) {
    phase = Phase.CLOSED;
    waiting.clear();
    server.metrics().error();
    channel.config().setAutoRead(false);
    channel.writeAndFlush(error(0, code, message)).addListener(LOG_FAILURE);
    channel.close().addListener(LOG_FAILURE);
  }

  // --- requests (event loop) -------------------------------------------------------------------

  /** A request of an open session: cancels at once, the rest start or wait their turn. */
  private void admit(Request request) {
    switch (request.getBodyCase()) {
      case CANCEL -> cancel(request.getCancel().getTarget());
      case BODY_NOT_SET ->
          write(
              error(
                  request.getId(),
                  ErrorCode.PROTOCOL_ERROR,
                  "Request ["
                      + request.getId()
                      + "] has no body this server knows: an unknown request type (from a newer"
                      + " client?)"));
      default -> {
        if (!waiting.isEmpty() || !canStart()) {
          waiting.add(request);
          updateReading();
        } else {
          start(request);
        }
      }
    }
  }

  private boolean canStart() {
    return inFlight < server.config().maxInFlight() && channel.isWritable();
  }

  /** Starts what waits, as far as the limits allow, and reads again when nothing waits. */
  private void startWaiting() {
    while (phase == Phase.OPEN && !waiting.isEmpty() && canStart()) {
      Request next = waiting.poll();
      if (next.getBodyCase() == Request.BodyCase.CANCEL
          || next.getBodyCase() == Request.BodyCase.BODY_NOT_SET) {
        admit(next);
      } else {
        start(next);
      }
    }
    updateReading();
  }

  private void updateReading() {
    boolean read =
        phase != Phase.CLOSED
            && waiting.isEmpty()
            && inFlight < server.config().maxInFlight()
            && channel.isWritable();
    if (channel.config().isAutoRead() != read) {
      channel.config().setAutoRead(read);
      if (read) {
        // the frame half read while the server did not read is not late by the client's fault
        frames.restartPartialClock();
      }
    }
  }

  private void start(Request request) {
    long id = request.getId();
    if (server.shuttingDown() && request.getBodyCase() != Request.BodyCase.HELLO) {
      write(error(id, ErrorCode.SERVER_SHUTTING_DOWN, "The server is shutting down"));
      return;
    }
    Call call = new Call(request, System.nanoTime());
    if (calls.putIfAbsent(id, call) != null) {
      write(
          error(
              id,
              ErrorCode.PROTOCOL_ERROR,
              "Request id [" + id + "] is already in use by a request still running"));
      return;
    }
    inFlight++;
    try {
      execute(call);
    } catch (RejectedExecutionException e) {
      calls.remove(id, call);
      inFlight--;
      Response answer =
          server.shuttingDown()
              ? error(id, ErrorCode.SERVER_SHUTTING_DOWN, "The server is shutting down")
              : error(
                  id,
                  ErrorCode.SERVER_BUSY,
                  "The server is busy: its queue of ["
                      + server.config().queueSize()
                      + "] requests is full ("
                      + ServerConfig.QUEUE_SIZE
                      + "); retry later");
      if (request.getBodyCase() == Request.BodyCase.HELLO) {
        writeAndClose(answer);
      } else {
        write(answer);
      }
    }
  }

  /**
   * Hands {@code call} to the worker pool. Pages of one scanner are read in the order their
   * requests arrived: a ScanNext behind another of the same scanner waits in that scanner's queue
   * and runs on the same worker, right after it (event loop).
   */
  private void execute(Call call) {
    if (call.request().getBodyCase() != Request.BodyCase.SCAN_NEXT) {
      server
          .workers()
          .execute(
              () -> {
                if (mayDefer(call)) {
                  channel.eventLoop().execute(() -> deferred(call, List.of()));
                } else {
                  run(call);
                }
              });
      return;
    }
    long scanner = call.request().getScanNext().getScannerId();
    synchronized (pagesInOrder) {
      ArrayDeque<Call> queue = pagesInOrder.get(scanner);
      if (queue != null) {
        queue.add(call);
        return;
      }
      pagesInOrder.put(scanner, new ArrayDeque<>());
    }
    try {
      server.workers().execute(() -> runInOrder(scanner, call));
    } catch (RejectedExecutionException e) {
      synchronized (pagesInOrder) {
        pagesInOrder.remove(scanner); // empty: only the event loop adds
      }
      throw e;
    }
  }

  /** Runs {@code first}, then the pages of the same scanner that queued behind it meanwhile. */
  private void runInOrder(long scanner, Call first) {
    Call next = first;
    while (next != null) {
      if (mayDefer(next)) {
        // this page and those behind it go back to the waiting queue, in order (event loop)
        Call page = next;
        channel.eventLoop().execute(() -> deferredPages(scanner, page));
        return;
      }
      run(next);
      synchronized (pagesInOrder) {
        ArrayDeque<Call> queue = pagesInOrder.get(scanner);
        next = queue.poll();
        if (next == null) {
          pagesInOrder.remove(scanner);
        }
      }
    }
  }

  /**
   * Whether a call should wait instead of running now (worker thread): while the client does not
   * read its answers (the channel is over its write-buffer high watermark), started calls that have
   * not begun go back to the waiting queue rather than build answers that would pile up unsent. So
   * a client that never reads holds at most its unsent bytes plus the answers of the calls already
   * running when it stopped reading, whatever its requests in flight.
   */
  private boolean mayDefer(Call call) {
    Request.BodyCase type = call.request().getBodyCase();
    return !channel.isWritable()
        && phase == Phase.OPEN
        && type != Request.BodyCase.HELLO
        && type != Request.BodyCase.CLOSE_SCAN
        && type != Request.BodyCase.CLOSE_SNAPSHOT
        && !call.cancelled();
  }

  /** Puts deferred calls back at the head of the waiting queue, in order (event loop). */
  private void deferred(Call call, List<Call> behind) {
    List<Call> all = new ArrayList<>(1 + behind.size());
    all.add(call);
    all.addAll(behind);
    for (int i = all.size() - 1; i >= 0; i--) {
      Call c = all.get(i);
      calls.remove(c.id(), c);
      inFlight--;
      if (phase != Phase.CLOSED) {
        waiting.addFirst(c.request());
      }
    }
    releaseDatabaseWhenDone();
    startWaiting();
  }

  /** A deferred page of {@code scanner} and the pages queued behind it (event loop). */
  private void deferredPages(long scanner, Call page) {
    List<Call> behind;
    synchronized (pagesInOrder) {
      ArrayDeque<Call> queue = pagesInOrder.remove(scanner);
      behind = queue == null ? List.of() : new ArrayList<>(queue);
    }
    deferred(page, behind);
  }

  private void cancel(long target) {
    Call call = calls.get(target);
    if (call != null) {
      LOG.debug("Connection {}: cancel of request {}", describe(), target);
      call.cancel();
      return;
    }
    for (Request r : waiting) {
      if (r.getId() == target) {
        waiting.remove(r);
        write(error(target, ErrorCode.QUERY_CANCELED, "Request [" + target + "] was cancelled"));
        startWaiting();
        return;
      }
    }
  }

  /** The answer of a call is ready (event loop). */
  private void completed(Call call, Response answer) {
    inFlight--;
    lastActivityNanos = System.nanoTime();
    if (phase == Phase.CLOSED) {
      return;
    }
    if (call.request().getBodyCase() == Request.BodyCase.HELLO && phase == Phase.HELLO_RUNNING) {
      if (!answer.hasHelloOk()) {
        writeAndClose(answer);
        return;
      }
      loggedIn();
      phase = Phase.OPEN;
      write(answer);
      // what was pipelined behind the Hello, in order
      List<Request> pipelined = new ArrayList<>(waiting);
      waiting.clear();
      for (Request r : pipelined) {
        admit(r);
      }
    } else {
      write(answer);
    }
    startWaiting();
  }

  // --- requests (worker threads) ---------------------------------------------------------------

  private void run(Call call) {
    Response.Builder answer;
    try {
      if (call.cancelled()) {
        throw cancelled(call);
      }
      answer = handler.handle(this, call);
    } catch (Throwable t) {
      answer = failure(call, t);
    } finally {
      call.reading(null);
    }
    finish(call, answer);
  }

  /** The error answer for a failed call. */
  private Response.Builder failure(Call call, Throwable t) {
    Throwable reported = t;
    if (call.cancelled()) {
      reported = cancelled(call);
    } else if (t instanceof StackOverflowError) {
      // the client gets 54001 (WireMessages); thousands of repeated frames say nothing more
      LOG.warn(
          "Request {} ({}) of connection {} exhausted a worker's stack",
          call.id(),
          call.request().getBodyCase(),
          describe());
    } else if (!(t instanceof CairnException)
        || ((CairnException) t).errorCode() == ErrorCode.INTERNAL_ERROR) {
      LOG.error(
          "Request {} ({}) of connection {} failed",
          call.id(),
          call.request().getBodyCase(),
          describe(),
          t);
    }
    return Response.newBuilder().setError(WireMessages.toProto(reported));
  }

  private static CairnException cancelled(Call call) {
    return new CairnException(
        ErrorCode.QUERY_CANCELED, "Request [" + call.id() + "] was cancelled");
  }

  private void finish(Call call, Response.Builder answer) {
    ServedDatabase db = database;
    if (db != null) {
      answer.setCatalog(db.version());
    }
    answer.setId(call.id());
    Response built = answer.build();
    int size = built.getSerializedSize();
    if (size > server.config().maxFrameBytes()) {
      built =
          error(
              call.id(),
              ErrorCode.FRAME_TOO_LARGE,
              "The answer to request ["
                  + call.id()
                  + "] takes ["
                  + size
                  + "] bytes, more than the maximum frame size ["
                  + server.config().maxFrameBytes()
                  + "] bytes");
    }
    long nanos = System.nanoTime() - call.startNanos();
    long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
    if (millis >= server.config().slowRequestMillis()) {
      server.metrics().slowRequest();
      server
          .slowRequests()
          .record(
              Instant.now().minusNanos(nanos),
              describe(),
              call.request().getBodyCase().name(),
              tableOf(call.request()),
              Duration.ofNanos(nanos),
              rowsOf(call.request(), built));
      LOG.warn(
          "Slow request: {} (id {}) of connection {} took {} ms{}",
          call.request().getBodyCase(),
          call.id(),
          describe(),
          millis,
          built.hasError() ? " and failed: " + built.getError().getMessage() : "");
    }
    calls.remove(call.id(), call);
    releaseDatabaseWhenDone();
    Response done = built;
    try {
      channel.eventLoop().execute(() -> completed(call, done));
    } catch (RejectedExecutionException e) {
      // the event loop stopped: the connection is gone
    }
  }

  /** The table a request works on, for the slow-request log; empty when none. */
  private static String tableOf(Request r) {
    return switch (r.getBodyCase()) {
      case GET -> r.getGet().getScan().getTable();
      case OPEN_SCAN -> r.getOpenScan().getScan().getTable();
      case MUTATE ->
          r.getMutate().getBatchesCount() == 0 ? "" : r.getMutate().getBatches(0).getTable();
      case GET_TABLE -> r.getGetTable().getTable();
      case GET_CHANGE_SEQUENCE -> r.getGetChangeSequence().getTable();
      case ALLOCATE_IDS -> r.getAllocateIds().getTable();
      case ADMIN -> r.getAdmin().getTable();
      case ALTER_TABLE -> r.getAlterTable().getName();
      case DROP_TABLE -> r.getDropTable().getName();
      case CREATE_INDEX -> r.getCreateIndex().getTable();
      case DROP_INDEX -> r.getDropIndex().getTable();
      case REBUILD_INDEX -> r.getRebuildIndex().getTable();
      case VERIFY_INDEX -> r.getVerifyIndex().getTable();
      default -> "";
    };
  }

  /** Rows a request returned or wrote, for the slow-request log. */
  private static long rowsOf(Request r, Response answer) {
    if (answer.hasScanPage()) {
      return answer.getScanPage().getRowCount();
    }
    if (r.hasMutate() && answer.hasMutateResult()) {
      long n = 0;
      for (io.cairn.protocol.TableBatch b : r.getMutate().getBatchesList()) {
        n += b.getMutationsCount();
      }
      return n;
    }
    return 0;
  }

  // --- writing ---------------------------------------------------------------------------------

  /** An error answer to request {@code id} (0: the connection's own error). */
  Response error(long id, ErrorCode code, String message) {
    Response.Builder b =
        Response.newBuilder()
            .setId(id)
            .setError(WireMessages.toProto(new CairnException(code, message)));
    ServedDatabase db = database;
    if (db != null) {
      b.setCatalog(db.version());
    }
    return b.build();
  }

  private void write(Response response) {
    if (response.hasError()) {
      server.metrics().error();
    }
    answered.incrementAndGet();
    bytesOut.addAndGet(FrameDecoder.LENGTH_BYTES + response.getSerializedSize());
    channel.writeAndFlush(response).addListener(LOG_FAILURE);
  }

  /** Pushes an event (request id 0) to the client, from any thread. */
  void pushEvent(Event event) {
    if (phase != Phase.OPEN) {
      return;
    }
    Response.Builder b = Response.newBuilder().setId(0).setEvent(event);
    ServedDatabase db = database;
    if (db != null) {
      b.setCatalog(db.version());
    }
    Response built = b.build();
    bytesOut.addAndGet(FrameDecoder.LENGTH_BYTES + built.getSerializedSize());
    channel.writeAndFlush(built).addListener(LOG_FAILURE);
  }

  /** Tells the client the server is shutting down (from any thread). */
  void pushShuttingDown() {
    pushEvent(Event.newBuilder().setShuttingDown(ShuttingDown.getDefaultInstance()).build());
  }

  /** Answers with an error of the connection (id 0), then closes it. */
  private void failAndClose(ErrorCode code, String message) {
    writeAndClose(error(0, code, message));
  }

  private void writeAndClose(Response response) {
    phase = Phase.CLOSED;
    waiting.clear();
    server.metrics().error();
    channel.config().setAutoRead(false);
    channel.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    // a client that does not read would keep the connection open until its answer is sent
    Runnable forceClose =
        () -> {
          channel.close().addListener(LOG_FAILURE);
        };
    Future<?> unused =
        channel.eventLoop().schedule(forceClose, CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Closes the connection (from any thread), after the answers already written. */
  void close() {
    Channel c = channel;
    if (c != null) {
      try {
        c.eventLoop().execute(() -> c.close().addListener(LOG_FAILURE));
      } catch (RejectedExecutionException e) {
        c.close().addListener(LOG_FAILURE);
      }
    }
  }

  /** Requests running or waiting, for a graceful shutdown. */
  boolean busy() {
    return !calls.isEmpty();
  }

  /** Cancels every running request (a shutdown that ran out of time). */
  void cancelAll() {
    for (Call call : calls.values()) {
      call.cancel();
    }
  }

  Channel channel() {
    return channel;
  }

  /** For logs: the remote address, session and database. */
  String describe() {
    Channel c = channel;
    ServedDatabase db = database;
    return (c == null ? "?" : String.valueOf(c.remoteAddress()))
        + (sessionId == 0 ? "" : " (session " + sessionId + ")")
        + (db == null ? "" : " on " + db.displayName());
  }
}
