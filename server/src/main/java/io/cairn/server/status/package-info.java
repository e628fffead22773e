/**
 * The network server's status page, like HBase's region server UI (docs/server-security.md, "The
 * status page"): {@link io.cairn.server.status.ServerStatus}, an immutable snapshot of the server,
 * its store ({@link io.cairn.server.status.StoreStatus#collect}), its clients and its slow requests
 * ({@link io.cairn.server.status.SlowRequestLog}); {@link io.cairn.server.status.StatusServer}
 * serves it as HTML and JSON on the JDK's built-in HTTP server. Above the store: reads {@link
 * io.cairn.store.EmbeddedStore}'s monitoring methods and the cache's statistics records.
 */
package io.cairn.server.status;
