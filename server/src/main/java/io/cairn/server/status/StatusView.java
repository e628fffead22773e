package io.cairn.server.status;

/**
 * What one viewer of the status page may see beyond the figures everyone sees.
 *
 * @param clients client addresses and user names (connections, slow requests): administrators, or
 *     everyone when the server has no users
 * @param keys key values (region boundaries): only when such a viewer asks ({@code ?keys=1})
 */
record StatusView(boolean clients, boolean keys) {
  /** Everything shown (tests, and what the page showed before views). */
  static final StatusView ALL = new StatusView(true, true);
}
