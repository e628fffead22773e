package io.cairn.jdbc.internal.remote;

import io.cairn.jdbc.internal.engine.Session;
import io.cairn.jdbc.internal.engine.SessionFactory;
import io.cairn.jdbc.internal.exec.DriverMemory;
import io.cairn.jdbc.internal.session.DatabaseSession;
import io.cairn.kv.Durability;
import java.util.Properties;

/**
 * Opens sessions on Cairn servers: store names {@code //host:port[/database]}. Reads the connection
 * properties of {@link RemoteConfig}, {@code durability} and {@code parallelism}.
 */
public final class RemoteSessionFactory implements SessionFactory {
  public static final RemoteSessionFactory INSTANCE = new RemoteSessionFactory();

  private RemoteSessionFactory() {}

  @Override
  public Session open(String storeName, Properties info) {
    Durability durability = DatabaseSession.durability(info);
    int parallelism = DatabaseSession.parallelism(info);
    RemoteConfig config = RemoteConfig.from(storeName, info);
    long aggregateMaxBytes = DatabaseSession.aggregateMaxBytes(info);
    long queryMemoryMaxBytes = DriverMemory.queryMaxBytes(info);
    long hashJoinMaxBytes = DatabaseSession.hashJoinMaxBytes(info);
    return new DatabaseSession(
            RemoteDatabase.acquire(config),
            durability,
            parallelism,
            aggregateMaxBytes,
            queryMemoryMaxBytes)
        .withHashJoinMaxBytes(hashJoinMaxBytes)
        .withJoinBuildReuse(DatabaseSession.joinBuildReuse(info));
  }
}
