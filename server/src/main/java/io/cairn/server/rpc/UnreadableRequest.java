package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

/**
 * A whole frame that is not a request but whose request id could be read ({@link RequestDecoder}):
 * the connection answers PROTOCOL_ERROR for that id alone and goes on.
 *
 * @param id the request's id, > 0
 * @param frameBytes the frame's length
 * @param message the error's message: the id, the frame's size and what the parser found
 */
record UnreadableRequest(long id, int frameBytes, String message) {
  UnreadableRequest {
    if (id == 0) {
      throw new IllegalArgumentException("id is 0");
    }
    requireNonNull(message, "message is null");
  }
}
