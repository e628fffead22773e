/**
 * The network server (docs/server.md): {@link io.cairn.server.rpc.CairnServer} serves the databases
 * under one root to clients of the wire protocol over TCP (optionally TLS), {@link
 * io.cairn.server.rpc.ServerMain} is {@code bin/cairn server}. Netty event loops read frames
 * ({@link io.cairn.server.rpc.FrameDecoder}, {@link io.cairn.server.rpc.RequestDecoder}) and write
 * answers ({@link io.cairn.server.rpc.ResponseEncoder}); each {@link
 * io.cairn.server.rpc.ServerConnection} keeps a session's requests, scanners ({@link
 * io.cairn.server.rpc.ServerScanner}), snapshots and hash caches, and runs every request on the
 * worker pool ({@link io.cairn.server.rpc.RequestHandler}), never on an event loop. Admission and
 * limits: {@link io.cairn.server.rpc.ConnectionAdmission}, {@link io.cairn.server.rpc.Logins},
 * {@link io.cairn.server.rpc.QueryMemory}, {@link io.cairn.server.rpc.DatabasePolicy}; settings in
 * {@link io.cairn.server.rpc.ServerConfig}. The top of the server module: uses {@code security},
 * {@code status}, the store and the protocol. Fields touched only on a channel's event loop are
 * marked so in their classes.
 */
package io.cairn.server.rpc;
