package io.cairn.jdbc.internal.remote;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.nio.file.Path;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * The client side of TLS ({@code tls=true}): trusts the certificates of {@code tlsTrustCertificate}
 * (PEM) or, without it, the JVM's trust store, and checks that the server's certificate names the
 * host of the URL.
 */
final class RpcTls {
  private final SslContext context;

  private RpcTls(SslContext context) {
    this.context = context;
  }

  static RpcTls client(RemoteConfig config) {
    try {
      SslContextBuilder builder = SslContextBuilder.forClient();
      if (config.tlsTrustCertificate().isPresent()) {
        Path trust = config.tlsTrustCertificate().get();
        builder.trustManager(trust.toFile());
      }
      return new RpcTls(builder.build());
    } catch (SSLException | IllegalArgumentException e) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Cannot set up TLS for the Cairn server at "
              + config.server()
              + config
                  .tlsTrustCertificate()
                  .map(t -> " with trust certificates [" + t + "]")
                  .orElse("")
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** A handler for a new connection to {@code host:port}, verifying the host name. */
  ChannelHandler handler(ByteBufAllocator alloc, String host, int port) {
    SslHandler handler = context.newHandler(alloc, host, port);
    SSLEngine engine = handler.engine();
    SSLParameters parameters = engine.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    engine.setSSLParameters(parameters);
    return handler;
  }
}
