package io.cairn.server.rpc;

/**
 * JMX view of a running network server ({@code io.cairn:type=Server,port=PORT}). Counters count
 * since the server started; the others are current values.
 */
public interface ServerMXBean {
  /** Connections open now. */
  int getConnections();

  /** Connections accepted since the start. */
  long getConnectionsTotal();

  /** Requests received (decoded frames). */
  long getRequests();

  /** Requests answered with an error, and errors that closed a connection. */
  long getErrors();

  /** Requests that took at least the slow-request threshold. */
  long getSlowRequests();

  long getBytesIn();

  long getBytesOut();

  /** Scanners open now, over every connection. */
  int getOpenScanners();

  /** Snapshots (OpenSnapshot) open now, over every connection. */
  int getOpenSnapshots();

  /** Requests waiting for a worker thread now. */
  int getQueuedRequests();

  /** Requests a worker is running now. */
  int getActiveRequests();

  /** Bytes held by broadcast hash caches now. */
  long getHashCacheBytes();

  /**
   * Estimated bytes of query state held now (scans' groups and sorted rows, broadcast hash caches),
   * counted in the server's query-memory.max-bytes.
   */
  long getQueryMemoryBytes();

  // --- admission (docs/server.md, "Connections and logins") ---

  /** Connections counted against max-connections now (accepted, not yet closed). */
  int getAdmittedConnections();

  /** Connections that have not authenticated yet, now. */
  int getUnauthenticatedConnections();

  /**
   * Connections refused past max-connections, max-connections-per-address or the unauthenticated
   * limit.
   */
  long getConnectionsRefused();

  /** Connections closed before their Hello to make room past max-unauthenticated-connections. */
  long getConnectionsEvicted();

  /** Connections closed for not logging in within handshake-timeout. */
  long getHandshakeTimeouts();

  /** Connections closed after idle-timeout without a request. */
  long getIdleTimeouts();

  /** Connections closed for a frame not complete within frame-read-timeout. */
  long getFrameReadTimeouts();

  /** Accepts that failed (e.g. too many open files), each followed by a pause. */
  long getAcceptFailures();

  /** Password checks waiting for a login thread now. */
  int getQueuedLogins();

  /** Password checks that failed. */
  long getLoginFailures();

  /** Logins refused without a check while their address backs off after failures. */
  long getLoginsThrottled();

  /** Logins refused because the queue of password checks was full. */
  long getLoginsBusy();
}
