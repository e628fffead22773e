package io.cairn.hbase;

import io.cairn.core.SuppressForbidden;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

/**
 * {@code bin/cairn hbase start}: an HBase cluster in this process to try Cairn over HBase on one
 * machine: its own ZooKeeper, one master and one region server, on loopback only, its data in a
 * directory of the local file system (no HDFS; kept across restarts), Cairn's region observer on
 * the region server's class path. It prints the JDBC URL and runs until stopped (Ctrl-C, SIGTERM),
 * then shuts the cluster down (the region server flushes its memstores).
 */
@SuppressForbidden(
    reason = "a command line tool: its usage and the URL go to stdout, errors to stderr")
public final class LocalHBase {
  private LocalHBase() {}

  static final String USAGE =
      """
      Usage: bin/cairn hbase start [--data DIR] [--port PORT]

      Starts an HBase 2.6 cluster in one process, for trying Cairn over HBase on one machine:
      its own ZooKeeper on 127.0.0.1:PORT (default 2181), one master and one region server on
      loopback, data in DIR (default ./hbase-data; kept across restarts, no HDFS), Cairn's
      region observer on the region server's class path. Prints the JDBC URL
      (jdbc:cairn:hbase:127.0.0.1:PORT) and runs until Ctrl-C or SIGTERM.
      Connect with: bin/cairn shell jdbc:cairn:hbase:127.0.0.1:PORT
      """;

  public static void main(String[] args) throws Exception {
    Path data = Paths.get("hbase-data");
    int port = 2181;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "-h", "--help" -> {
          System.out.print(USAGE);
          return;
        }
        case "--data" -> data = Paths.get(value(args, ++i, "--data"));
        case "--port" -> port = port(value(args, ++i, "--port"));
        default -> usageError("unknown option '" + args[i] + "'");
      }
    }
    data = data.toAbsolutePath().normalize();
    Files.createDirectories(data);
    Configuration conf = configuration(data, port);
    MiniZooKeeperCluster zookeeper = new MiniZooKeeperCluster(conf);
    zookeeper.setDefaultClientPort(port);
    try {
      zookeeper.startup(data.resolve("zookeeper").toFile());
    } catch (IOException | InterruptedException e) {
      usageError("ZooKeeper could not start on 127.0.0.1:" + port + ": " + e.getMessage());
    }
    LocalHBaseCluster cluster = new LocalHBaseCluster(conf, 1, 1);
    cluster.startup();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  cluster.shutdown();
                  cluster.join();
                  try {
                    zookeeper.shutdown();
                  } catch (IOException e) {
                    // exiting anyway
                  }
                  stopped.countDown();
                },
                "cairn-hbase-stop"));
    while (cluster.getActiveMaster() == null || !cluster.getActiveMaster().isInitialized()) {
      Thread.sleep(100);
    }
    System.out.println(
        "HBase is up (data in "
            + data
            + "). Connect with:\n  jdbc:cairn:hbase:127.0.0.1:"
            + port
            + "\n  bin/cairn shell jdbc:cairn:hbase:127.0.0.1:"
            + port
            + "\nCtrl-C stops it.");
    System.out.flush();
    stopped.await();
  }

  /** One master and one region server on loopback, no web UIs, the data under {@code data}. */
  static Configuration configuration(Path data, int port) {
    Configuration conf = loopback();
    conf.set("hbase.cluster.distributed", "false");
    conf.set("hbase.rootdir", data.resolve("root").toUri().toString());
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    conf.setInt("hbase.master.port", 0);
    conf.setInt("hbase.regionserver.port", 0);
    // the master sends each region open or close to its region server at once, not after waiting
    // 150 ms to batch it with others (HBase's default, for clusters of many servers): CREATE TABLE
    // 680 -> 385 ms, DROP TABLE 480 -> 290 ms on one machine. Not in the tests' mini-cluster:
    // there a region moved to a second region server (TestHBaseFailures) once never arrived
    conf.setInt("hbase.procedure.remote.dispatcher.delay.msec", 0);
    return conf;
  }

  /**
   * A one-machine cluster's settings: master and region server on loopback, no web UIs, the WAL on
   * the local file system (also the tests' mini-cluster's).
   */
  static Configuration loopback() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.set("hbase.master.hostname", "localhost");
    conf.set("hbase.regionserver.hostname", "localhost");
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    return conf;
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      usageError(option + " needs a value");
    }
    return args[i];
  }

  private static int port(String text) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // below
    }
    usageError("--port: expected a port in [1, 65535], found '" + text + "'");
    return -1;
  }

  private static void usageError(String message) {
    System.err.println("cairn hbase: " + message);
    System.exit(2);
  }
}
