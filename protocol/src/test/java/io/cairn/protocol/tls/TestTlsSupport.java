package io.cairn.protocol.tls;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.testing.TestCertificates;
import io.cairn.protocol.testing.TestCertificates.CertificateFiles;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.NetUtil;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestTlsSupport {
  @TempDir static Path dir;
  private static CertificateFiles server;
  private static CertificateFiles other;
  private static EventLoopGroup group;
  private static ResourceLeakDetector.Level leakLevel;

  /** Every buffer of the test's channels comes from here, so that unreleased bytes show. */
  private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(true, false);

  @BeforeAll
  static void setUp() {
    leakLevel = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    server = TestCertificates.selfSigned(dir.resolve("server"));
    other = TestCertificates.selfSigned(dir.resolve("other"));
    group = new NioEventLoopGroup(2);
  }

  @AfterAll
  static void tearDown() throws InterruptedException {
    if (group != null) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
    ResourceLeakDetector.setLevel(leakLevel);
  }

  @AfterEach
  void everyBufferReleased() throws InterruptedException {
    // channels finish closing (and their handlers release) on the event loop, after close()
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (used() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(used()).as("bytes of buffers never released").isZero();
  }

  private static long used() {
    return ALLOC.metric().usedDirectMemory() + ALLOC.metric().usedHeapMemory();
  }

  @Test
  void clientThatTrustsTheCertificateTalksToTheServer() throws Exception {
    SslContext serverContext = TlsSupport.server(server.certificate(), server.privateKey(), null);
    try (EchoServer echo = new EchoServer(serverContext)) {
      SslContext client = TlsSupport.client(server.certificate());
      assertThat(echo.exchange(client, "localhost", "hello")).isEqualTo("hello");
      // the certificate also names 127.0.0.1
      assertThat(echo.exchange(client, "127.0.0.1", "by address")).isEqualTo("by address");
    }
  }

  @Test
  void rsaKeysWork() throws Exception {
    CertificateFiles rsa = TestCertificates.selfSigned(dir.resolve("rsa"), "RSA");
    try (EchoServer echo =
        new EchoServer(TlsSupport.server(rsa.certificate(), rsa.privateKey(), null))) {
      assertThat(echo.exchange(TlsSupport.client(rsa.certificate()), "localhost", "rsa"))
          .isEqualTo("rsa");
    }
  }

  @Test
  void clientThatTrustsAnotherCertificateFailsTheHandshake() throws Exception {
    try (EchoServer echo =
        new EchoServer(TlsSupport.server(server.certificate(), server.privateKey(), null))) {
      SslContext client = TlsSupport.client(other.certificate());
      assertThatThrownBy(() -> echo.exchange(client, "localhost", "hello"))
          .isInstanceOf(SSLHandshakeException.class);
      // and the server stays up for a trusting client
      assertThat(echo.exchange(TlsSupport.client(server.certificate()), "localhost", "again"))
          .isEqualTo("again");
    }
  }

  @Test
  void clientChecksTheHostName() throws Exception {
    try (EchoServer echo =
        new EchoServer(TlsSupport.server(server.certificate(), server.privateKey(), null))) {
      SslContext client = TlsSupport.client(server.certificate());
      // trusted certificate, but it does not name the host the client believes it talks to
      assertThatThrownBy(() -> echo.exchange(client, "cairn.example.com", "hello"))
          .isInstanceOf(SSLHandshakeException.class)
          .hasStackTraceContaining("cairn.example.com");
    }
  }

  @Test
  void encryptedKeyNeedsItsPassword() throws Exception {
    Path encrypted =
        TestCertificates.writeEncryptedKey(server, "open sesame", dir.resolve("encrypted-key.pem"));
    try (EchoServer echo =
        new EchoServer(TlsSupport.server(server.certificate(), encrypted, "open sesame"))) {
      assertThat(echo.exchange(TlsSupport.client(server.certificate()), "localhost", "enc"))
          .isEqualTo("enc");
    }
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), encrypted, "wrong"),
        "TLS key file [" + encrypted + "]: cannot decrypt the key with the password given");
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), encrypted, null),
        "TLS key file [" + encrypted + "]: the key is encrypted: expected its password");
  }

  /** The commands of docs/server-security.md, when openssl is installed. */
  @Test
  void opensslKeysWork() throws Exception {
    Path d = Files.createDirectories(dir.resolve("openssl"));
    Assumptions.assumeTrue(run(d, "openssl", "version"), "openssl is not installed");
    assertThat(
            run(
                d,
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-sha256",
                "-days",
                "30",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout",
                "key.pem",
                "-out",
                "cert.pem",
                "-passout",
                "pass:topsecret"))
        .isTrue();
    Path cert = d.resolve("cert.pem");
    assertThat(Files.readString(cert, UTF_8)).contains("BEGIN CERTIFICATE");
    assertThat(Files.readString(d.resolve("key.pem"), UTF_8)).contains("ENCRYPTED PRIVATE KEY");
    try (EchoServer echo =
        new EchoServer(TlsSupport.server(cert, d.resolve("key.pem"), "topsecret"))) {
      assertThat(echo.exchange(TlsSupport.client(cert), "localhost", "openssl"))
          .isEqualTo("openssl");
    }
    assertInvalid(
        () -> TlsSupport.server(cert, d.resolve("key.pem"), "wrong"),
        "TLS key file [" + d.resolve("key.pem") + "]: cannot decrypt the key with the password");
    // other encryptions openssl offers: PBES2 with AES and another PRF, PBES1 (read by the JDK)
    String[][] schemes = {
      {"aes128.pem", "-v2", "aes-128-cbc", "-v2prf", "hmacWithSHA512"},
      {"pbes1.pem", "-v1", "PBE-SHA1-3DES"},
    };
    for (String[] scheme : schemes) {
      List<String> command =
          new ArrayList<>(
              List.of("openssl", "pkcs8", "-topk8", "-in", server.privateKey().toString()));
      command.addAll(List.of(scheme).subList(1, scheme.length));
      command.addAll(List.of("-passout", "pass:pw", "-out", scheme[0]));
      assertThat(run(d, command.toArray(new String[0]))).as(command.toString()).isTrue();
      try (EchoServer echo =
          new EchoServer(TlsSupport.server(server.certificate(), d.resolve(scheme[0]), "pw"))) {
        assertThat(echo.exchange(TlsSupport.client(server.certificate()), "localhost", scheme[0]))
            .isEqualTo(scheme[0]);
      }
    }
    assertThat(
            run(
                d,
                "openssl",
                "pkcs8",
                "-topk8",
                "-in",
                server.privateKey().toString(),
                "-scrypt",
                "-passout",
                "pass:pw",
                "-out",
                "scrypt.pem"))
        .isTrue();
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), d.resolve("scrypt.pem"), "pw"),
        "TLS key file ["
            + d.resolve("scrypt.pem")
            + "]: the key is encrypted with PBES2 with the"
            + " key derivation function [1.3.6.1.4.1.11591.4.11] (only PBKDF2 is supported), which"
            + " this JVM cannot decrypt; re-encrypt it with: openssl pkcs8 -topk8 -v2 aes-256-cbc");
    // a keytool keystore converted to PEM with openssl (bag attributes before the PEM blocks)
    assertThat(
            run(
                d,
                "openssl",
                "pkcs12",
                "-export",
                "-in",
                server.certificate().toString(),
                "-inkey",
                server.privateKey().toString(),
                "-out",
                "server.p12",
                "-passout",
                "pass:changeit"))
        .isTrue();
    assertThat(
            run(
                d,
                "openssl",
                "pkcs12",
                "-in",
                "server.p12",
                "-passin",
                "pass:changeit",
                "-nocerts",
                "-nodes",
                "-out",
                "p12-key.pem"))
        .isTrue();
    assertThat(
            run(
                d,
                "openssl",
                "pkcs12",
                "-in",
                "server.p12",
                "-passin",
                "pass:changeit",
                "-nokeys",
                "-out",
                "p12-cert.pem"))
        .isTrue();
    try (EchoServer echo =
        new EchoServer(
            TlsSupport.server(d.resolve("p12-cert.pem"), d.resolve("p12-key.pem"), null))) {
      assertThat(echo.exchange(TlsSupport.client(server.certificate()), "localhost", "p12"))
          .isEqualTo("p12");
    }
  }

  private static boolean run(Path dir, String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      return false; // not installed
    }
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
  }

  @Test
  void missingFilesAreNamed() {
    Path missing = dir.resolve("no-such-key.pem");
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), missing, null),
        "TLS key file [" + missing + "]: the file does not exist");
    assertInvalid(
        () -> TlsSupport.server(missing, server.privateKey(), null),
        "TLS certificate file [" + missing + "]: the file does not exist");
    assertInvalid(
        () -> TlsSupport.client(missing),
        "TLS trusted certificate file [" + missing + "]: the file does not exist");
  }

  @Test
  void unreadableFileIsAnIoError() throws Exception {
    Path key = Files.copy(server.privateKey(), dir.resolve("unreadable.pem"));
    if (!key.toFile().setReadable(false, false) || Files.isReadable(key)) {
      return; // running as root: every file is readable
    }
    assertThatThrownBy(() -> TlsSupport.server(server.certificate(), key, null))
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR))
        .hasMessageStartingWith("Cannot read TLS key file [" + key + "]");
  }

  @Test
  void wrongContentsAreNamed() throws Exception {
    assertInvalid(
        () -> TlsSupport.server(server.privateKey(), server.certificate(), null),
        "TLS certificate file ["
            + server.privateKey()
            + "]: expected PEM certificates"
            + " (-----BEGIN CERTIFICATE-----), found a private key");
    Path empty = Files.writeString(dir.resolve("empty.pem"), "", UTF_8);
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), empty, null),
        "TLS key file [" + empty + "]: expected a PEM private key");
    Path pkcs1 =
        Files.writeString(
            dir.resolve("pkcs1.pem"),
            "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
            UTF_8);
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), pkcs1, null),
        "TLS key file ["
            + pkcs1
            + "]: expected a PKCS#8 key (-----BEGIN PRIVATE KEY-----),"
            + " found [RSA PRIVATE KEY]; convert it with: openssl pkcs8 -topk8");
    Path garbage =
        Files.writeString(
            dir.resolve("garbage.pem"),
            "-----BEGIN PRIVATE KEY-----\nAAAAAAAA\n-----END PRIVATE KEY-----\n",
            UTF_8);
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), garbage, null),
        "TLS key file [" + garbage + "]: expected a PKCS#8 private key of one of");
    Path badCert =
        Files.writeString(
            dir.resolve("bad-cert.pem"),
            "-----BEGIN CERTIFICATE-----\nAAAAAAAA\n-----END CERTIFICATE-----\n",
            UTF_8);
    assertInvalid(
        () -> TlsSupport.client(badCert),
        "TLS trusted certificate file [" + badCert + "]: certificate 1 cannot be read");
  }

  @Test
  void keyOfAnotherCertificateIsRefused() {
    assertInvalid(
        () -> TlsSupport.server(server.certificate(), other.privateKey(), null),
        "TLS key ["
            + other.privateKey()
            + "] does not belong to the first certificate of ["
            + server.certificate()
            + "] (CN=localhost,O=Cairn tests)");
  }

  @Test
  void contextsOfferOnlyTls12And13() {
    SslContext serverContext = TlsSupport.server(server.certificate(), server.privateKey(), null);
    SslHandler handler = serverContext.newHandler(ByteBufAllocator.DEFAULT);
    try {
      assertThat(handler.engine().getEnabledProtocols())
          .containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
    } finally {
      releaseEngine(handler);
    }
  }

  @Test
  void clientHandlerIdentifiesTheEndpoint() {
    SslContext client = TlsSupport.client(null); // the JVM's trust store
    SslHandler named =
        TlsSupport.clientHandler(client, ByteBufAllocator.DEFAULT, "db.example", 7000);
    SslHandler unnamed = TlsSupport.clientHandler(client, ByteBufAllocator.DEFAULT, null, 0);
    try {
      SSLParameters params = named.engine().getSSLParameters();
      assertThat(params.getEndpointIdentificationAlgorithm()).isEqualTo("HTTPS");
      assertThat(named.engine().getPeerHost()).isEqualTo("db.example");
      assertThat(named.engine().getPeerPort()).isEqualTo(7000);
      assertThat(unnamed.engine().getSSLParameters().getEndpointIdentificationAlgorithm()).isNull();
    } finally {
      releaseEngine(named);
      releaseEngine(unnamed);
    }
    SslContext serverContext = TlsSupport.server(server.certificate(), server.privateKey(), null);
    assertThatThrownBy(
            () -> TlsSupport.clientHandler(serverContext, ByteBufAllocator.DEFAULT, "x", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected a client TLS context, found a server one");
  }

  /** A handler never added to a channel: run it through one so that its engine is closed. */
  private static void releaseEngine(SslHandler handler) {
    EmbeddedChannel channel = new EmbeddedChannel();
    channel.pipeline().addLast(handler);
    channel.finishAndReleaseAll();
  }

  private static void assertInvalid(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String messageStart) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageStartingWith(messageStart);
  }

  /** A TLS echo server on 127.0.0.1, port chosen by the system. */
  private static final class EchoServer implements AutoCloseable {
    private final Channel channel;

    EchoServer(SslContext context) throws InterruptedException {
      channel =
          new ServerBootstrap()
              .group(group)
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.ALLOCATOR, ALLOC)
              .childOption(ChannelOption.ALLOCATOR, ALLOC)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(context.newHandler(ch.alloc()))
                          .addLast(
                              new ChannelInboundHandlerAdapter() {
                                @Override
                                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                  var unused = ctx.writeAndFlush(msg); // releases the buffer
                                }

                                @Override
                                public void exceptionCaught(
                                    ChannelHandlerContext ctx, Throwable cause) {
                                  var unused = ctx.close(); // e.g. the client refused us
                                }
                              });
                    }
                  })
              .bind(new InetSocketAddress(NetUtil.LOCALHOST4, 0))
              .sync()
              .channel();
    }

    int port() {
      return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /**
     * Connects with {@code client} as if to {@code host}, sends {@code text} after the handshake
     * and returns the echo; throws the handshake's failure.
     */
    String exchange(SslContext client, String host, String text) throws Exception {
      CompletableFuture<String> reply = new CompletableFuture<>();
      Channel ch =
          new Bootstrap()
              .group(group)
              .channel(NioSocketChannel.class)
              .option(ChannelOption.ALLOCATOR, ALLOC)
              .handler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(TlsSupport.clientHandler(client, ch.alloc(), host, port()))
                          .addLast(
                              new SimpleChannelInboundHandler<ByteBuf>() {
                                private final StringBuilder received = new StringBuilder();

                                @Override
                                protected void channelRead0(
                                    ChannelHandlerContext ctx, ByteBuf msg) {
                                  received.append(msg.toString(UTF_8)); // released on return
                                  if (received.length() >= text.length()) {
                                    reply.complete(received.toString());
                                  }
                                }

                                @Override
                                public void exceptionCaught(
                                    ChannelHandlerContext ctx, Throwable cause) {
                                  reply.completeExceptionally(cause);
                                  var unused = ctx.close();
                                }
                              });
                    }
                  })
              .connect(new InetSocketAddress(NetUtil.LOCALHOST4, port()))
              .sync()
              .channel();
      try {
        Future<Channel> handshake = ch.pipeline().get(SslHandler.class).handshakeFuture();
        if (!handshake.await(10, TimeUnit.SECONDS)) {
          throw new AssertionError("no handshake within 10 s");
        }
        if (!handshake.isSuccess()) {
          throw unwrap(handshake.cause());
        }
        ch.writeAndFlush(ByteBufUtil.writeUtf8(ch.alloc(), text)).sync();
        return reply.get(10, TimeUnit.SECONDS);
      } finally {
        ch.close().sync();
      }
    }

    private static Exception unwrap(Throwable t) {
      Throwable c = t;
      while (c.getCause() != null && !(c instanceof SSLHandshakeException)) {
        c = c.getCause();
      }
      return c instanceof SSLHandshakeException e ? e : new Exception(t);
    }

    @Override
    public void close() {
      channel.close().syncUninterruptibly();
    }
  }
}
