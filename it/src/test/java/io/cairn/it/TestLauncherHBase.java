package io.cairn.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cairn over HBase on one machine in two commands, as docs/hbase.md tells a new user: {@code
 * bin/cairn hbase start} (a real process with its own ZooKeeper, master and region server), then
 * {@code bin/cairn shell jdbc:cairn:hbase:127.0.0.1:PORT} (another process, HBase's client only);
 * the tables are still there after the cluster stops and starts again on the same directory, this
 * time as a real cluster's region server would run Cairn: HBase's jars and the shipped {@code
 * cairn-hbase-server} jar only (the aggregate that reads them back runs in its region observer).
 */
final class TestLauncherHBase {
  private static final String LOAD =
      """
      CREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(20), age INTEGER);
      UPSERT INTO people VALUES (1, 'ann', 31), (2, 'bob', 45), (3, 'cy', 27);
      SELECT name, age FROM people WHERE age > 30 ORDER BY name;
      """;

  private static final String READ =
      """
      SELECT COUNT(*), SUM(age) FROM people;
      """;

  @Test
  void startAClusterThenQueryItFromTheShell(@TempDir Path dir) throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String url = "jdbc:cairn:hbase:127.0.0.1:" + port;
    Path load = dir.resolve("load.sql");
    Files.writeString(load, LOAD, UTF_8);
    Path read = dir.resolve("read.sql");
    Files.writeString(read, READ, UTF_8);

    Process cluster = startCluster(dir, port, "1", Map.of());
    try {
      CairnLauncher.Result loaded = CairnLauncher.runBuilt(dir, "shell", url, "--run=" + load);
      assertThat(loaded.exitCode()).as(loaded.describe()).isZero();
      List<SqllineTables.Table> tables = SqllineTables.parse(loaded.stdout());
      assertThat(tables).as(loaded.describe()).hasSize(1);
      assertThat(tables.get(0).rows()).containsExactly(List.of("ann", "31"), List.of("bob", "45"));
      // the tools take the HBase client onto their class path for an HBase URL too
      CairnLauncher.Result tpch =
          CairnLauncher.runBuilt(
              dir, "tpch", "load", "--sf=0.001", "--tables=nation,region", "--url=" + url);
      assertThat(tpch.exitCode()).as(tpch.describe()).isZero();
      Path count = dir.resolve("count.sql");
      Files.writeString(
          count, "SELECT COUNT(*) FROM NATION, REGION WHERE N_REGIONKEY = R_REGIONKEY;\n");
      CairnLauncher.Result joined = CairnLauncher.runBuilt(dir, "shell", url, "--run=" + count);
      assertThat(SqllineTables.parse(joined.stdout()).get(0).rows())
          .as(joined.describe())
          .containsExactly(List.of("25"));
    } finally {
      stop(cluster);
    }

    cluster =
        startCluster(
            dir,
            port,
            "2",
            Map.of("CAIRN_HBASE_CLASSPATH_FILE", serverJarClasspath(dir).toString()));
    try {
      CairnLauncher.Result again = CairnLauncher.runBuilt(dir, "shell", url, "--run=" + read);
      assertThat(again.exitCode()).as(again.describe()).isZero();
      assertThat(SqllineTables.parse(again.stdout()).get(0).rows())
          .as(again.describe())
          .containsExactly(List.of("3", "103"));
    } finally {
      stop(cluster);
    }
  }

  /** {@code bin/cairn hbase start} on {@code dir/hbase}, once it printed its URL. */
  private static Process startCluster(Path dir, int port, String run, Map<String, String> env)
      throws IOException, InterruptedException {
    Path out = dir.resolve("cluster-" + run + ".out");
    Path err = dir.resolve("cluster-" + run + ".err");
    Process cluster =
        CairnLauncher.start(
            dir,
            out,
            err,
            env,
            "hbase",
            "start",
            "--data",
            dir.resolve("hbase").toString(),
            "--port",
            Integer.toString(port));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.readString(out, UTF_8).contains("jdbc:cairn:hbase:127.0.0.1:" + port)) {
      if (!cluster.isAlive() || System.nanoTime() > deadline) {
        stop(cluster);
        throw new AssertionError(
            "bin/cairn hbase start did not come up:\n"
                + Files.readString(out, UTF_8)
                + "\n--- stderr ---\n"
                + Files.readString(err, UTF_8));
      }
      Thread.sleep(200);
    }
    return cluster;
  }

  /**
   * A class path file of HBase's own jars (those of the hbase module's server class path that are
   * not Cairn's) and target/cairn-hbase-server-*.jar.
   */
  private static Path serverJarClasspath(Path dir) throws IOException {
    Path target = CairnLauncher.root().resolve("hbase/target");
    Path jar;
    try (Stream<Path> files = Files.list(target)) {
      jar =
          files
              .filter(f -> f.getFileName().toString().matches("cairn-hbase-server-.*\\.jar"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no cairn-hbase-server jar in " + target));
    }
    List<String> entries = new ArrayList<>(List.of(jar.toString()));
    for (String entry :
        Files.readString(target.resolve("server-classpath.txt"), UTF_8).strip().split(":")) {
      // Cairn's own jars: in the local repository, or a module's target/ in a reactor build
      String file = Path.of(entry).getFileName().toString();
      if (!file.startsWith("cairn-") && !entry.endsWith("/classes")) {
        entries.add(entry);
      }
    }
    assertThat(entries.subList(1, entries.size()))
        .noneMatch(e -> Path.of(e).getFileName().toString().startsWith("cairn-"));
    Path file = dir.resolve("server-jar-classpath.txt");
    Files.writeString(file, String.join(":", entries), UTF_8);
    return file;
  }

  /** SIGTERM (the cluster shuts down, flushing), then what is left is killed. */
  private static void stop(Process cluster) throws InterruptedException {
    cluster.descendants().forEach(ProcessHandle::destroy);
    cluster.destroy();
    if (!cluster.waitFor(60, TimeUnit.SECONDS)) {
      cluster.descendants().forEach(ProcessHandle::destroyForcibly);
      cluster.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
