package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A connected client, as the network server reports it.
 *
 * @param remoteAddress the client's address and port, e.g. {@code 10.0.0.7:51234}
 * @param user the user it authenticated as; empty when authentication is off
 * @param sessionId the session id the server gave it in its handshake answer
 * @param requestsServed requests answered so far
 * @param openScanners scanners it holds open now
 * @param openSnapshots snapshots (pinned read points) it holds open now
 * @param bytesIn bytes received from it (frames, after TLS)
 * @param bytesOut bytes sent to it
 */
public record ClientInfo(
    String remoteAddress,
    String user,
    long sessionId,
    Instant connectedSince,
    long requestsServed,
    int openScanners,
    int openSnapshots,
    long bytesIn,
    long bytesOut) {
  public ClientInfo {
    requireNonNull(remoteAddress, "remoteAddress is null");
    requireNonNull(user, "user is null");
    requireNonNull(connectedSince, "connectedSince is null");
  }
}
