package io.cairn.jdbc.internal.remote;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.DriverInfo;
import io.cairn.protocol.CatalogVersion;
import io.cairn.protocol.Hello;
import io.cairn.protocol.HelloOk;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection to one server that the JDBC connections of a {@link RemoteDatabase} share: one
 * network connection ({@link RpcChannel}) at a time, opened on first use with a Hello. When it
 * breaks, the requests in flight fail with CONNECTION_LOST and the next request opens a new one (a
 * new Hello), so a server restart costs at most the statements that were running.
 *
 * <p>It also follows the server's catalog version, which every response and the catalog_changed
 * event carry, together with the generation of the network connection that brought it: a {@link
 * RemoteCatalog} loaded under another (generation, instance, version) is stale.
 */
final class RpcConnection implements RpcChannel.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(RpcConnection.class);

  /** The protocol version this client speaks (rpc.proto). */
  static final int PROTOCOL_VERSION = 1;

  static final String CLIENT_NAME = "cairn-jdbc " + DriverInfo.VERSION;

  /** The server's catalog as last reported on the connection of {@code generation}. */
  record ServerCatalog(long generation, long instance, long version) {}

  private final RemoteConfig config;
  private final int protocolVersion;
  private final RpcTls tls;
  private final Object lock = new Object();
  private CompletableFuture<RpcChannel> current;
  private long generations;
  private boolean closed;
  private final AtomicReference<ServerCatalog> catalog = new AtomicReference<>();

  RpcConnection(RemoteConfig config) {
    this(config, PROTOCOL_VERSION);
  }

  /** A connection that announces {@code protocolVersion}; tests use other versions. */
  RpcConnection(RemoteConfig config, int protocolVersion) {
    this.config = requireNonNull(config, "config is null");
    this.protocolVersion = protocolVersion;
    this.tls = config.tls() ? RpcTls.client(config) : null;
  }

  RemoteConfig config() {
    return config;
  }

  /** {@code host:port}, as messages name the server. */
  String server() {
    return config.server();
  }

  /** The server's catalog version as last reported; null before the first connection. */
  ServerCatalog serverCatalog() {
    return catalog.get();
  }

  /**
   * The network connection, connected and handshaken: the current one when it is usable, otherwise
   * a new one (the one being opened, when another request already started it).
   */
  CompletableFuture<RpcChannel> channel() {
    synchronized (lock) {
      if (closed) {
        return CompletableFuture.failedFuture(
            new CairnException(
                ErrorCode.CONNECTION_CLOSED,
                "The connection to the Cairn server at " + server() + " is closed"));
      }
      if (current != null) {
        if (!current.isDone()) {
          return current;
        }
        RpcChannel c = connected(current);
        if (c != null && c.isUsable()) {
          return current;
        }
        if (c != null && c.inFlight() == 0) {
          c.close(); // a server going away: its last answers are in
        }
      }
      current = connect(++generations);
      return current;
    }
  }

  /** {@link #channel()}, waiting for it in this thread. */
  RpcChannel awaitChannel() {
    return Rpc.await(channel());
  }

  /** Whether the current network connection is up (false before the first and after a break). */
  boolean isConnected() {
    synchronized (lock) {
      RpcChannel c = connected(current);
      return c != null && c.isUsable();
    }
  }

  /** The channel of a connection attempt that succeeded; null while connecting or after failing. */
  private static RpcChannel connected(CompletableFuture<RpcChannel> attempt) {
    if (attempt == null || !attempt.isDone() || attempt.isCompletedExceptionally()) {
      return null;
    }
    return attempt.join();
  }

  /**
   * Sends a request on the current network connection (opening one if needed) and returns the
   * future of its answer, which fails with the server's error, REQUEST_TIMEOUT or CONNECTION_LOST.
   */
  CompletableFuture<Response> call(Request.Builder request, String description) {
    return channel()
        .thenCompose(c -> c.send(request, description, config.requestTimeout()).future());
  }

  /** {@link #call}, waiting for the answer in this thread. */
  Response callAndWait(Request.Builder request, String description) {
    return Rpc.await(call(request, description));
  }

  /**
   * {@link #callAndWait(Request.Builder, String)} of a request whose progress the server reports:
   * each report goes to {@code progress} (on the connection's event loop: it must not block) and
   * restarts the request timeout.
   */
  Response callAndWait(Request.Builder request, String description, LongConsumer progress) {
    return Rpc.await(
        channel()
            .thenCompose(
                c -> c.send(request, description, config.requestTimeout(), progress).future()));
  }

  /** Whether the server answers a Ping within {@code timeout}. */
  boolean ping(Duration timeout) {
    try {
      RpcChannel c = awaitChannel();
      Rpc.await(
          c.send(Request.newBuilder().setPing(Ping.getDefaultInstance()), "Ping", timeout)
              .future());
      return true;
    } catch (CairnException e) {
      LOG.debug("Ping of {} failed: {}", server(), e.getMessage());
      return false;
    }
  }

  /** Closes the network connection; later calls fail with CONNECTION_CLOSED. */
  void close() {
    CompletableFuture<RpcChannel> last;
    synchronized (lock) {
      closed = true;
      last = current;
      current = null;
    }
    if (last != null) {
      last.whenComplete(
          (c, error) -> {
            if (c != null) {
              c.close();
            }
          });
    }
  }

  // --- connecting ------------------------------------------------------------------------------

  private CompletableFuture<RpcChannel> connect(long generation) {
    CompletableFuture<RpcChannel> result = new CompletableFuture<>();
    RpcChannel rpc = new RpcChannel(server(), generation, this);
    String host = config.address().host();
    int port = config.address().port();
    Bootstrap bootstrap =
        new Bootstrap()
            .group(RpcEventLoop.group())
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                      ch.pipeline().addLast("tls", tls.handler(ch.alloc(), host, port));
                    }
                    ch.pipeline()
                        .addLast("frames", RpcFrames.frameDecoder())
                        .addLast("requests", new RpcFrames.RequestEncoder())
                        .addLast("rpc", rpc);
                  }
                });
    ChannelFuture connecting;
    try {
      connecting = bootstrap.connect(host, port);
    } catch (RuntimeException e) {
      result.completeExceptionally(connectFailed(e));
      return result;
    }
    connecting.addListener(
        (ChannelFuture f) -> {
          if (!f.isSuccess()) {
            result.completeExceptionally(connectFailed(f.cause()));
            return;
          }
          Hello.Builder hello =
              Hello.newBuilder()
                  .setProtocolVersion(protocolVersion)
                  .setClientName(CLIENT_NAME)
                  .setDatabase(config.address().database())
                  .setUser(config.user())
                  .setPassword(config.password());
          rpc.send(Request.newBuilder().setHello(hello), "Hello", config.connectTimeout())
              .future()
              .whenComplete(
                  (response, error) -> {
                    CairnException failure =
                        error != null ? handshakeFailed(error, rpc) : checkHello(response);
                    if (failure != null) {
                      rpc.close();
                      result.completeExceptionally(failure);
                    } else {
                      rpc.handshakeDone(response.getHelloOk());
                      LOG.debug(
                          "Connected to {} ({}), session {}",
                          server(),
                          response.getHelloOk().getServerVersion(),
                          response.getHelloOk().getSessionId());
                      result.complete(rpc);
                    }
                  });
        });
    return result;
  }

  private int connectTimeoutMillis() {
    return (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis());
  }

  private CairnException checkHello(Response response) {
    if (!response.hasHelloOk()) {
      return new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "Cannot connect to the Cairn server at "
              + server()
              + ": expected HelloOk in answer to Hello, found ["
              + response.getBodyCase()
              + "]");
    }
    HelloOk ok = response.getHelloOk();
    if (ok.getProtocolVersion() != protocolVersion) {
      return new CairnException(
          ErrorCode.PROTOCOL_VERSION_MISMATCH,
          "The Cairn server at "
              + server()
              + " answered with protocol version ["
              + ok.getProtocolVersion()
              + "]; this client speaks version ["
              + protocolVersion
              + "]");
    }
    return null;
  }

  private CairnException connectFailed(Throwable t) {
    String reason;
    if (t instanceof ConnectTimeoutException) {
      reason =
          "no connection within ["
              + connectTimeoutMillis()
              + "] ms (connection property connectTimeout)";
    } else if (t instanceof ConnectException && t.getMessage() != null) {
      // Netty appends the address ("Connection refused: /127.0.0.1:1"); the message names it
      String m = t.getMessage();
      int colon = m.indexOf(": ");
      reason = colon < 0 ? m : m.substring(0, colon);
    } else if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
      reason = "unknown host [" + config.address().host() + "]";
    } else {
      reason = t.getMessage() == null ? t.toString() : t.getMessage();
    }
    return new CairnException(
        ErrorCode.CONNECTION_FAILED,
        "Cannot connect to the Cairn server at " + server() + ": " + reason,
        t);
  }

  /** The Hello failed: the server refused it, did not answer, or closed the connection. */
  private CairnException handshakeFailed(Throwable error, RpcChannel rpc) {
    Throwable t = error;
    while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    if (!(t instanceof CairnException e)) {
      return connectFailed(t);
    }
    return switch (e.errorCode()) {
      case PROTOCOL_VERSION_MISMATCH ->
          new CairnException(
              ErrorCode.PROTOCOL_VERSION_MISMATCH,
              "The Cairn server at "
                  + server()
                  + " does not speak this client's protocol version ["
                  + protocolVersion
                  + "]: "
                  + e.getMessage(),
              e);
      case AUTHENTICATION_FAILED, AUTHENTICATION_REQUIRED ->
          new CairnException(
              e.errorCode(),
              "Cannot connect to the Cairn server at " + server() + ": " + e.getMessage(),
              e);
      case REQUEST_TIMEOUT ->
          new CairnException(
              ErrorCode.CONNECTION_FAILED,
              "Cannot connect to the Cairn server at "
                  + server()
                  + ": no answer to the handshake within ["
                  + config.connectTimeout().toMillis()
                  + "] ms (connection property connectTimeout)",
              e);
      case CONNECTION_LOST ->
          new CairnException(
              ErrorCode.CONNECTION_FAILED,
              "Cannot connect to the Cairn server at "
                  + server()
                  + ": the connection closed during the handshake ("
                  + rpc.closeReason()
                  + (tls == null
                      ? "; if the server requires TLS, connect with connection property tls=true"
                      : "")
                  + ")",
              e);
      default ->
          new CairnException(
              e.errorCode(),
              "Cannot connect to the Cairn server at " + server() + ": " + e.getMessage(),
              e);
    };
  }

  // --- RpcChannel.Listener ---------------------------------------------------------------------

  @Override
  public void catalogVersion(RpcChannel channel, CatalogVersion version) {
    ServerCatalog reported =
        new ServerCatalog(channel.generation(), version.getInstance(), version.getVersion());
    catalog.updateAndGet(
        old -> {
          if (old == null || old.generation() < reported.generation()) {
            return reported;
          }
          if (old.generation() > reported.generation()) {
            return old; // a late answer on a connection that has since been replaced
          }
          if (old.instance() != reported.instance()) {
            return reported;
          }
          return reported.version() > old.version() ? reported : old;
        });
  }

  @Override
  public void shuttingDown(RpcChannel channel) {
    LOG.info("The Cairn server at {} is shutting down", server());
  }

  @Override
  public void closed(RpcChannel channel) {
    LOG.debug(
        "Connection {} to {} closed: {}", channel.generation(), server(), channel.closeReason());
  }

  @Override
  public String toString() {
    return "RpcConnection[" + config + "]";
  }
}
