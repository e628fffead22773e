package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Response;
import io.cairn.protocol.wire.WireMessages;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the server's connections as they are accepted and closed, and refuses one past {@code
 * max-connections} or {@code max-connections-per-address} with a SERVER_BUSY frame naming the limit
 * (without TLS; with TLS it is closed at once), before any of its bytes is read; past {@code
 * max-unauthenticated-connections} it closes the oldest connection that has not sent its Hello.
 * Existing connections are unaffected. Refusals are logged at most once per {@value
 * #LOG_PERIOD_SECONDS} s, with their count. Thread-safe.
 */
final class ConnectionAdmission {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionAdmission.class);

  static final int LOG_PERIOD_SECONDS = 10;

  /** How long a refused connection may take to receive its error frame. */
  private static final long REFUSAL_GRACE_MILLIS = 1000;

  private final ConnectionConfig config;
  private final ServerMetrics metrics;
  private final AtomicLong refusedSinceLog = new AtomicLong();
  private final AtomicLong lastLogNanos = new AtomicLong(System.nanoTime() - logPeriodNanos());

  // guarded by this
  private int open;
  private int unauthenticated;
  private int evicting;
  private final Map<InetAddress, Integer> perAddress = new HashMap<>();

  /** Connections that have sent no Hello yet, oldest first: those a new one may evict. */
  private final LinkedHashSet<Ticket> awaitingHello = new LinkedHashSet<>();

  ConnectionAdmission(ConnectionConfig config, ServerMetrics metrics) {
    this.config = requireNonNull(config, "config is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
  }

  /** Connections counted now. */
  synchronized int open() {
    return open;
  }

  /** Connections counted now that have not authenticated. */
  synchronized int unauthenticated() {
    return unauthenticated;
  }

  /**
   * Counts {@code channel}, released when it closes. When {@code max-unauthenticated-connections}
   * are waiting to log in, the oldest of them that has sent no Hello yet is closed to make room (it
   * gets the event {@link #EVICT}): idle sockets cannot keep the clients that do log in out, short
   * of opening connections faster than those log in.
   *
   * @throws CairnException SERVER_BUSY naming the limit and its setting, when it is over one (then
   *     nothing is counted)
   */
  Ticket admit(Channel channel) {
    InetAddress address = addressOf(channel.remoteAddress());
    Ticket evicted = null;
    Ticket ticket;
    synchronized (this) {
      if (open >= config.maxConnections()) {
        throw busy(
            "["
                + open
                + "] connections are open, the most "
                + ConnectionConfig.MAX_CONNECTIONS
                + " ["
                + config.maxConnections()
                + "] allows");
      }
      int fromAddress = address == null ? 0 : perAddress.getOrDefault(address, 0);
      if (address != null && fromAddress >= config.maxConnectionsPerAddress()) {
        throw busy(
            "["
                + fromAddress
                + "] connections from ["
                + address.getHostAddress()
                + "] are open, the most "
                + ConnectionConfig.MAX_CONNECTIONS_PER_ADDRESS
                + " ["
                + config.maxConnectionsPerAddress()
                + "] allows");
      }
      if (unauthenticated - evicting >= config.maxUnauthenticatedConnections()) {
        evicted = oldestAwaitingHello(address);
        if (evicted == null) {
          throw busy(
              "["
                  + unauthenticated
                  + "] connections are logging in, the most "
                  + ConnectionConfig.MAX_UNAUTHENTICATED_CONNECTIONS
                  + " ["
                  + config.maxUnauthenticatedConnections()
                  + "] allows");
        }
        awaitingHello.remove(evicted);
        evicted.evictPending = true;
        evicting++;
      }
      open++;
      unauthenticated++;
      if (address != null) {
        perAddress.merge(address, 1, Integer::sum);
      }
      ticket = new Ticket(channel, address);
      awaitingHello.add(ticket);
    }
    channel.closeFuture().addListener(f -> ticket.release());
    if (evicted != null) {
      metrics.connectionEvicted();
      evicted.channel.pipeline().fireUserEventTriggered(EVICT);
    }
    return ticket;
  }

  /**
   * The connection to evict for a new one from {@code address}: the oldest without a Hello from the
   * same address when there is one (so that one address flooding connections evicts its own), else
   * the oldest without a Hello; null when every connection not logged in has sent its Hello.
   */
  private Ticket oldestAwaitingHello(InetAddress address) {
    Ticket oldest = null;
    for (Ticket t : awaitingHello) {
      if (oldest == null) {
        oldest = t;
      }
      if (address != null && address.equals(t.address)) {
        return t;
      }
    }
    return oldest;
  }

  /** The event that tells a connection waiting for its Hello to close: room is needed. */
  static final Object EVICT = new Object();

  private static InetAddress addressOf(SocketAddress remote) {
    return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }

  private static CairnException busy(String what) {
    return new CairnException(
        ErrorCode.SERVER_BUSY, "The server is busy: " + what + "; retry later");
  }

  /**
   * Refuses {@code channel} (on its event loop, before anything is read): a SERVER_BUSY frame with
   * {@code refusal}'s message when {@code tls} is off, then the close.
   */
  void refuse(Channel channel, CairnException refusal, boolean tls, ResponseEncoder encoder) {
    metrics.connectionRefused();
    logRefusal(channel, refusal);
    channel.config().setAutoRead(false);
    if (tls) {
      channel.close();
      return;
    }
    Response answer =
        Response.newBuilder().setId(0).setError(WireMessages.toProto(refusal)).build();
    channel.pipeline().addLast("responses", encoder);
    channel
        .pipeline()
        .addLast(
            "refused",
            new ChannelInboundHandlerAdapter() {
              @Override
              public void channelActive(ChannelHandlerContext ctx) {
                ctx.channel().writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
                Future<?> unused =
                    ctx.executor()
                        .schedule(
                            () -> ctx.channel().close(),
                            REFUSAL_GRACE_MILLIS,
                            TimeUnit.MILLISECONDS);
              }

              @Override
              public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close();
              }
            });
  }

  private void logRefusal(Channel channel, CairnException refusal) {
    long refused = refusedSinceLog.incrementAndGet();
    long now = System.nanoTime();
    long last = lastLogNanos.get();
    if (now - last >= logPeriodNanos() && lastLogNanos.compareAndSet(last, now)) {
      long count = refusedSinceLog.getAndAdd(-refused);
      LOG.warn(
          "Refused {} connection(s) in the last {} s, the last from {}: {}",
          count,
          LOG_PERIOD_SECONDS,
          channel.remoteAddress(),
          refusal.getMessage());
    }
  }

  private static long logPeriodNanos() {
    return TimeUnit.SECONDS.toNanos(LOG_PERIOD_SECONDS);
  }

  /** One admitted connection's place in the counts. */
  final class Ticket {
    private final Channel channel;
    private final InetAddress address;
    // guarded by the ConnectionAdmission
    private boolean authenticated;
    private boolean released;
    private boolean evictPending;

    private Ticket(Channel channel, InetAddress address) {
      this.channel = channel;
      this.address = address;
    }

    /** A Hello arrived: the connection is no longer one a new one may evict. */
    void helloReceived() {
      synchronized (ConnectionAdmission.this) {
        awaitingHello.remove(this);
      }
    }

    /** The connection has authenticated: it no longer counts against the unauthenticated limit. */
    void authenticated() {
      synchronized (ConnectionAdmission.this) {
        if (authenticated || released) {
          return;
        }
        authenticated = true;
        unauthenticated--;
        settle();
      }
    }

    boolean isAuthenticated() {
      synchronized (ConnectionAdmission.this) {
        return authenticated;
      }
    }

    /** The client's address, or null when the channel has none (not a TCP connection). */
    InetAddress address() {
      return address;
    }

    private void release() {
      synchronized (ConnectionAdmission.this) {
        if (released) {
          return;
        }
        released = true;
        open--;
        if (!authenticated) {
          unauthenticated--;
        }
        if (address != null) {
          perAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
        }
        settle();
      }
    }

    private void settle() {
      awaitingHello.remove(this);
      if (evictPending) {
        evictPending = false;
        evicting--;
      }
    }
  }
}
