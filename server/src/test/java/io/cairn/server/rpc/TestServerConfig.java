package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.server.security.PasswordHasher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The defaults, the mapping of every key, and errors that name the key. */
class TestServerConfig {
  @Test
  void defaults() {
    ServerConfig c = ServerConfig.defaults();
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(c.host()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isEqualTo(7575);
    assertThat(c.httpHost()).isEqualTo("127.0.0.1");
    assertThat(c.httpPort()).isEqualTo(7576);
    assertThat(c.data()).isEmpty();
    assertThat(c.inMemory()).isTrue();
    assertThat(c.maxFrameBytes()).isEqualTo(16 << 20);
    assertThat(c.workerThreads()).isEqualTo(Math.max(4, 2 * cores));
    assertThat(c.queueSize()).isEqualTo(1024);
    assertThat(c.maxInFlight()).isEqualTo(128);
    assertThat(c.pageMaxRows()).isEqualTo(4096);
    assertThat(c.pageMaxBytes()).isEqualTo(1 << 20);
    assertThat(c.pageMaxMillis()).isEqualTo(1000);
    assertThat(c.scannerIdleTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(c.maxSnapshotsPerConnection()).isEqualTo(1024);
    assertThat(c.slowRequestMillis()).isEqualTo(1000);
    assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.hashCacheMaxBytes()).isEqualTo(256L << 20);
    assertThat(c.tls()).isFalse();
    assertThat(c.tlsKeyPassword()).isEmpty();
    assertThat(c.authenticationRequired()).isFalse();
    assertThat(c.storeSettings()).isEmpty();
  }

  @Test
  void queryMemoryBudgets() {
    long heap = Runtime.getRuntime().maxMemory();
    QueryMemoryConfig d = ServerConfig.defaults().queryMemory();
    assertThat(d.maxBytes()).isEqualTo((long) (heap * 0.4));
    assertThat(d.databaseMaxBytes()).isEqualTo(d.maxBytes());
    assertThat(d.connectionMaxBytes()).isEqualTo(d.maxBytes());
    assertThat(d.waitTime()).isEqualTo(Duration.ofSeconds(1));
    QueryMemoryConfig c =
        ServerConfig.from(
                Map.of(
                    "query-memory.max-bytes", "1g",
                    "query-memory.database-max-bytes", "600m",
                    "query-memory.connection-max-bytes", "100m",
                    "query-memory.wait", "250ms"))
            .queryMemory();
    assertThat(c)
        .isEqualTo(new QueryMemoryConfig(1L << 30, 600L << 20, 100L << 20, Duration.ofMillis(250)));
    // a smaller database budget bounds the connections' default
    assertThat(
            ServerConfig.from(
                    Map.of(
                        "query-memory.max-bytes", "1g", "query-memory.database-max-bytes", "300m"))
                .queryMemory()
                .connectionMaxBytes())
        .isEqualTo(300L << 20);
    for (String key :
        new String[] {
          "query-memory.max-bytes",
          "query-memory.database-max-bytes",
          "query-memory.connection-max-bytes",
          "query-memory.wait"
        }) {
      assertThatThrownBy(() -> ServerConfig.from(Map.of(key, "-5")))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining(key)
          .hasMessageContaining("[-5]");
    }
  }

  @Test
  void everyKeyMaps() {
    String hash = PasswordHasher.hash("x".toCharArray(), PasswordHasher.MIN_ITERATIONS);
    Map<String, String> p = new HashMap<>();
    p.put("host", "0.0.0.0");
    p.put("port", "0");
    p.put("http.host", "10.0.0.1");
    p.put("http.port", "-1");
    p.put("data", "/var/lib/cairn/../cairn");
    p.put("max-frame-bytes", "1m");
    p.put("worker-threads", "3");
    p.put("queue-size", "7");
    p.put("max-in-flight", "9");
    p.put("page.max-rows", "100");
    p.put("page.max-bytes", "64k");
    p.put("page.max-millis", "250");
    p.put("scanner-idle-timeout", "90s");
    p.put("max-snapshots-per-connection", "12");
    p.put("slow-request-millis", "0");
    p.put("shutdown-timeout", "2m");
    p.put("hash-cache.max-bytes", "1g");
    p.put("tls.certificate", "/etc/cairn/cert.pem");
    p.put("tls.key", "/etc/cairn/key.pem");
    p.put("tls.key-password", "hush");
    p.put("user.ann", hash);
    p.put("cairn.memstore.flush-size", "64m");
    ServerConfig c = ServerConfig.from(p);
    assertThat(c.host()).isEqualTo("0.0.0.0");
    assertThat(c.port()).isZero();
    assertThat(c.httpHost()).isEqualTo("10.0.0.1");
    assertThat(c.httpPort()).isEqualTo(-1);
    assertThat(c.data()).contains(Path.of("/var/lib/cairn"));
    assertThat(c.inMemory()).isFalse();
    assertThat(c.maxFrameBytes()).isEqualTo(1 << 20);
    assertThat(c.workerThreads()).isEqualTo(3);
    assertThat(c.queueSize()).isEqualTo(7);
    assertThat(c.maxInFlight()).isEqualTo(9);
    assertThat(c.pageMaxRows()).isEqualTo(100);
    assertThat(c.pageMaxBytes()).isEqualTo(64 << 10);
    assertThat(c.pageMaxMillis()).isEqualTo(250);
    assertThat(c.scannerIdleTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.maxSnapshotsPerConnection()).isEqualTo(12);
    assertThat(c.slowRequestMillis()).isZero();
    assertThat(c.shutdownTimeout()).isEqualTo(Duration.ofMinutes(2));
    assertThat(c.hashCacheMaxBytes()).isEqualTo(1L << 30);
    assertThat(c.tlsCertificate()).contains(Path.of("/etc/cairn/cert.pem"));
    assertThat(c.tlsKey()).contains(Path.of("/etc/cairn/key.pem"));
    assertThat(c.tlsKeyPassword()).isEqualTo(Optional.of("hush"));
    assertThat(c.tls()).isTrue();
    assertThat(c.users()).containsExactly(Map.entry("user.ann", hash));
    assertThat(c.authenticationRequired()).isTrue();
    assertThat(c.storeSettings()).containsExactly(Map.entry("cairn.memstore.flush-size", "64m"));
    assertThat(c.toString()).doesNotContain("hush").doesNotContain(hash);
    assertThat(c.withPort(1234).port()).isEqualTo(1234);
    // mem=true is the same as no data
    assertThat(ServerConfig.from(Map.of("mem", "true")).inMemory()).isTrue();
    // the page's default follows a small frame
    assertThat(ServerConfig.from(Map.of("max-frame-bytes", "64k")).pageMaxBytes())
        .isEqualTo(32 << 10);
  }

  @Test
  void databaseSettings() {
    DatabasePolicy anonymous = ServerConfig.defaults().databasePolicy();
    assertThat(anonymous.createDatabases()).isEqualTo(DatabasePolicy.CreateRule.ANY);
    assertThat(anonymous.admins()).isEmpty();
    assertThat(anonymous.maxDatabases()).isEqualTo(64);
    assertThat(anonymous.idleTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(anonymous.mayCreate("")).isTrue();

    String hash = PasswordHasher.hash("x".toCharArray(), PasswordHasher.MIN_ITERATIONS);
    DatabasePolicy withUsers =
        ServerConfig.from(Map.of("user.ann", hash, "user.bob", hash)).databasePolicy();
    assertThat(withUsers.createDatabases()).isEqualTo(DatabasePolicy.CreateRule.ADMIN);
    assertThat(withUsers.mayCreate("ann")).isFalse(); // no admins named

    ServerConfig c =
        ServerConfig.from(
            Map.of(
                "user.ann", hash,
                "user.bob", hash,
                "admins", " ann ",
                "max-databases", "5",
                "database-idle-timeout", "0"));
    DatabasePolicy p = c.databasePolicy();
    assertThat(p.admins()).containsExactly("ann");
    assertThat(p.isAdmin("ann")).isTrue();
    assertThat(p.isAdmin("bob")).isFalse();
    assertThat(p.mayCreate("ann")).isTrue();
    assertThat(p.mayCreate("bob")).isFalse();
    assertThat(p.mayCreate("")).isFalse();
    assertThat(p.maxDatabases()).isEqualTo(5);
    assertThat(p.idleTimeout()).isZero();
    assertThat(c.withPort(1).databasePolicy()).isEqualTo(p);
    assertThat(
            ServerConfig.from(Map.of("create-databases", "None", "database-idle-timeout", "30s"))
                .databasePolicy())
        .satisfies(
            q -> {
              assertThat(q.createDatabases()).isEqualTo(DatabasePolicy.CreateRule.NONE);
              assertThat(q.idleTimeout()).isEqualTo(Duration.ofSeconds(30));
            });

    assertInvalid(Map.of("create-databases", "all"), "create-databases", "admin, any or none");
    assertInvalid(Map.of("max-databases", "0"), "max-databases", "[0]");
    assertInvalid(Map.of("database-idle-timeout", "soon"), "database-idle-timeout", "[soon]");
    assertInvalid(
        Map.of("user.ann", hash, "admins", "ann,carl"),
        "admins",
        "found [carl] without a user.carl entry");
    assertInvalid(Map.of("admins", "ann"), "admins", "[ann]");
    assertInvalid(Map.of("user.ann", hash, "admins", "ann,,"), "admins", "comma-separated");
  }

  private static void assertInvalid(Map<String, String> p, String... fragments) {
    assertThatThrownBy(() -> ServerConfig.from(p))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContainingAll(fragments);
  }

  @Test
  void badValuesNameTheKeyAndWhatWasExpected() {
    assertInvalid(Map.of("prot", "1"), "Unknown server setting [prot]", "port");
    assertInvalid(Map.of("port", "x"), "port", "a whole number in [0, 65535]", "[x]");
    assertInvalid(Map.of("port", "70000"), "port", "[70000]");
    assertInvalid(Map.of("http.port", "-2"), "http.port", "[-1, 65535]");
    assertInvalid(Map.of("host", " "), "host", "a host name or IP address");
    assertInvalid(Map.of("worker-threads", "0"), "worker-threads", "[0]");
    assertInvalid(Map.of("max-frame-bytes", "1"), "max-frame-bytes", "[1]");
    assertInvalid(
        Map.of("max-frame-bytes", "64k", "page.max-bytes", "1m"),
        "page.max-bytes",
        "half of max-frame-bytes",
        "[1m]");
    assertInvalid(Map.of("scanner-idle-timeout", "10"), "scanner-idle-timeout", "such as 500ms");
    assertInvalid(Map.of("shutdown-timeout", "soon"), "shutdown-timeout", "[soon]");
    assertInvalid(Map.of("mem", "yes"), "mem", "true or false", "[yes]");
    assertInvalid(Map.of("mem", "true", "data", "/x"), "mem", "one or the other");
    assertInvalid(Map.of("mem", "false"), "data", "a directory when mem is false");
    assertInvalid(Map.of("tls.certificate", "/c.pem"), "tls.key", "go together");
    assertInvalid(Map.of("tls.key-password", "p"), "tls.key", "tls.key-password");
    assertInvalid(Map.of("user.", "x"), "user.");
    assertInvalid(Map.of("user.ann", "plaintext"), "user.ann");
    assertInvalid(Map.of("cairn.memstore.flush-size", "big"), "cairn.memstore.flush-size");
    assertInvalid(Map.of("cairn.no-such", "1"), "cairn.no-such");
  }
}
