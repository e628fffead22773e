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
}
