package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The admission settings: defaults, the mapping of every key, errors naming the key. */
class TestConnectionConfig {
  @Test
  void defaults() {
    ConnectionConfig c = ServerConfig.defaults().connections();
    assertThat(c.handshakeTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.idleTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(c.frameReadTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.maxConnections())
        .isEqualTo(ConnectionConfig.defaultMaxConnections(ConnectionConfig.fileDescriptorLimit()));
    assertThat(c.maxConnectionsPerAddress()).isEqualTo(1000);
    assertThat(c.maxUnauthenticatedConnections()).isEqualTo(256);
    assertThat(c.preLoginMaxFrameBytes()).isEqualTo(64 << 10);
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(c.loginThreads()).isEqualTo(Math.max(1, Math.min(4, cores / 4)));
    assertThat(c.loginQueueSize()).isEqualTo(64);
    assertThat(c.loginFailuresBeforeBackoff()).isEqualTo(5);
    assertThat(c.loginMaxBackoff()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void theDefaultMaximumIsHalfTheDescriptorsWithinBounds() {
    assertThat(ConnectionConfig.defaultMaxConnections(1024)).isEqualTo(512);
    assertThat(ConnectionConfig.defaultMaxConnections(100)).isEqualTo(64);
    assertThat(ConnectionConfig.defaultMaxConnections(1 << 20)).isEqualTo(10_000);
    assertThat(ConnectionConfig.defaultMaxConnections(-1)).isEqualTo(10_000);
  }

  @Test
  void everyKeyMaps() {
    ConnectionConfig c =
        ServerConfig.from(
                Map.ofEntries(
                    Map.entry("handshake-timeout", "1s"),
                    Map.entry("idle-timeout", "0"),
                    Map.entry("frame-read-timeout", "500ms"),
                    Map.entry("max-connections", "100"),
                    Map.entry("max-connections-per-address", "10"),
                    Map.entry("max-unauthenticated-connections", "20"),
                    Map.entry("pre-login.max-frame-bytes", "8k"),
                    Map.entry("login.threads", "3"),
                    Map.entry("login.queue-size", "5"),
                    Map.entry("login.failures-before-backoff", "2"),
                    Map.entry("login.max-backoff", "0s")))
            .connections();
    assertThat(c)
        .isEqualTo(
            new ConnectionConfig(
                Duration.ofSeconds(1),
                Duration.ZERO,
                Duration.ofMillis(500),
                100,
                10,
                20,
                8192,
                3,
                5,
                2,
                Duration.ZERO));
  }

  @Test
  void badValuesNameTheKey() {
    assertThatThrownBy(() -> ServerConfig.from(Map.of("handshake-timeout", "0")))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("handshake-timeout")
        .hasMessageContaining("[0]");
    assertThatThrownBy(() -> ServerConfig.from(Map.of("max-connections", "0")))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("max-connections");
    assertThatThrownBy(() -> ServerConfig.from(Map.of("pre-login.max-frame-bytes", "100")))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("pre-login.max-frame-bytes");
  }
}
