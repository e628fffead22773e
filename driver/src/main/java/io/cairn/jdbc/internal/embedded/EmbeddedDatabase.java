package io.cairn.jdbc.internal.embedded;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.error.CairnException;
import io.cairn.jdbc.internal.session.Database;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.planner.CairnPlanner;
import io.cairn.store.Stores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One embedded database: a store, its catalog and a plan cache, shared by every connection of this
 * JVM that names it.
 *
 * <ul>
 *   <li>In-memory databases ({@code mem:NAME}) live as long as the JVM.
 *   <li>File databases ({@code file:DIR}) are keyed by the absolute, normalised directory. The
 *       first connection opens the store (locking the directory); the last one to close closes it
 *       (flushing it and releasing the lock), as H2 does without DB_CLOSE_DELAY. A later connection
 *       opens it again. A JVM shutdown hook closes the file databases still open.
 * </ul>
 */
final class EmbeddedDatabase implements Database {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);

  /** Guards {@link #DATABASES}, every file database's connection count and its opening/closing. */
  private static final Object LOCK = new Object();

  private static final Map<String, EmbeddedDatabase> DATABASES = new HashMap<>();

  private static boolean shutdownHookAdded;

  private final String name;
  private final KvStore store;
  private final Catalog catalog;
  private final CairnPlanner planner;
  private final boolean closesWithLastConnection;
  private int connections;
  private boolean closed;

  private EmbeddedDatabase(String name, KvStore store, boolean closesWithLastConnection) {
    this.name = name;
    this.store = store;
    this.closesWithLastConnection = closesWithLastConnection;
    try {
      this.catalog = Catalog.open(store);
      Stores.useSqlNames(store, catalog::tables); // SYSTEM.STATS shows SQL names
    } catch (RuntimeException e) {
      if (closesWithLastConnection) {
        closeQuietly(store, e);
      }
      throw e;
    }
    this.planner =
        new CairnPlanner(
            catalog,
            t -> store.table(t.kvTableName()).map(KvTable::approximateRowCount).orElse(-1L),
            (t, index) ->
                store.table(t.kvTableName()).flatMap(kv -> kv.indexStatistics(index.indexId())),
            t ->
                store
                    .table(t.kvTableName())
                    .map(KvTable::columnStatistics)
                    .orElse(java.util.List.of()));
  }

  /**
   * The in-memory database called {@code name} (e.g. {@code mem:demo}), created on first use, with
   * one more connection. It is never closed.
   */
  static EmbeddedDatabase acquireInMemory(String name) {
    return acquire(name, () -> Stores.inMemory(name), false);
  }

  /**
   * The file database in {@code directory} with one more connection, opening its store with {@code
   * config} when no connection of this JVM has it open (a database already open keeps the settings
   * it was opened with). Each call is paired with a {@link #release()}.
   *
   * @param directory absolute and normalised
   * @throws CairnException from {@link Stores#open}: NOT_A_STORE, STORE_IN_USE, IO_ERROR, ...
   */
  static EmbeddedDatabase acquireFile(Path directory, Map<String, String> config) {
    if (!directory.isAbsolute()) {
      throw new IllegalArgumentException("directory must be absolute: " + directory);
    }
    Map<String, String> settings = Map.copyOf(config);
    return acquire("file:" + directory, () -> Stores.open(directory, settings), true);
  }

  /**
   * The database registered as {@code key} with one more connection, opened with {@code opener}
   * when it is not open. Tests pass their own stores.
   */
  static EmbeddedDatabase acquire(
      String key, Supplier<KvStore> opener, boolean closesWithLastConnection) {
    synchronized (LOCK) {
      EmbeddedDatabase database = DATABASES.get(key);
      if (database == null) {
        database = new EmbeddedDatabase(key, opener.get(), closesWithLastConnection);
        DATABASES.put(key, database);
        if (closesWithLastConnection) {
          addShutdownHook();
        }
      }
      database.connections++;
      return database;
    }
  }

  /**
   * On a store that other processes change (HBase), reads the catalog again when the last read is
   * older than the store's refresh interval ({@link Catalog#refresh}); a no-op otherwise. When the
   * store does not answer, the statement goes on with the copy it has (and meets the store's error
   * itself if it needs the store; a write of an out-of-date copy is refused by the store).
   */
  @Override
  public void beforeStatement() {
    try {
      catalog.refresh(false);
    } catch (CairnException e) {
      LOG.debug("Database [{}]: the catalog could not be read again: {}", name, e.getMessage());
    }
  }

  /** Reads the catalog again now, on a store that other processes change. */
  @Override
  public boolean catchUp() {
    return catalog.refresh(true);
  }

  /** Connections holding this database now. */
  int connections() {
    synchronized (LOCK) {
      return connections;
    }
  }

  /**
   * Gives back one connection. The last connection of a file database closes its store. Closing
   * errors are logged (and thrown), never left half-done: the database leaves the registry first.
   */
  @Override
  public void release() {
    synchronized (LOCK) {
      if (connections <= 0) {
        throw CairnException.internal("Database [" + name + "] released more often than acquired");
      }
      connections--;
      if (connections > 0 || !closesWithLastConnection) {
        return;
      }
      DATABASES.remove(name, this);
      close();
    }
  }

  /** Whether this database's store is closed (its last connection closed). */
  boolean isClosed() {
    synchronized (LOCK) {
      return closed;
    }
  }

  private void close() {
    if (!closed) {
      closed = true;
      store.close();
    }
  }

  private static void addShutdownHook() {
    if (shutdownHookAdded) {
      return;
    }
    shutdownHookAdded = true;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(EmbeddedDatabase::closeAllFileDatabases, "cairn-close-file-databases"));
  }

  /** Closes every open file database (JVM shutdown), whatever its connections. */
  static void closeAllFileDatabases() {
    synchronized (LOCK) {
      List<EmbeddedDatabase> open = new ArrayList<>();
      for (EmbeddedDatabase database : DATABASES.values()) {
        if (database.closesWithLastConnection) {
          open.add(database);
        }
      }
      for (EmbeddedDatabase database : open) {
        DATABASES.remove(database.name, database);
        try {
          database.close();
        } catch (RuntimeException e) {
          LOG.error("Cannot close database [{}] at shutdown", database.name, e);
        }
      }
    }
  }

  private static void closeQuietly(KvStore store, RuntimeException cause) {
    try {
      store.close();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public KvStore store() {
    return store;
  }

  @Override
  public Catalog catalog() {
    return catalog;
  }

  @Override
  public CairnPlanner planner() {
    return planner;
  }
}
