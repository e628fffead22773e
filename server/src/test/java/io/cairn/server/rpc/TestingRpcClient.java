package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Hello;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * A small blocking client of the server's protocol over a plain socket, for tests: writes frames
 * (well-formed or not) and reads answers, keeping events and answers to other requests aside.
 */
final class TestingRpcClient implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private final AtomicLong ids = new AtomicLong();
  private final List<Response> events = new ArrayList<>();
  private final Map<Long, Response> early = new HashMap<>();

  private TestingRpcClient(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  static TestingRpcClient connect(int port) {
    try {
      Socket socket = new Socket();
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
      return on(socket);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A client over TLS that trusts exactly the certificate in {@code certificatePem}. */
  static TestingRpcClient connectTls(int port, Path certificatePem) {
    try {
      Certificate certificate;
      try (InputStream in = Files.newInputStream(certificatePem)) {
        certificate = CertificateFactory.getInstance("X.509").generateCertificate(in);
      }
      KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry("server", certificate);
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("localhost", port);
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      socket.setSSLParameters(parameters);
      socket.startHandshake();
      return on(socket);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static TestingRpcClient on(Socket socket) throws IOException {
    socket.setSoTimeout(30_000);
    socket.setTcpNoDelay(true);
    return new TestingRpcClient(socket);
  }

  /** Connects and says Hello to {@code database}; fails the test unless the answer is HelloOk. */
  static TestingRpcClient open(int port, String database) {
    TestingRpcClient client = connect(port);
    Response answer = client.hello(database);
    assertThat(answer.hasHelloOk()).as("answer to Hello: %s", answer).isTrue();
    return client;
  }

  Response hello(String database) {
    return hello(database, "", "");
  }

  Response hello(String database, String user, String password) {
    return call(
        Request.newBuilder()
            .setHello(
                Hello.newBuilder()
                    .setProtocolVersion(1)
                    .setClientName("testing-rpc-client")
                    .setDatabase(database)
                    .setUser(user)
                    .setPassword(password)));
  }

  long nextId() {
    return ids.incrementAndGet();
  }

  Socket socket() {
    return socket;
  }

  /** Sends {@code request} with a fresh id unless it has one; returns the id. */
  long send(Request.Builder request) {
    if (request.getId() == 0) {
      request.setId(nextId());
    }
    Request built = request.build();
    byte[] body = built.toByteArray();
    writeRaw(ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array());
    return built.getId();
  }

  /** Sends {@code request} as it is, id included. */
  void sendAsIs(Request request) {
    byte[] body = request.toByteArray();
    writeRaw(ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array());
  }

  /** The frame of {@code request} (with a fresh id unless it has one), not sent. */
  byte[] frame(Request.Builder request) {
    if (request.getId() == 0) {
      request.setId(nextId());
    }
    byte[] body = request.build().toByteArray();
    return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
  }

  void writeRaw(byte[] bytes) {
    try {
      out.write(bytes);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The next frame from the server, whatever it is. */
  Response read() {
    try {
      int length = in.readInt();
      byte[] body = new byte[length];
      in.readFully(body);
      return Response.parseFrom(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends {@code request} and returns its answer; events and other answers are kept aside. */
  Response call(Request.Builder request) {
    return await(send(request));
  }

  /** The answer to request {@code id}; events and other answers read meanwhile are kept aside. */
  Response await(long id) {
    Response kept = early.remove(id);
    if (kept != null) {
      return kept;
    }
    while (true) {
      Response r = read();
      if (r.getId() == id) {
        return r;
      }
      if (r.getId() == 0 && r.hasEvent()) {
        events.add(r);
      } else {
        early.put(r.getId(), r);
      }
    }
  }

  /** Events read so far (request id 0). */
  List<Response> events() {
    return events;
  }

  /** Reads until an event arrives, or returns the one already read. */
  Response awaitEvent() {
    while (events.isEmpty()) {
      Response r = read();
      if (r.getId() == 0 && r.hasEvent()) {
        events.add(r);
      } else {
        early.put(r.getId(), r);
      }
    }
    return events.remove(0);
  }

  /** True when the server closed the connection: the next read finds its end. */
  boolean closedByServer() {
    try {
      int b = in.read();
      return b < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true; // reset
    } catch (EOFException e) {
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Asserts that {@code response} is the error {@code code}. */
  static void assertError(Response response, ErrorCode code) {
    assertThat(response.hasError()).as("expected error %s, found %s", code, response).isTrue();
    assertThat(ErrorCode.fromCode(response.getError().getCode()))
        .as("error code of %s", response.getError().getMessage())
        .isEqualTo(code);
    assertThat(response.getError().getSqlState()).isEqualTo(code.sqlState());
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
