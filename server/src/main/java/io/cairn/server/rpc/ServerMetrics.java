package io.cairn.server.rpc;

import java.lang.management.ManagementFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's counters and gauges, registered as {@link ServerMXBean} while the server runs.
 * Registration problems are logged, never fatal.
 */
final class ServerMetrics implements ServerMXBean {
  private static final Logger LOG = LoggerFactory.getLogger(ServerMetrics.class);

  private final AtomicInteger connections = new AtomicInteger();
  private final LongAdder connectionsTotal = new LongAdder();
  private final LongAdder requests = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder slowRequests = new LongAdder();
  private final LongAdder bytesIn = new LongAdder();
  private final LongAdder bytesOut = new LongAdder();
  private final AtomicInteger openScanners = new AtomicInteger();
  private final AtomicInteger openSnapshots = new AtomicInteger();
  private volatile ThreadPoolExecutor pool;
  private volatile LongSupplier hashCacheBytes = () -> 0;
  private volatile LongSupplier queryMemoryBytes = () -> 0;
  // admission: connection limits, timeouts, logins
  private final LongAdder connectionsRefused = new LongAdder();
  private final LongAdder connectionsEvicted = new LongAdder();
  private final LongAdder handshakeTimeouts = new LongAdder();
  private final LongAdder idleTimeouts = new LongAdder();
  private final LongAdder frameReadTimeouts = new LongAdder();
  private final LongAdder acceptFailures = new LongAdder();
  private final LongAdder loginFailures = new LongAdder();
  private final LongAdder loginsThrottled = new LongAdder();
  private final LongAdder loginsBusy = new LongAdder();
  private volatile IntSupplier admitted = () -> 0;
  private volatile IntSupplier unauthenticated = () -> 0;
  private volatile IntSupplier queuedLogins = () -> 0;
  private ObjectName registered;

  void bind(ThreadPoolExecutor pool, LongSupplier hashCacheBytes) {
    this.pool = pool;
    this.hashCacheBytes = hashCacheBytes;
  }

  /** Where {@link #getQueryMemoryBytes} reads from. */
  void bindQueryMemory(LongSupplier queryMemoryBytes) {
    this.queryMemoryBytes = queryMemoryBytes;
  }

  void bindAdmission(IntSupplier admitted, IntSupplier unauthenticated, IntSupplier queuedLogins) {
    this.admitted = admitted;
    this.unauthenticated = unauthenticated;
    this.queuedLogins = queuedLogins;
  }

  @Override
  public int getQueuedLogins() {
    return queuedLogins.getAsInt();
  }

  void connectionRefused() {
    connectionsRefused.increment();
  }

  void connectionEvicted() {
    connectionsEvicted.increment();
  }

  @Override
  public long getConnectionsEvicted() {
    return connectionsEvicted.sum();
  }

  void handshakeTimeout() {
    handshakeTimeouts.increment();
  }

  void idleTimeout() {
    idleTimeouts.increment();
  }

  void frameReadTimeout() {
    frameReadTimeouts.increment();
  }

  void acceptFailed() {
    acceptFailures.increment();
  }

  void loginFailed() {
    loginFailures.increment();
  }

  void loginThrottled() {
    loginsThrottled.increment();
  }

  void loginBusy() {
    loginsBusy.increment();
  }

  @Override
  public long getConnectionsRefused() {
    return connectionsRefused.sum();
  }

  @Override
  public long getHandshakeTimeouts() {
    return handshakeTimeouts.sum();
  }

  @Override
  public long getIdleTimeouts() {
    return idleTimeouts.sum();
  }

  @Override
  public long getFrameReadTimeouts() {
    return frameReadTimeouts.sum();
  }

  @Override
  public long getAcceptFailures() {
    return acceptFailures.sum();
  }

  @Override
  public long getLoginFailures() {
    return loginFailures.sum();
  }

  @Override
  public long getLoginsThrottled() {
    return loginsThrottled.sum();
  }

  @Override
  public long getLoginsBusy() {
    return loginsBusy.sum();
  }

  @Override
  public int getAdmittedConnections() {
    return admitted.getAsInt();
  }

  @Override
  public int getUnauthenticatedConnections() {
    return unauthenticated.getAsInt();
  }

  void connectionOpened() {
    connections.incrementAndGet();
    connectionsTotal.increment();
  }

  void connectionClosed() {
    connections.decrementAndGet();
  }

  void request() {
    requests.increment();
  }

  void error() {
    errors.increment();
  }

  void slowRequest() {
    slowRequests.increment();
  }

  void bytesIn(long n) {
    bytesIn.add(n);
  }

  void bytesOut(long n) {
    bytesOut.add(n);
  }

  void scannerOpened() {
    openScanners.incrementAndGet();
  }

  void scannerClosed() {
    openScanners.decrementAndGet();
  }

  void snapshotOpened() {
    openSnapshots.incrementAndGet();
  }

  void snapshotClosed() {
    openSnapshots.decrementAndGet();
  }

  @Override
  public int getConnections() {
    return connections.get();
  }

  @Override
  public long getConnectionsTotal() {
    return connectionsTotal.sum();
  }

  @Override
  public long getRequests() {
    return requests.sum();
  }

  @Override
  public long getErrors() {
    return errors.sum();
  }

  @Override
  public long getSlowRequests() {
    return slowRequests.sum();
  }

  @Override
  public long getBytesIn() {
    return bytesIn.sum();
  }

  @Override
  public long getBytesOut() {
    return bytesOut.sum();
  }

  @Override
  public int getOpenScanners() {
    return openScanners.get();
  }

  @Override
  public int getOpenSnapshots() {
    return openSnapshots.get();
  }

  @Override
  public int getQueuedRequests() {
    ThreadPoolExecutor p = pool;
    return p == null ? 0 : p.getQueue().size();
  }

  @Override
  public int getActiveRequests() {
    ThreadPoolExecutor p = pool;
    return p == null ? 0 : p.getActiveCount();
  }

  @Override
  public long getHashCacheBytes() {
    return hashCacheBytes.getAsLong();
  }

  @Override
  public long getQueryMemoryBytes() {
    return queryMemoryBytes.getAsLong();
  }

  /** Registers the bean as {@code io.cairn:type=Server,port=PORT}. */
  void register(int port) {
    String name = "io.cairn:type=Server,port=" + port;
    try {
      ObjectName objectName = new ObjectName(name);
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      server.registerMBean(new StandardMBean(this, ServerMXBean.class, true), objectName);
      registered = objectName;
    } catch (JMException | RuntimeException e) {
      LOG.warn("Cannot register the JMX bean {}", name, e);
    }
  }

  void unregister() {
    if (registered == null) {
      return;
    }
    try {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(registered);
    } catch (JMException | RuntimeException e) {
      LOG.warn("Cannot unregister the JMX bean {}", registered, e);
    }
    registered = null;
  }
}
