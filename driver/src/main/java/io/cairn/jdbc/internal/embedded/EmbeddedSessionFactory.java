package io.cairn.jdbc.internal.embedded;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.jdbc.internal.engine.Session;
import io.cairn.jdbc.internal.engine.SessionFactory;
import io.cairn.jdbc.internal.exec.DriverMemory;
import io.cairn.jdbc.internal.session.DatabaseSession;
import io.cairn.kv.Durability;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Opens sessions on databases whose planner and executor run in this JVM: {@code mem:NAME} (in
 * memory), {@code file:DIR} (durable) and {@code hbase:QUORUM[:PORT][/ZNODE]} (an HBase cluster,
 * through the store of the {@code cairn-hbase} artifact, found on the class path). Reads the
 * connection properties {@code durability}, {@code parallelism}, {@code cairn.*} and, for HBase,
 * {@code hbase.*} and {@code zookeeper.*}.
 */
public final class EmbeddedSessionFactory implements SessionFactory {
  public static final EmbeddedSessionFactory INSTANCE = new EmbeddedSessionFactory();

  /** The setting of the HBase namespace Cairn's tables are in (the cairn-hbase store's). */
  static final String HBASE_NAMESPACE = "cairn.hbase.namespace";

  private EmbeddedSessionFactory() {}

  @Override
  public Session open(String storeName, Properties info) {
    Durability durability = DatabaseSession.durability(info);
    int parallelism = DatabaseSession.parallelism(info);
    long aggregateMaxBytes = DatabaseSession.aggregateMaxBytes(info);
    long queryMemoryMaxBytes = DriverMemory.queryMaxBytes(info);
    long hashJoinMaxBytes = DatabaseSession.hashJoinMaxBytes(info);
    EmbeddedDatabase database;
    if (storeName.startsWith("mem:") && storeName.length() > "mem:".length()) {
      database = EmbeddedDatabase.acquireInMemory(storeName);
    } else if (storeName.startsWith("file:") && storeName.length() > "file:".length()) {
      database = EmbeddedDatabase.acquireFile(directory(storeName), storeSettings(info));
    } else if (storeName.startsWith(ConnectionUrl.HBASE_PREFIX)) {
      Map<String, String> settings = storeSettings(info);
      // one database per cluster and namespace: the namespace names the store, it sets nothing
      String namespace = settings.get(HBASE_NAMESPACE);
      database =
          EmbeddedDatabase.acquire(
              namespace == null ? storeName : storeName + ";" + HBASE_NAMESPACE + "=" + namespace,
              () ->
                  ProvidedStores.open(
                      "hbase", storeName.substring(ConnectionUrl.HBASE_PREFIX.length()), settings),
              true);
    } else {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Unsupported embedded store: expected [mem:NAME] or [file:DIR], found ["
              + storeName
              + "]");
    }
    return new DatabaseSession(
            database, durability, parallelism, aggregateMaxBytes, queryMemoryMaxBytes)
        .withHashJoinMaxBytes(hashJoinMaxBytes)
        .withJoinBuildReuse(DatabaseSession.joinBuildReuse(info));
  }

  /** The store directory of {@code file:DIR}: absolute (from the working directory), normalised. */
  static Path directory(String storeName) {
    String dir = storeName.substring("file:".length());
    try {
      return Paths.get(dir).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Invalid store directory: expected a path, found [" + dir + "]: " + e.getReason(),
          e);
    }
  }

  /**
   * The store settings: every property whose name starts with {@code cairn.}, and for HBase URLs
   * those of HBase's client ({@code hbase.*}, {@code zookeeper.*}).
   */
  static Map<String, String> storeSettings(Properties info) {
    Map<String, String> settings = new TreeMap<>();
    if (info != null) {
      for (String name : info.stringPropertyNames()) {
        if (name.startsWith(ConnectionUrl.STORE_SETTING_PREFIX)
            || ConnectionUrl.isHBaseSetting(name)) {
          settings.put(name, info.getProperty(name));
        }
      }
    }
    return settings;
  }
}
