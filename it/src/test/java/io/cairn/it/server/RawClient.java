package io.cairn.it.server;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Error;
import io.cairn.protocol.Hello;
import io.cairn.protocol.HelloOk;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.relocated.protobuf.InvalidProtocolBufferException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A client that speaks the wire protocol byte by byte over a plain blocking socket, so that a test
 * can send exactly what it wants (garbage, a lying length, a request without a body) and see
 * exactly what the server answers: frames of a 4-byte big-endian length and one protobuf message.
 * Every read is bounded by a timeout, so a server that does not answer fails the test instead of
 * hanging it. Not thread-safe: one thread per client.
 */
final class RawClient implements AutoCloseable {
  static final Duration DEFAULT_PATIENCE = Duration.ofSeconds(30);

  /** The largest answer this client accepts; a longer length prefix is a broken stream. */
  private static final int MAX_RESPONSE_BYTES = 64 << 20;

  /** The message of the error {@link #read()} throws for a frame cut short by a close. */
  static final String CUT = "the server closed the connection in the middle of a frame";

  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final Map<Long, Response> early = new HashMap<>();
  private final List<Response> events = new ArrayList<>();
  private long nextId = 1;
  private long bytesRead;
  private int largestFrame;

  private RawClient(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
    this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
  }

  /** Connects to the server on 127.0.0.1:{@code port}; no request is sent. */
  static RawClient connect(int port) throws IOException {
    return connect(port, -1);
  }

  /**
   * Connects with a receive buffer of {@code receiveBufferBytes} (-1: the system's default). A
   * fixed buffer also turns off the kernel's receive buffer autotuning, so a client that does not
   * read lets the server see a full socket soon.
   */
  static RawClient connect(int port, int receiveBufferBytes) throws IOException {
    Socket socket = new Socket();
    try {
      if (receiveBufferBytes > 0) {
        socket.setReceiveBufferSize(receiveBufferBytes);
      }
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) DEFAULT_PATIENCE.toMillis());
      socket.connect(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
          (int) DEFAULT_PATIENCE.toMillis());
      return new RawClient(socket);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /**
   * Connects from {@code localAddress} (another loopback address, such as 127.0.0.2, so that the
   * server sees another client address); no request is sent.
   */
  static RawClient connectFrom(String localAddress, int port) throws IOException {
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) DEFAULT_PATIENCE.toMillis());
      socket.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
      socket.connect(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
          (int) DEFAULT_PATIENCE.toMillis());
      return new RawClient(socket);
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** Connects and says Hello (protocol 1, default database, anonymous); fails on any error. */
  static RawClient open(int port, String clientName) throws IOException {
    RawClient client = connect(port);
    try {
      client.hello(clientName);
      return client;
    } catch (IOException | RuntimeException | AssertionError e) {
      client.close();
      throw e;
    }
  }

  /** Sends Hello and returns HelloOk; fails on an error answer. */
  HelloOk hello(String clientName) throws IOException {
    Response answer =
        call(
            Request.newBuilder()
                .setHello(
                    Hello.newBuilder().setProtocolVersion(1).setClientName(clientName).build()));
    if (!answer.hasHelloOk()) {
      throw new AssertionError("Hello was answered with " + describe(answer));
    }
    return answer.getHelloOk();
  }

  /** The next request id of this client (ids start at 1). */
  long nextId() {
    return nextId++;
  }

  /** Sends {@code request} with the next id; returns that id. */
  long send(Request.Builder request) throws IOException {
    long id = nextId();
    send(request.setId(id).build());
    return id;
  }

  /** Sends {@code request} as it is (its id included) in one frame. */
  void send(Request request) throws IOException {
    sendFrame(request.toByteArray());
  }

  /** Sends one frame whose body is {@code body}, with its true length. */
  void sendFrame(byte[] body) throws IOException {
    out.writeInt(body.length);
    out.write(body);
    out.flush();
  }

  /**
   * Sends one whole frame that starts as a request with the next id but is not a Request (its
   * OpenScan body is a varint that never ends), as a client with a broken encoder might; returns
   * the id.
   */
  long sendUnparsableRequest() throws IOException {
    long id = nextId();
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    body.writeBytes(Request.newBuilder().setId(id).build().toByteArray());
    // field 32 (open_scan), length-delimited, 3 bytes: 0xFF 0xFF 0xFF
    body.writeBytes(new byte[] {(byte) 0x82, 0x02, 3, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
    sendFrame(body.toByteArray());
    return id;
  }

  /** Sends {@code bytes} exactly as given (a length prefix that lies, half a frame, ...). */
  void sendRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Sends {@code request} with the next id and reads until its answer arrives. */
  Response call(Request.Builder request) throws IOException {
    return await(send(request));
  }

  /** Reads until the answer to request {@code id}; other answers are kept for later. */
  Response await(long id) throws IOException {
    Response early = this.early.remove(id);
    if (early != null) {
      return early;
    }
    while (true) {
      Response r = read();
      if (r == null) {
        throw new AssertionError(
            "the server closed the connection before answering request [" + id + "]");
      }
      if (r.getId() == id) {
        return r;
      }
      if (r.getId() == 0) {
        events.add(r);
      } else if (this.early.put(r.getId(), r) != null) {
        throw new AssertionError("two answers to request [" + r.getId() + "]");
      }
    }
  }

  /**
   * Reads the next frame; null when the server closed the connection (end of stream, or a reset).
   *
   * @throws AssertionError when nothing arrives within the socket's timeout, or the frame is not a
   *     Response
   */
  Response read() throws IOException {
    int length;
    try {
      length = in.readInt();
    } catch (EOFException | SocketException e) {
      return null;
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "hang: no frame from the server within " + socket.getSoTimeout() + " ms", e);
    }
    if (length < 0 || length > MAX_RESPONSE_BYTES) {
      throw new AssertionError("the server sent a frame length of [" + length + "] bytes");
    }
    byte[] body = new byte[length];
    try {
      in.readFully(body);
    } catch (EOFException e) {
      throw new AssertionError(CUT, e);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("hang: half a frame from the server", e);
    }
    bytesRead += 4L + length;
    largestFrame = Math.max(largestFrame, length);
    try {
      return Response.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError("the server sent a frame that is not a Response", e);
    }
  }

  /**
   * Reads until the server closes the connection, within {@code patience}; returns the frames read
   * on the way.
   */
  List<Response> readUntilClosed(Duration patience) throws IOException {
    int previous = socket.getSoTimeout();
    socket.setSoTimeout((int) patience.toMillis());
    try {
      List<Response> frames = new ArrayList<>();
      for (Response r; (r = read()) != null; ) {
        frames.add(r);
      }
      return frames;
    } finally {
      if (!socket.isClosed()) {
        socket.setSoTimeout(previous);
      }
    }
  }

  /**
   * As {@link #readUntilClosed}, but a last frame cut short by the close is not an error: a server
   * that gives up on a client that did not read its answers closes the connection wherever its
   * socket buffer was full. Returns the complete frames read.
   */
  List<Response> readUntilClosedOrCut(Duration patience) throws IOException {
    int previous = socket.getSoTimeout();
    socket.setSoTimeout((int) patience.toMillis());
    List<Response> frames = new ArrayList<>();
    try {
      for (Response r; (r = read()) != null; ) {
        frames.add(r);
      }
    } catch (AssertionError e) {
      if (!CUT.equals(e.getMessage())) {
        throw e;
      }
    } finally {
      if (!socket.isClosed()) {
        socket.setSoTimeout(previous);
      }
    }
    return frames;
  }

  /** Events (id 0) read so far while waiting for answers. */
  List<Response> events() {
    return List.copyOf(events);
  }

  long bytesRead() {
    return bytesRead;
  }

  /** The longest frame body received so far. */
  int largestFrame() {
    return largestFrame;
  }

  Socket socket() {
    return socket;
  }

  void setReadTimeout(Duration timeout) throws SocketException {
    socket.setSoTimeout((int) timeout.toMillis());
  }

  /** Half-closes: the server reads end of stream; this client can still read. */
  void shutdownOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** Closes with a TCP reset (SO_LINGER 0), as a client that crashed or lost its network. */
  void abort() throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  // --- answers ---------------------------------------------------------------------------------

  /** The error of {@code response}; fails when it is not an error. */
  static Error error(Response response) {
    requireNonNull(response, "response is null (the connection closed)");
    if (!response.hasError()) {
      throw new AssertionError("expected an error, found " + describe(response));
    }
    return response.getError();
  }

  /** The answer's error code, or null when it is not an error. */
  static ErrorCode errorCode(Response response) {
    return response.hasError() ? ErrorCode.fromCode(response.getError().getCode()) : null;
  }

  /** Fails with the error's code and message when {@code response} is an error. */
  static Response ok(Response response) {
    requireNonNull(response, "response is null (the connection closed)");
    if (response.hasError()) {
      throw new AssertionError("expected success, found " + describe(response));
    }
    return response;
  }

  /** One line naming an answer: its id and body, an error's code and message. */
  static String describe(Response response) {
    if (response == null) {
      return "(the connection closed)";
    }
    if (response.hasError()) {
      Error e = response.getError();
      return String.format(
          "Response[id=%s, error %s (%s) [%s] %s]",
          response.getId(),
          ErrorCode.fromCode(e.getCode()),
          e.getCode(),
          e.getSqlState(),
          e.getMessage());
    }
    return "Response[id=" + response.getId() + ", " + response.getBodyCase() + "]";
  }
}
