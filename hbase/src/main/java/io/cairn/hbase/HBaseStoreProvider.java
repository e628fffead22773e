package io.cairn.hbase;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvStoreProvider;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * The {@code hbase} store of {@code jdbc:cairn:hbase:QUORUM[:PORT][/ZNODE]} URLs, found by the
 * driver on the class path: QUORUM becomes {@code hbase.zookeeper.quorum}, PORT {@code
 * hbase.zookeeper.property.clientPort} (default 2181), ZNODE {@code zookeeper.znode.parent}
 * (default {@code /hbase}), as in Phoenix's URLs. The connection's {@code hbase.*} and {@code
 * zookeeper.*} properties go to HBase's client as they are; of Cairn's own settings it takes
 * {@value #NAMESPACE} (the HBase namespace of the tables, default {@value #DEFAULT_NAMESPACE}) and
 * refuses the others (they set up Cairn's own store). Unless an hbase-site.xml or a property sets
 * it, {@value #OPERATION_TIMEOUT} is {@value #DEFAULT_OPERATION_TIMEOUT_MILLIS} ms.
 */
public final class HBaseStoreProvider implements KvStoreProvider {
  /** The setting naming the HBase namespace Cairn's tables live in. */
  public static final String NAMESPACE = "cairn.hbase.namespace";

  /** HBase's bound on each client call, retries included. */
  static final String OPERATION_TIMEOUT = "hbase.client.operation.timeout";

  /**
   * Cairn's default for {@value #OPERATION_TIMEOUT} (HBase's own is 20 minutes): a statement meets
   * a cluster that went away with an error within a minute, not a wait that looks like a hang.
   */
  static final long DEFAULT_OPERATION_TIMEOUT_MILLIS = 60_000;

  public static final String DEFAULT_NAMESPACE = "cairn";

  private static final Pattern LOCATION =
      Pattern.compile(
          "(?<quorum>[A-Za-z0-9_.\\-]+(?:,[A-Za-z0-9_.\\-]+)*)(?::(?<port>[0-9]{1,5}))?"
              + "(?<znode>/[A-Za-z0-9_.\\-/]*)?");

  @Override
  public String scheme() {
    return "hbase";
  }

  @Override
  public KvStore open(String location, Map<String, String> settings) {
    Configuration conf = configuration(location, settings);
    return HBaseKvStore.open(conf, settings.getOrDefault(NAMESPACE, DEFAULT_NAMESPACE));
  }

  /**
   * HBase's client configuration for {@code location} (QUORUM[:PORT][/ZNODE]) and {@code settings}.
   *
   * @throws CairnException INVALID_URL for a malformed location or a setting this store does not
   *     take
   */
  static Configuration configuration(String location, Map<String, String> settings) {
    Matcher m = LOCATION.matcher(location);
    if (!m.matches()) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Invalid HBase location: expected QUORUM[:PORT][/ZNODE] (ZooKeeper hosts separated by"
              + " ',', their client port, HBase's parent znode), found ["
              + location
              + "]");
    }
    int port = m.group("port") == null ? 2181 : Integer.parseInt(m.group("port"));
    if (port < 1 || port > 65535) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Invalid HBase location ["
              + location
              + "]: expected a PORT in [1, 65535], found ["
              + port
              + "]");
    }
    Configuration conf = HBaseConfiguration.create();
    if (setByHBaseDefaults(conf, OPERATION_TIMEOUT)) {
      conf.setLong(OPERATION_TIMEOUT, DEFAULT_OPERATION_TIMEOUT_MILLIS);
    }
    conf.set("hbase.zookeeper.quorum", m.group("quorum"));
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    String znode = m.group("znode");
    if (znode != null && znode.length() > 1) {
      conf.set(
          "zookeeper.znode.parent",
          znode.endsWith("/") ? znode.substring(0, znode.length() - 1) : znode);
    }
    for (Map.Entry<String, String> e : settings.entrySet()) {
      String name = e.getKey();
      if (name.startsWith("hbase.") || name.startsWith("zookeeper.")) {
        conf.set(name, e.getValue());
      } else if (name.equals(NAMESPACE)) {
        if (!HBaseNames.isNamespace(e.getValue())) {
          throw new CairnException(
              ErrorCode.INVALID_URL,
              "Invalid setting ["
                  + NAMESPACE
                  + "]: expected an HBase namespace (letters, digits, '_'), found ["
                  + e.getValue()
                  + "]");
        }
      } else {
        throw new CairnException(
            ErrorCode.INVALID_URL,
            "Setting ["
                + name
                + "] does not apply to an HBase store: expected "
                + NAMESPACE
                + ", hbase.* or zookeeper.* (HBase's client settings)");
      }
    }
    return conf;
  }

  /** Whether {@code name}'s value comes from HBase's defaults, not an hbase-site.xml. */
  private static boolean setByHBaseDefaults(Configuration conf, String name) {
    String[] sources = conf.getPropertySources(name);
    return sources == null
        || java.util.Arrays.stream(sources).allMatch(s -> s.equals("hbase-default.xml"));
  }
}
