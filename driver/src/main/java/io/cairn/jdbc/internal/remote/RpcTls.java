package io.cairn.jdbc.internal.remote;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.tls.TlsSupport;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.SslContext;

/**
 * The client side of TLS ({@code tls=true}), from the protocol's {@link TlsSupport}: trusts exactly
 * the certificates of {@code tlsTrustCertificate} (PEM) or, without it, the JVM's trust store, and
 * checks that the server's certificate names the host of the URL.
 */
final class RpcTls {
  private final SslContext context;

  private RpcTls(SslContext context) {
    this.context = context;
  }

  /**
   * @throws CairnException INVALID_URL naming the file and what is wrong with it
   */
  static RpcTls client(RemoteConfig config) {
    try {
      return new RpcTls(TlsSupport.client(config.tlsTrustCertificate().orElse(null)));
    } catch (CairnException e) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Cannot set up TLS for the Cairn server at " + config.server() + ": " + e.getMessage(),
          e);
    }
  }

  /** A handler for a new connection to {@code host:port}, verifying the host name. */
  ChannelHandler handler(ByteBufAllocator alloc, String host, int port) {
    return TlsSupport.clientHandler(context, alloc, host, port);
  }
}
