/**
 * Security of the network server (docs/server-security.md): password hashes, the users read from
 * the server's configuration and the throttle on failed logins ({@link
 * io.cairn.server.security.PasswordHasher}, {@link io.cairn.server.security.Users}, {@link
 * io.cairn.server.security.LoginThrottle}). The TLS contexts of both ends of a connection live in
 * the protocol module ({@link io.cairn.protocol.tls.TlsSupport}). Uses no other package of the
 * server, and only the JDK's cryptography (no BouncyCastle, no native TLS).
 */
package io.cairn.server.security;
