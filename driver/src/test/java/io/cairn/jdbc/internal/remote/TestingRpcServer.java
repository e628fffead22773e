package io.cairn.jdbc.internal.remote;

import io.cairn.protocol.CatalogVersion;
import io.cairn.protocol.HelloOk;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A hand-written server speaking the frames of rpc.proto on a blocking socket, scripted by the
 * test: it answers Hello with HelloOk (catalog version (1, 1)) unless told otherwise and hands
 * every other request to the test's {@link Handler}, which answers, stays silent, pushes events or
 * drops the connection. Records the requests and counts the connections.
 */
final class TestingRpcServer implements AutoCloseable {
  /** What the test does with one request. */
  interface Handler {
    void handle(Request request, Connection connection) throws IOException;
  }

  /** One accepted client connection. */
  final class Connection {
    private final Socket socket;
    private final DataOutputStream out;

    Connection(Socket socket) throws IOException {
      this.socket = socket;
      this.out = new DataOutputStream(socket.getOutputStream());
    }

    /** Sends a response (or an event with id 0), stamped with {@link #catalog}. */
    synchronized void send(Response.Builder response) throws IOException {
      byte[] bytes = response.setCatalog(catalog).build().toByteArray();
      out.writeInt(bytes.length);
      out.write(bytes);
      out.flush();
    }

    /** Answers {@code request} with {@code body}'s fields set on a response of its id. */
    void answer(Request request, Response.Builder body) throws IOException {
      send(body.setId(request.getId()));
    }

    void drop() throws IOException {
      socket.close();
    }
  }

  private final ServerSocket socket;
  private final Thread acceptor;
  private volatile Handler handler;
  volatile Handler helloHandler = TestingRpcServer::helloOk;
  volatile CatalogVersion catalog =
      CatalogVersion.newBuilder().setInstance(1).setVersion(1).build();
  final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
  final List<Connection> connections = new CopyOnWriteArrayList<>();

  TestingRpcServer(Handler handler) throws IOException {
    this.handler = handler;
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "testing-rpc-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  static void helloOk(Request request, Connection connection) throws IOException {
    connection.answer(
        request,
        Response.newBuilder()
            .setHelloOk(
                HelloOk.newBuilder()
                    .setProtocolVersion(request.getHello().getProtocolVersion())
                    .setServerVersion("testing")
                    .setSessionId(connection.hashCode())
                    .setMaxFrameBytes(1 << 20)));
  }

  void handler(Handler handler) {
    this.handler = handler;
  }

  int port() {
    return socket.getLocalPort();
  }

  RemoteConfig config() {
    return RemoteConfig.of(
        new io.cairn.jdbc.internal.ConnectionUrl.ServerAddress("127.0.0.1", port(), "db"));
  }

  /** The next request other than Hello, waiting up to 10 s. */
  Request nextRequest() throws InterruptedException {
    Request r = requests.poll(10, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no request within 10 s");
    }
    return r;
  }

  private void accept() {
    while (!socket.isClosed()) {
      Socket s;
      try {
        s = socket.accept();
      } catch (IOException e) {
        return;
      }
      Thread t = new Thread(() -> serve(s), "testing-rpc-connection");
      t.setDaemon(true);
      t.start();
    }
  }

  private void serve(Socket s) {
    try (s) {
      Connection connection = new Connection(s);
      connections.add(connection);
      DataInputStream in = new DataInputStream(s.getInputStream());
      while (true) {
        int length;
        try {
          length = in.readInt();
        } catch (EOFException e) {
          return;
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        Request request = Request.parseFrom(frame);
        if (request.hasHello()) {
          helloHandler.handle(request, connection);
        } else {
          requests.add(request);
          handler.handle(request, connection);
        }
      }
    } catch (IOException e) {
      // the client or the test closed the connection
    }
  }

  /** Drops every client connection (as a crashed server would). */
  void dropAll() {
    for (Connection c : connections) {
      try {
        c.drop();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    connections.clear();
  }

  @Override
  public void close() throws IOException {
    socket.close();
    dropAll();
  }
}
