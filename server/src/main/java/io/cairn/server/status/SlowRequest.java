package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * A request that took at least the slow-request threshold.
 *
 * @param startTime when the server received it
 * @param client the client's remote address (and user, if the caller likes: the server decides)
 * @param requestType the request's kind, e.g. {@code OpenScan}, {@code Mutate}
 * @param table the table it worked on; empty when none
 * @param rows rows it returned or wrote
 */
public record SlowRequest(
    Instant startTime,
    String client,
    String requestType,
    String table,
    Duration duration,
    long rows) {
  public SlowRequest {
    requireNonNull(startTime, "startTime is null");
    requireNonNull(client, "client is null");
    requireNonNull(requestType, "requestType is null");
    requireNonNull(table, "table is null");
    requireNonNull(duration, "duration is null");
  }
}
