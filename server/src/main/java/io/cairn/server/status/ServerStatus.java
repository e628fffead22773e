package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;

/**
 * What the status page shows: an immutable snapshot of the server, its store, its clients and its
 * recent slow requests, taken at {@code takenAt}. The network server builds one per page request
 * ({@link StatusServer#start}'s supplier): the store's part with {@link StoreStatus#collect}, the
 * clients from its connections, the slow requests from its {@link SlowRequestLog}.
 */
public record ServerStatus(
    Instant takenAt,
    ServerInfo server,
    StoreStatus store,
    List<ClientInfo> clients,
    List<SlowRequest> slowRequests) {
  public ServerStatus {
    requireNonNull(takenAt, "takenAt is null");
    requireNonNull(server, "server is null");
    requireNonNull(store, "store is null");
    clients = List.copyOf(clients);
    slowRequests = List.copyOf(slowRequests);
  }
}
