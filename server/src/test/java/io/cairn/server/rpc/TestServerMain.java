package io.cairn.server.rpc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: flags over the file, --help, and a real server process. */
class TestServerMain {
  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = ServerMain.run(new PrintWriter(out, true), new PrintWriter(err, true), null, args);
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void helpListsTheFlags() {
    String[] result = run("--help");
    assertThat(result[0]).isEqualTo("0");
    assertThat(result[1])
        .contains("Usage: cairn server")
        .contains("--data=DIR")
        .contains("--mem")
        .contains("--port=PORT")
        .contains("--port-file=FILE")
        .contains("--config=FILE")
        .contains("--set=KEY=VALUE");
  }

  @Test
  void hashPasswordPrintsAHashOfThePasswordOnStandardInput() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        ServerMain.run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            new java.io.ByteArrayInputStream("s3cret pass\n".getBytes(UTF_8)),
            "hash-password",
            "--user",
            "ann",
            "--iterations",
            "1000");
    assertThat(code).as("%s", err).isZero();
    String line = out.toString().trim();
    assertThat(line).startsWith("user.ann=pbkdf2-sha256$1000$");
    String hash = line.substring("user.ann=".length());
    assertThat(io.cairn.server.security.PasswordHasher.verify("s3cret pass".toCharArray(), hash))
        .isTrue();
    assertThat(
            ServerMain.run(
                new PrintWriter(out, true),
                new PrintWriter(err, true),
                new java.io.ByteArrayInputStream(new byte[0]),
                "hash-password"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("Expected a password, found none");
  }

  @Test
  void badSettingsFailWithAMessageNamingTheKey() {
    String[] result = run("--mem", "--set", "page.max-rows=lots", "--port", "0");
    assertThat(result[0]).isEqualTo("1");
    assertThat(result[2])
        .contains("cairn server: Invalid server setting page.max-rows")
        .contains("[lots]");
    String[] both = run("--mem", "--data", "x");
    assertThat(both[0]).isEqualTo("2");
    assertThat(both[2]).contains("--mem and --data exclude each other");
  }

  @Test
  void flagsOverrideTheConfigurationFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("server.properties");
    Files.writeString(file, "port=9000\nhost=0.0.0.0\ndata=/somewhere\npage.max-rows=10\n", UTF_8);
    ServerMain main = new ServerMain();
    new picocli.CommandLine(main)
        .parseArgs(
            "--config", file.toString(), "--mem", "--port", "9001", "-s", "page.max-rows=20");
    Map<String, String> properties = main.properties();
    assertThat(properties)
        .containsEntry("port", "9001")
        .containsEntry("host", "0.0.0.0")
        .containsEntry("mem", "true")
        .containsEntry("page.max-rows", "20")
        .doesNotContainKey("data");
    ServerConfig config = ServerConfig.from(properties);
    assertThat(config.inMemory()).isTrue();
    assertThat(config.port()).isEqualTo(9001);
  }

  @Test
  void aServerProcessWritesItsPortAndStopsGracefullyOnSigterm(@TempDir Path dir) throws Exception {
    Path portFile = dir.resolve("port");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("-Xmx256m");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info"); // over the tests' warn
    command.add(ServerMain.class.getName());
    command.addAll(
        List.of(
            "--data",
            dir.resolve("data").toString(),
            "--port",
            "0",
            "--http-port",
            "-1",
            "--port-file",
            portFile.toString()));
    Path log = dir.resolve("server.log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(portFile)) {
        assertThat(process.isAlive()).as("server process alive; log:%n%s", read(log)).isTrue();
        assertThat(System.nanoTime()).as("port file written within 60 s").isLessThan(deadline);
        Thread.sleep(20);
      }
      int port = Integer.parseInt(Files.readString(portFile, UTF_8).trim());
      try (TestingRpcClient client = TestingRpcClient.open(port, "named")) {
        TestingRpcTables.load(client, TestingRpcTables.create(client, "T"), 0, 100);
        assertThat(client.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
            .isTrue();
        process.destroy(); // SIGTERM: the shutdown hook closes the server
        // the client's own CREATE TABLE was announced first
        assertThat(client.awaitEvent().getEvent().hasCatalogChanged()).isTrue();
        assertThat(client.awaitEvent().getEvent().hasShuttingDown()).isTrue();
      }
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    } finally {
      process.destroyForcibly();
    }
    String output = read(log);
    assertThat(output)
        .contains("listening on 127.0.0.1:")
        .contains("Opened database named")
        .contains("stopped in");
    assertThat(dir.resolve("data/databases/named/store.manifest")).exists();
  }

  private static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log, UTF_8) : "";
  }
}
