package io.cairn.hbase;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The in-process HBase mini-cluster of this module's tests: one master, one region server and a
 * ZooKeeper on loopback, without HDFS (root and WAL directories on the local file system, under
 * target/test-data, deleted at the end; {@code TestingHBaseCluster} always starts a mini-DFS),
 * started once per JVM and stopped after the last test. A test gets it as a parameter
 * ({@code @ExtendWith(MiniHBase.class)}, then {@code HBaseTestingUtility hbase}).
 */
public final class MiniHBase implements ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(MiniHBase.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == HBaseTestingUtility.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(Running.class, k -> Running.start(), Running.class)
        .hbase;
  }

  /** The started cluster, stopped and its directory deleted when JUnit closes the root store. */
  private record Running(HBaseTestingUtility hbase)
      implements ExtensionContext.Store.CloseableResource {
    static Running start() {
      HBaseTestingUtility hbase = new HBaseTestingUtility(configuration());
      try {
        hbase.startMiniZKCluster();
        hbase.startMiniHBaseCluster(
            StartMiniClusterOption.builder().numMasters(1).numRegionServers(1).build());
        return new Running(hbase);
      } catch (Exception e) {
        try {
          hbase.shutdownMiniCluster();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
        throw new IllegalStateException("the HBase mini-cluster did not start: " + e, e);
      }
    }

    @Override
    public void close() throws Exception {
      try {
        hbase.shutdownMiniCluster();
      } finally {
        hbase.cleanupTestDir();
      }
    }
  }

  /** Loopback only, no web UIs, the WAL on the local file system. */
  static Configuration configuration() {
    Configuration conf = LocalHBase.loopback();
    // every scan program answers after a millisecond's work: the tests read pages cut short and
    // calls with no rows at all (as a long selective scan's heartbeats), not only full pages
    conf.setLong(io.cairn.hbase.server.ProgramRegionScanner.PAGE_MILLIS, 1);
    return conf;
  }
}
