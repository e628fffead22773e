package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * The server's part of a status snapshot.
 *
 * @param version the server's version, e.g. {@code 0.1.0}
 * @param listenAddress where clients connect, e.g. {@code 127.0.0.1:7070}
 * @param tls whether clients connect over TLS
 * @param authentication whether clients must give a user and password
 */
public record ServerInfo(
    String version,
    Instant startTime,
    Duration uptime,
    String listenAddress,
    boolean tls,
    boolean authentication) {
  public ServerInfo {
    requireNonNull(version, "version is null");
    requireNonNull(startTime, "startTime is null");
    requireNonNull(uptime, "uptime is null");
    requireNonNull(listenAddress, "listenAddress is null");
  }

  /** The server started at {@code startTime}, seen at {@code now}. */
  public static ServerInfo of(
      String version,
      Instant startTime,
      Instant now,
      String listenAddress,
      boolean tls,
      boolean authentication) {
    return new ServerInfo(
        version, startTime, Duration.between(startTime, now), listenAddress, tls, authentication);
  }
}
