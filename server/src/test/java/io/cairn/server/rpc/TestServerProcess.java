package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launcher every server process of the build starts with. */
@Timeout(120)
final class TestServerProcess {
  @TempDir Path temp;

  private static String classPath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null && !surefire.isBlank()
        ? surefire
        : System.getProperty("java.class.path");
  }

  @Test
  void startsAServerThatListensAndStopsItGracefully() throws Exception {
    ServerProcess server =
        ServerProcess.builder(classPath())
            .jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"))
            .arguments(List.of("--mem", "--host", "127.0.0.1", "--port", "0", "--http-port", "-1"))
            .portFile(temp.resolve("server.port"))
            .output(temp.resolve("server.log"), false)
            .stopTimeout(Duration.ofSeconds(60))
            .start();
    try (server) {
      assertThat(server.port()).isPositive();
      assertThat(server.url("db")).isEqualTo("jdbc:cairn://127.0.0.1:" + server.port() + "/db");
      assertThat(server.command())
          .contains(
              ServerProcess.MAIN_CLASS, "--port-file", temp.resolve("server.port").toString());
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
        assertThat(socket.isConnected()).isTrue();
      }
      assertThat(server.isAlive()).isTrue();
      assertThat(server.stopTime()).isNull();
    }
    assertThat(server.isAlive()).isFalse();
    assertThat(server.stopTime()).isNotNull();
    assertThat(server.killed()).isFalse();
    server.close(); // a second close does nothing
  }

  @Test
  void aServerThatExitsBeforeListeningFailsTheStartWithItsOutput() {
    assertThatThrownBy(
            () ->
                ServerProcess.builder(classPath())
                    .arguments(List.of("--no-such-option"))
                    .portFile(temp.resolve("bad.port"))
                    .output(temp.resolve("bad.log"), false)
                    .start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited with")
        .hasMessageContaining("before writing its port")
        .hasMessageContaining("--no-such-option");
  }
}
