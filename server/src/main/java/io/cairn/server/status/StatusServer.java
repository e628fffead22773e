package io.cairn.server.status;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.cairn.core.SuppressForbidden;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's status page over HTTP, on the JDK's built-in server ({@code jdk.httpserver}):
 *
 * <ul>
 *   <li>{@code GET /}: the page (HTML);
 *   <li>{@code GET /status.json}: the same snapshot as JSON;
 *   <li>{@code GET /health}: {@code ok}, for load balancers and scripts;
 * </ul>
 *
 * <p>404 for other paths, 405 for other methods, 500 (logged) when the snapshot fails. Each request
 * takes a new snapshot from the supplier, on one of the server's two daemon threads. Close it: the
 * JDK server's dispatcher thread is not a daemon.
 *
 * <p>Access ({@link StatusAccess}): when the server has users, {@code /} and {@code /status.json}
 * need HTTP basic authentication as one of them (401 with a challenge otherwise) and show client
 * addresses and user names to administrators only; key values (region boundaries) are shown only
 * when an administrator asks with {@code ?keys=1}. {@code /health} is always open. With an {@link
 * SSLContext} the server speaks HTTPS only (the network server's certificate, when its TLS is on).
 */
@SuppressForbidden(
    reason =
        "com.sun.net.httpserver is the JDK's supported, exported HTTP server API (module"
            + " jdk.httpserver), in every JDK; forbiddenapis counts every com.sun package as"
            + " internal")
public final class StatusServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final int THREADS = 2;
  private static final int BACKLOG = 16;

  private final HttpServer http;
  private final ExecutorService executor;
  private final Supplier<ServerStatus> status;
  private final StatusAccess access;
  private final boolean https;
  private final AtomicBoolean closed = new AtomicBoolean();

  private StatusServer(
      HttpServer http,
      ExecutorService executor,
      Supplier<ServerStatus> status,
      StatusAccess access,
      boolean https) {
    this.http = http;
    this.executor = executor;
    this.status = status;
    this.access = access;
    this.https = https;
  }

  /**
   * Listens on {@code bind} (port 0: any free port, see {@link #port()}) and serves snapshots from
   * {@code status}.
   *
   * @throws CairnException IO_ERROR naming the address when it cannot listen there (in use, not an
   *     address of this machine)
   */
  public static StatusServer start(InetSocketAddress bind, Supplier<ServerStatus> status) {
    return start(bind, status, StatusAccess.open(), null);
  }

  /**
   * As {@link #start(InetSocketAddress, Supplier)}, letting in whom {@code access} lets in, over
   * HTTPS with {@code tlsOrNull} when it is not null.
   */
  public static StatusServer start(
      InetSocketAddress bind,
      Supplier<ServerStatus> status,
      StatusAccess access,
      SSLContext tlsOrNull) {
    requireNonNull(bind, "bind is null");
    requireNonNull(status, "status is null");
    requireNonNull(access, "access is null");
    HttpServer http;
    try {
      if (tlsOrNull == null) {
        http = HttpServer.create(bind, BACKLOG);
      } else {
        HttpsServer server = HttpsServer.create(bind, BACKLOG);
        // the context's defaults: TLS 1.3 and 1.2 (the JDK disables older versions)
        server.setHttpsConfigurator(new HttpsConfigurator(tlsOrNull));
        http = server;
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Cannot serve the status page on [" + bind + "]: " + e.getMessage(),
          e);
    }
    AtomicInteger threads = new AtomicInteger();
    ExecutorService executor =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "cairn-status-http-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    StatusServer server = new StatusServer(http, executor, status, access, tlsOrNull != null);
    http.createContext("/", server::handle);
    http.setExecutor(executor);
    http.start();
    LOG.info(
        "Status page on {}://{}/ ({})",
        tlsOrNull != null ? "https" : "http",
        formatAddress(http.getAddress()),
        access.required() ? "users log in" : "open: the server has no users");
    return server;
  }

  /** The port it listens on (the one chosen when started with port 0). */
  public int port() {
    return http.getAddress().getPort();
  }

  /** True when it speaks HTTPS. */
  public boolean https() {
    return https;
  }

  /** The address it listens on. */
  public InetSocketAddress address() {
    return http.getAddress();
  }

  /** Stops listening (the port is free on return) and stops its threads within a second. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    http.stop(0);
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(1, TimeUnit.SECONDS)) {
        LOG.warn("Status page threads did not stop within a second");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) {
    try {
      String path = exchange.getRequestURI().getPath();
      if (!path.equals("/") && !path.equals("/status.json") && !path.equals("/health")) {
        send(
            exchange,
            404,
            "text/plain",
            "Not found: the status server serves /, /status.json" + " and /health\n");
        return;
      }
      if (!exchange.getRequestMethod().equals("GET")) {
        exchange.getResponseHeaders().set("Allow", "GET");
        send(exchange, 405, "text/plain", "Method not allowed: only GET\n");
        return;
      }
      if (path.equals("/health")) {
        send(exchange, 200, "text/plain", "ok\n");
        return;
      }
      StatusAccess.Decision decision =
          access.check(
              exchange.getRequestHeaders().getFirst("Authorization"),
              exchange.getRemoteAddress().getAddress());
      if (!decision.allowed()) {
        refuse(exchange, decision);
        return;
      }
      StatusAccess.Viewer viewer = decision.viewer();
      StatusView view = new StatusView(viewer.admin(), viewer.admin() && asksForKeys(exchange));
      if (path.equals("/status.json")) {
        send(exchange, 200, "application/json", StatusJson.render(snapshot(), view));
      } else {
        send(exchange, 200, "text/html", StatusPage.render(snapshot(), view));
      }
    } catch (IOException e) {
      LOG.debug("Status page request failed (the client went away?)", e);
    } catch (RuntimeException e) {
      LOG.warn("Status page request failed", e);
      try {
        send(exchange, 500, "text/plain", "Status unavailable: " + e.getClass().getSimpleName());
      } catch (IOException | RuntimeException suppressed) {
        // headers already sent, or the client went away: the log has it
      }
    } finally {
      exchange.close(); // after the 500 above: try-with-resources would close before the catch
    }
  }

  /** True when the query string has {@code keys=1}. */
  private static boolean asksForKeys(HttpExchange exchange) {
    String query = exchange.getRequestURI().getRawQuery();
    if (query == null) {
      return false;
    }
    for (String part : query.split("&", -1)) {
      if (part.equals("keys=1") || part.equals("keys=true")) {
        return true;
      }
    }
    return false;
  }

  private static void refuse(HttpExchange exchange, StatusAccess.Decision decision)
      throws IOException {
    if (decision.status() == 401) {
      exchange.getResponseHeaders().set("WWW-Authenticate", StatusAccess.CHALLENGE);
    }
    if (decision.retryAfterSeconds() > 0) {
      exchange.getResponseHeaders().set("Retry-After", Long.toString(decision.retryAfterSeconds()));
    }
    send(exchange, decision.status(), "text/plain", decision.message() + "\n");
  }

  private ServerStatus snapshot() {
    return requireNonNull(status.get(), "the status supplier returned null");
  }

  private static void send(HttpExchange exchange, int code, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(UTF_8);
    var headers = exchange.getResponseHeaders();
    headers.set("Content-Type", type + "; charset=utf-8");
    headers.set("Cache-Control", "no-store");
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("X-Frame-Options", "DENY");
    headers.set(
        "Content-Security-Policy",
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    headers.set("Referrer-Policy", "no-referrer");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static String formatAddress(InetSocketAddress a) {
    String host = a.getAddress().getHostAddress();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
  }
}
