package io.cairn.server.rpc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.tls.TlsSupport;
import io.cairn.server.security.Users;
import io.cairn.server.status.BlockCacheStatus;
import io.cairn.server.status.ClientInfo;
import io.cairn.server.status.MemstoreStatus;
import io.cairn.server.status.ServerInfo;
import io.cairn.server.status.ServerStatus;
import io.cairn.server.status.StatusAccess;
import io.cairn.server.status.StatusServer;
import io.cairn.server.status.StoreStatus;
import io.cairn.server.status.TableStatus;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.cache.BufferPoolStats;
import io.cairn.store.table.CompactionLog;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cairn's network server: serves the databases under one root (a directory, or memory) to clients
 * speaking the protocol of {@code protocol/src/main/proto/cairn/rpc.proto} over TCP (optionally
 * TLS).
 *
 * <p>Netty event loops do the I/O (one thread accepts, one per core reads and writes); every
 * request's work runs on a bounded pool of worker threads, so that no event loop ever blocks on the
 * store. See {@link ServerConnection} for sessions and backpressure, {@link RequestHandler} for the
 * requests, and docs/server.md.
 *
 * <p>{@link #close()} shuts down gracefully: it stops accepting, tells every client, lets running
 * requests finish (up to the shutdown timeout), closes the connections (their scanners give back
 * what they hold) and closes every store, which flushes its memstores.
 */
public final class CairnServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CairnServer.class);

  /** A connection stops reading past this many unsent answer bytes, and resumes below the low. */
  static final int WRITE_BUFFER_HIGH = 1 << 20;

  static final int WRITE_BUFFER_LOW = 512 << 10;

  private final ServerConfig config;
  private final ServerContext context;
  private final EventLoopGroup acceptors;
  private final EventLoopGroup io;
  private final ScheduledExecutorService timer;
  private final Logins logins;
  private final Channel serverChannel;
  private final InetSocketAddress address;
  private final boolean tls;
  private volatile StatusServer statusServer;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closed = new CountDownLatch(1);

  private CairnServer(
      ServerConfig config,
      ServerContext context,
      EventLoopGroup acceptors,
      EventLoopGroup io,
      ScheduledExecutorService timer,
      Logins logins,
      Channel serverChannel,
      boolean tls) {
    this.config = config;
    this.tls = tls;
    this.context = context;
    this.acceptors = acceptors;
    this.io = io;
    this.timer = timer;
    this.logins = logins;
    this.serverChannel = serverChannel;
    this.address = (InetSocketAddress) serverChannel.localAddress();
  }

  /**
   * Starts a server with {@code config}: opens the default database, binds, and returns once it
   * accepts connections.
   *
   * @throws CairnException when the data directory cannot be opened (NOT_A_STORE, STORE_IN_USE,
   *     ...) or the address cannot be bound (IO_ERROR)
   */
  public static CairnServer start(ServerConfig config) {
    Users users = Users.fromProperties(config.users());
    Authenticator authenticator = users.isEmpty() ? Authenticator.NONE : authenticator(users);
    SslContext ssl =
        config.tls()
            ? TlsSupport.server(
                config.tlsCertificate().orElseThrow(),
                config.tlsKey().orElseThrow(),
                config.tlsKeyPassword().orElse(null))
            : null;
    return start(config, authenticator, ssl);
  }

  /** Checks Hellos against the configured users' password hashes. */
  static Authenticator authenticator(Users users) {
    return new Authenticator() {
      @Override
      public boolean required() {
        return true;
      }

      @Override
      public boolean authenticate(String user, char[] password) {
        return users.authenticate(user, password);
      }
    };
  }

  /**
   * Starts a server that checks Hellos with {@code authenticator} and speaks TLS when {@code
   * sslContext} is not null.
   */
  public static CairnServer start(
      ServerConfig config, Authenticator authenticator, SslContext sslContext) {
    return start(config, authenticator, sslContext, Databases.StoreOpener.EMBEDDED);
  }

  /**
   * As {@link #start(ServerConfig, Authenticator, SslContext)}, with stores from {@code opener}.
   */
  static CairnServer start(
      ServerConfig config,
      Authenticator authenticator,
      SslContext sslContext,
      Databases.StoreOpener opener) {
    requireNonNull(config, "config is null");
    requireNonNull(authenticator, "authenticator is null");
    long instanceId = new SecureRandom().nextLong();
    Databases databases =
        new Databases(
            config.data(), config.storeSettings(), opener, instanceId, config.databasePolicy());
    ThreadPoolExecutor workers = null;
    EventLoopGroup acceptors = null;
    EventLoopGroup io = null;
    ScheduledExecutorService timer = null;
    Logins logins = null;
    try {
      databases.openDefault(); // a bad data directory fails the start
      workers =
          new ThreadPoolExecutor(
              config.workerThreads(),
              config.workerThreads(),
              60,
              TimeUnit.SECONDS,
              new ArrayBlockingQueue<>(config.queueSize()),
              daemonThreads("cairn-rpc-worker", WORKER_STACK_BYTES));
      workers.allowCoreThreadTimeOut(true);
      ServerMetrics metrics = new ServerMetrics();
      QueryMemory queryMemory = new QueryMemory(config.queryMemory());
      HashCacheMemory hashCacheMemory =
          new HashCacheMemory(config.hashCacheMaxBytes(), queryMemory.server());
      metrics.bind(workers, hashCacheMemory::used);
      metrics.bindQueryMemory(queryMemory::used);
      ServerContext context =
          new ServerContext(
              config,
              databases,
              workers,
              metrics,
              authenticator,
              hashCacheMemory,
              queryMemory,
              version());
      RequestHandler handler = new RequestHandler(context);
      ResponseEncoder encoder = new ResponseEncoder(metrics);
      ConnectionConfig limits = config.connections();
      Logins checks = new Logins(authenticator, limits, metrics);
      logins = checks;
      ConnectionAdmission admission = new ConnectionAdmission(limits, metrics);
      metrics.bindAdmission(admission::open, admission::unauthenticated, checks::queued);
      acceptors = new NioEventLoopGroup(1, new DefaultThreadFactory("cairn-rpc-accept", true));
      io =
          new NioEventLoopGroup(
              Runtime.getRuntime().availableProcessors(),
              new DefaultThreadFactory("cairn-rpc-io", true));
      ServerBootstrap bootstrap =
          new ServerBootstrap()
              .group(acceptors, io)
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.SO_BACKLOG, 1024)
              .handler(new AcceptBackoff(metrics))
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childOption(ChannelOption.SO_KEEPALIVE, true)
              .childOption(
                  ChannelOption.WRITE_BUFFER_WATER_MARK,
                  new WriteBufferWaterMark(WRITE_BUFFER_LOW, WRITE_BUFFER_HIGH))
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ConnectionAdmission.Ticket ticket;
                      try {
                        ticket = admission.admit(ch);
                      } catch (CairnException refusal) {
                        admission.refuse(ch, refusal, sslContext != null, encoder);
                        return;
                      }
                      ChannelPipeline p = ch.pipeline();
                      if (sslContext != null) {
                        p.addLast("tls", sslContext.newHandler(ch.alloc()));
                      }
                      FrameDecoder frames =
                          new FrameDecoder(config.maxFrameBytes(), limits.preLoginMaxFrameBytes());
                      p.addLast("frames", frames);
                      p.addLast("requests", new RequestDecoder(metrics));
                      p.addLast("responses", encoder);
                      p.addLast(
                          "connection",
                          new ServerConnection(context, handler, checks, ticket, frames));
                    }
                  });
      ChannelFuture bound = bootstrap.bind(config.host(), config.port()).awaitUninterruptibly();
      if (!bound.isSuccess()) {
        throw new CairnException(
            ErrorCode.IO_ERROR,
            "Cannot listen on ["
                + config.host()
                + ":"
                + config.port()
                + "]: "
                + bound.cause().getMessage(),
            bound.cause());
      }
      timer = Executors.newSingleThreadScheduledExecutor(daemonThreads("cairn-rpc-timer"));
      CairnServer server =
          new CairnServer(
              config, context, acceptors, io, timer, checks, bound.channel(), sslContext != null);
      long idle = config.scannerIdleTimeout().toNanos();
      long period =
          Math.max(
              TimeUnit.MILLISECONDS.toNanos(10), Math.min(idle / 2, TimeUnit.SECONDS.toNanos(10)));
      Future<?> unused =
          timer.scheduleWithFixedDelay(
              server::expireScanners, period, period, TimeUnit.NANOSECONDS);
      scheduleIdleDatabases(timer, databases, config.databasePolicy());
      long connectionPeriod = expiryPeriodNanos(limits);
      Future<?> unusedConnections =
          timer.scheduleWithFixedDelay(
              server::expireConnections, connectionPeriod, connectionPeriod, TimeUnit.NANOSECONDS);
      Future<?> unusedLogins =
          timer.scheduleWithFixedDelay(
              checks::logFailures,
              Logins.LOG_PERIOD.toNanos(),
              Logins.LOG_PERIOD.toNanos(),
              TimeUnit.NANOSECONDS);
      metrics.register(server.port());
      if (config.httpPort() >= 0) {
        try {
          server.statusServer =
              StatusServer.start(
                  new InetSocketAddress(config.httpHost(), config.httpPort()),
                  server::status,
                  authenticator.required()
                      ? StatusAccess.users(
                          authenticator::authenticate, config.databasePolicy().admins())
                      : StatusAccess.open(),
                  statusTls(sslContext));
        } catch (RuntimeException e) {
          try {
            server.close();
          } catch (RuntimeException suppressed) {
            e.addSuppressed(suppressed);
          }
          throw e;
        }
      }
      LOG.info(
          "Cairn server {} listening on {}:{} ({}; TLS {}; authentication {}; {} worker threads)",
          context.serverVersion(),
          server.address.getHostString(),
          server.port(),
          config.data().map(d -> "databases in " + d).orElse("databases in memory"),
          sslContext != null ? "on" : "off",
          authenticator.required() ? "on" : "off",
          config.workerThreads());
      long descriptors = ConnectionConfig.fileDescriptorLimit();
      LOG.info(
          "Admission: {} connections at most ({} per address, {} not logged in; file descriptor"
              + " limit {}), handshake-timeout {}, idle-timeout {}, {} login thread(s)",
          limits.maxConnections(),
          limits.maxConnectionsPerAddress(),
          limits.maxUnauthenticatedConnections(),
          descriptors < 0 ? "unknown" : descriptors,
          limits.handshakeTimeout(),
          limits.idleTimeout().isZero() ? "off" : limits.idleTimeout(),
          limits.loginThreads());
      if (descriptors > 0 && limits.maxConnections() > descriptors / 2) {
        LOG.warn(
            "{} [{}] is more than half the file descriptor limit [{}]: connections may exhaust the"
                + " descriptors the stores need (raise ulimit -n)",
            ConnectionConfig.MAX_CONNECTIONS,
            limits.maxConnections(),
            descriptors);
      }
      return server;
    } catch (RuntimeException e) {
      if (timer != null) {
        timer.shutdownNow();
      }
      if (acceptors != null) {
        acceptors.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      }
      if (io != null) {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      }
      if (workers != null) {
        workers.shutdownNow();
      }
      if (logins != null) {
        logins.close();
      }
      try {
        databases.close();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Closes idle databases every half idle timeout (at most every 10 s), unless it is zero. */
  private static void scheduleIdleDatabases(
      ScheduledExecutorService timer, Databases databases, DatabasePolicy policy) {
    long idle = policy.idleTimeout().toNanos();
    if (idle <= 0) {
      return;
    }
    long period =
        Math.max(
            TimeUnit.MILLISECONDS.toNanos(10), Math.min(idle / 2, TimeUnit.SECONDS.toNanos(10)));
    Future<?> unused =
        timer.scheduleWithFixedDelay(
            () -> {
              try {
                databases.closeIdle();
              } catch (RuntimeException e) {
                LOG.warn("Closing idle databases failed", e);
              }
            },
            period,
            period,
            TimeUnit.NANOSECONDS);
  }

  /** The status page's TLS: the network server's certificate and key, when its TLS is on. */
  private static javax.net.ssl.SSLContext statusTls(SslContext sslContext) {
    if (sslContext == null) {
      return null;
    }
    if (sslContext instanceof JdkSslContext jdk) {
      return jdk.context();
    }
    throw new CairnException(
        ErrorCode.INVALID_ARGUMENT,
        "The status page needs a JDK TLS context, found ["
            + sslContext.getClass().getSimpleName()
            + "]: turn the status page off (http.port=-1)");
  }

  /** The server's version (Cairn's), or "unknown" when run from unbuilt sources. */
  public static String version() {
    try (InputStream in = CairnServer.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        Properties properties = new Properties();
        try (Reader reader = new InputStreamReader(in, UTF_8)) {
          properties.load(reader);
        }
        String version = properties.getProperty("version", "");
        if (!version.isEmpty() && !version.startsWith("${")) {
          return version;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the server's version.properties", e);
    }
    return "unknown";
  }

  /**
   * The stack of a worker thread: scan programs compile and evaluate expressions recursively, up to
   * {@link io.cairn.protocol.wire.WirePrograms#MAX_EXPR_DEPTH} levels, whose frames (larger while
   * the code is still interpreted) can pass a default 1 MiB stack. Address space only: the pages a
   * thread never touches are never committed.
   */
  static final long WORKER_STACK_BYTES = 64L << 20;

  private static ThreadFactory daemonThreads(String prefix) {
    return daemonThreads(prefix, 0);
  }

  private static ThreadFactory daemonThreads(String prefix, long stackBytes) {
    AtomicInteger counter = new AtomicInteger();
    return r -> {
      Thread t = new Thread(null, r, prefix + "-" + counter.incrementAndGet(), stackBytes);
      t.setDaemon(true);
      return t;
    };
  }

  /** The address the server listens on. */
  public InetSocketAddress address() {
    return address;
  }

  /** The port the server listens on (the one chosen when the configuration said 0). */
  public int port() {
    return address.getPort();
  }

  public ServerConfig config() {
    return config;
  }

  /** Where database {@code name} lives (empty: the default one), or empty when in memory. */
  public java.util.Optional<Path> databaseDirectory(String name) {
    return context.databases().directory(name);
  }

  ServerContext context() {
    return context;
  }

  /** The status page's address, or empty when it is off ({@code http.port=-1}). */
  public java.util.Optional<InetSocketAddress> statusAddress() {
    StatusServer s = statusServer;
    return s == null ? java.util.Optional.empty() : java.util.Optional.of(s.address());
  }

  /** A snapshot for the status page. */
  ServerStatus status() {
    Instant now = Instant.now();
    ServerInfo info =
        ServerInfo.of(
            context.serverVersion(),
            context.startTime(),
            now,
            address.getHostString() + ":" + port(),
            tls,
            context.authenticator().required());
    List<ClientInfo> clients = new ArrayList<>();
    for (ServerConnection c : context.connections()) {
      SocketAddress remote = c.remoteAddress();
      clients.add(
          new ClientInfo(
              remote == null ? "?" : remote.toString(),
              c.user(),
              c.sessionId(),
              Instant.ofEpochMilli(c.openedAtMillis()),
              c.answered(),
              c.openScanners(),
              c.openSnapshots(),
              c.bytesIn(),
              c.bytesOut()));
    }
    clients.sort(Comparator.comparingLong(ClientInfo::sessionId));
    return new ServerStatus(now, info, storeStatus(), clients, context.slowRequests().recent());
  }

  /**
   * The stores' part of the page: the default database's store, with the tables, memstores and
   * compactions of the named databases added under "NAME:" (their block caches are their own and
   * not shown).
   */
  private StoreStatus storeStatus() {
    List<ServedDatabase> databases = new ArrayList<>(context.databases().all());
    databases.sort(Comparator.comparing(ServedDatabase::name));
    StoreStatus base = null;
    List<TableStatus> tables = new ArrayList<>();
    List<CompactionLog.Compaction> running = new ArrayList<>();
    List<CompactionLog.Compaction> recent = new ArrayList<>();
    long memstoreBytes = 0;
    int named = 0;
    for (ServedDatabase db : databases) {
      if (!(db.store() instanceof EmbeddedStore store) || !db.tryAcquire()) {
        continue; // closing (idle): not shown
      }
      StoreStatus s;
      Map<String, String> sqlNames = new HashMap<>();
      try {
        s = StoreStatus.collect(store);
        for (TableDescriptor d : db.catalog().tables()) {
          sqlNames.put(d.kvTableName(), d.qualifiedName());
        }
      } finally {
        db.endPeek();
      }
      String prefix = db.name().isEmpty() ? "" : db.name() + ":";
      if (db.name().isEmpty()) {
        base = s;
      } else {
        named++;
      }
      for (TableStatus t : s.tables()) {
        String sqlName = sqlNames.get(t.name());
        String shown = sqlName == null ? t.name() : sqlName + " (" + t.name() + ")";
        tables.add(new TableStatus(prefix + shown, t.regions()));
      }
      for (CompactionLog.Compaction c : s.runningCompactions()) {
        running.add(renamed(c, prefix));
      }
      for (CompactionLog.Compaction c : s.recentCompactions()) {
        recent.add(renamed(c, prefix));
      }
      memstoreBytes += s.memstores().bytes();
    }
    String root = config.data().map(Path::toString).orElse("in memory");
    if (base == null) {
      return new StoreStatus(
          root,
          !config.inMemory(),
          tables,
          new MemstoreStatus(memstoreBytes, 0, 0),
          new BlockCacheStatus(List.of(), new BufferPoolStats(0, 0, 0, 0, 0, 0), 0),
          running,
          recent);
    }
    running.sort(Comparator.comparing(CompactionLog.Compaction::startTime));
    recent.sort(Comparator.comparing(CompactionLog.Compaction::startTime).reversed());
    return new StoreStatus(
        root + (named == 0 ? "" : " (and " + named + " named databases, tables as NAME:TABLE)"),
        base.durable(),
        tables,
        new MemstoreStatus(
            memstoreBytes, base.memstores().globalLimitBytes(), base.memstores().flushSizeBytes()),
        base.blockCache(),
        running,
        recent);
  }

  private static CompactionLog.Compaction renamed(CompactionLog.Compaction c, String prefix) {
    if (prefix.isEmpty()) {
      return c;
    }
    return new CompactionLog.Compaction(
        prefix + c.table(),
        c.regionId(),
        c.major(),
        c.startTime(),
        c.filesIn(),
        c.bytesIn(),
        c.bytesOut(),
        c.duration(),
        c.outcome());
  }

  /**
   * How often connections are checked for the idle and frame read timeouts: a quarter of the
   * shorter, from 50 ms to 5 s.
   */
  private static long expiryPeriodNanos(ConnectionConfig limits) {
    long shortest = limits.frameReadTimeout().toNanos();
    if (!limits.idleTimeout().isZero()) {
      shortest = Math.min(shortest, limits.idleTimeout().toNanos());
    }
    return Math.max(
        TimeUnit.MILLISECONDS.toNanos(50), Math.min(shortest / 4, TimeUnit.SECONDS.toNanos(5)));
  }

  private void expireConnections() {
    try {
      long now = System.nanoTime();
      for (ServerConnection c : context.connections()) {
        c.expireIdle(now);
      }
    } catch (RuntimeException e) {
      LOG.warn("Expiring idle connections failed", e);
    }
  }

  private void expireScanners() {
    try {
      long now = System.nanoTime();
      long timeout = config.scannerIdleTimeout().toNanos();
      for (ServerConnection c : context.connections()) {
        c.expireScanners(now, timeout);
        c.expireSnapshots(now);
      }
    } catch (RuntimeException e) {
      LOG.warn("Expiring idle scanners failed", e);
    }
  }

  /** Waits until the server has been closed (by {@link #close()}, from another thread). */
  public void awaitClosed() throws InterruptedException {
    closed.await();
  }

  /**
   * Shuts down gracefully (see the class comment); returns once every store is closed. Idempotent;
   * a second caller waits for the first.
   */
  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      try {
        closed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    long started = System.nanoTime();
    LOG.info("Cairn server on port {} shutting down", port());
    RuntimeException failure = null;
    try {
      context.startShutdown();
      serverChannel.close().awaitUninterruptibly();
      StatusServer status = statusServer;
      if (status != null) {
        status.close();
      }
      List<ServerConnection> connections = List.copyOf(context.connections());
      for (ServerConnection c : connections) {
        c.pushShuttingDown();
      }
      ThreadPoolExecutor workers = context.workers();
      workers.shutdown();
      if (!awaitTermination(workers, config.shutdownTimeout().toNanos())) {
        LOG.warn(
            "Requests still running after {} ({}): cancelling them",
            config.shutdownTimeout(),
            ServerConfig.SHUTDOWN_TIMEOUT);
        for (ServerConnection c : context.connections()) {
          c.cancelAll();
        }
        workers.shutdownNow();
        if (!awaitTermination(workers, TimeUnit.SECONDS.toNanos(10))) {
          LOG.warn("Worker threads still running 10 s after they were cancelled");
        }
      }
      timer.shutdownNow();
      logins.close();
      for (ServerConnection c : context.connections()) {
        c.close();
      }
      acceptors.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
      // closes every connection left (after the answers already queued on its event loop)
      io.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      try {
        context.databases().close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
      context.metrics().unregister();
      LOG.info(
          "Cairn server on port {} stopped in {} ms",
          port(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      closed.countDown();
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static boolean awaitTermination(ThreadPoolExecutor pool, long nanos) {
    try {
      return pool.awaitTermination(nanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return pool.isTerminated();
    }
  }
}
