/**
 * Security of the network server (docs/server-security.md): password hashes and the users read from
 * the server's configuration ({@link io.cairn.server.security.PasswordHasher}, {@link
 * io.cairn.server.security.Users}), and Netty TLS contexts read from PEM files ({@link
 * io.cairn.server.security.TlsSupport}). Uses no other package of the server, and only the JDK's
 * cryptography (no BouncyCastle, no native TLS).
 */
package io.cairn.server.security;
