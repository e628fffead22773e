/**
 * Robustness tests of the network server against a real server process ({@code
 * io.cairn.server.rpc.ServerMain}, started by {@link io.cairn.it.server.ServerProcess}): broken and
 * hostile frames, clients that vanish mid-scan or never read, a hundred concurrent clients, JDBC
 * clients, and graceful and forced stops. The server must answer the documented errors, keep
 * serving everyone else, release every buffer (its log, written with paranoid leak detection, must
 * hold no leak report) and lose no acknowledged write. See docs/testing.md, "Server robustness
 * tests".
 */
package io.cairn.it.server;
