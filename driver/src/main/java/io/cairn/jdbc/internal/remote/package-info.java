/**
 * The remote engine: JDBC connections to a Cairn server ({@code jdbc:cairn://host:port/db}) over
 * the wire protocol of {@code protocol/src/main/proto/cairn/rpc.proto}.
 *
 * <ul>
 *   <li>{@link io.cairn.jdbc.internal.remote.RpcConnection}: one multiplexed, reconnecting network
 *       connection per server, database, user and settings, shared by the JDBC connections of the
 *       JVM; {@link io.cairn.jdbc.internal.remote.RpcChannel} matches answers to requests by id on
 *       Netty event loops ({@link io.cairn.jdbc.internal.remote.RpcEventLoop}), so no thread waits
 *       per request in flight.
 *   <li>{@link io.cairn.jdbc.internal.remote.RemoteKvStore}, {@link
 *       io.cairn.jdbc.internal.remote.RemoteKvTable}, {@link
 *       io.cairn.jdbc.internal.remote.RemoteScanner}: the KV SPI over the wire (paged scans with
 *       one page prefetched, Get for point keys, scans and conditional writes at the read point of
 *       a snapshot the server holds for the connection, atomic multi-table Mutate); {@link
 *       io.cairn.jdbc.internal.remote.RemotePageScanner}: a scan's pages asked for one at a time
 *       with completions on the event loop, as the chunks of parallel scans read them.
 *   <li>{@link io.cairn.jdbc.internal.remote.RemoteCatalog}: a copy of the server's catalog that
 *       follows its version.
 *   <li>{@link io.cairn.jdbc.internal.remote.RemoteDatabase}: all of it as a {@code Database}, so
 *       the same session, planner and executor as the embedded engine run over it.
 * </ul>
 */
package io.cairn.jdbc.internal.remote;
