/**
 * TLS of a connection to a Cairn server, both ends (docs/server-security.md): Netty contexts for
 * the server and for the remote driver read and checked from PEM files, so that each problem names
 * the file ({@link io.cairn.protocol.tls.TlsSupport}), and PKCS#8 encrypted keys ({@link
 * io.cairn.protocol.tls.EncryptedKeys}). The JDK's TLS only (no native library). Uses no other
 * package of Cairn but {@code io.cairn.core.error}.
 */
package io.cairn.protocol.tls;
