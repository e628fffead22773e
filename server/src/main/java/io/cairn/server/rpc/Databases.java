package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.StoreCatalog;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.server.EmbeddedStore;
import io.cairn.server.StoreConfig;
import io.cairn.server.Stores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The databases under the server's root: the default one (Hello's database empty) in the data
 * directory itself, a named one {@code NAME} in {@code DATA/databases/NAME}, or all of them in
 * memory. A database is opened on first use, created when missing, and stays open until the server
 * stops. Thread-safe.
 */
final class Databases implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Databases.class);

  /** What a database name may be. */
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  /** The directory under the root that holds the named databases. */
  static final String NAMED_DIRECTORY = "databases";

  /** Opens the store of a database: in {@code dir}, or in memory when it is empty. */
  @FunctionalInterface
  interface StoreOpener {
    /** The embedded stores ({@link Stores}). */
    StoreOpener EMBEDDED =
        (name, dir, settings) ->
            dir.isPresent()
                ? Stores.open(dir.get(), settings)
                : Stores.inMemory(name.isEmpty() ? "default" : name);

    KvStore open(String name, Optional<Path> dir, Map<String, String> settings);
  }

  private final Optional<Path> root;
  private final Map<String, String> storeSettings;
  private final StoreOpener opener;
  private final long instanceId;
  private final Map<String, Database> open = new ConcurrentHashMap<>();
  private boolean closed;

  Databases(
      Optional<Path> root, Map<String, String> storeSettings, StoreOpener opener, long instanceId) {
    this.root = requireNonNull(root, "root is null");
    this.storeSettings = Map.copyOf(storeSettings);
    this.opener = requireNonNull(opener, "opener is null");
    this.instanceId = instanceId;
  }

  /**
   * Checks a database name from a client.
   *
   * @throws CairnException INVALID_ARGUMENT naming the rule
   */
  static void checkName(String name) {
    if (!name.isEmpty() && !NAME.matcher(name).matches()) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "Database name: expected 1 to 64 of the characters A-Z, a-z, 0-9, _ and - (or empty for"
              + " the default database), found ["
              + name
              + "]");
    }
  }

  /** Where database {@code name} lives; empty when in memory. */
  Optional<Path> directory(String name) {
    return root.map(r -> name.isEmpty() ? r : r.resolve(NAMED_DIRECTORY).resolve(name));
  }

  /**
   * The database {@code name} (empty: the default one), opened and created when needed.
   *
   * @throws CairnException INVALID_ARGUMENT for a bad name, SERVER_SHUTTING_DOWN, or what opening
   *     the store throws (STORE_IN_USE, NOT_A_STORE, DATA_CORRUPTED, IO_ERROR, ...)
   */
  Database open(String name) {
    checkName(name);
    Database db = open.get(name);
    if (db != null) {
      return db;
    }
    synchronized (this) {
      if (closed) {
        throw new CairnException(ErrorCode.SERVER_SHUTTING_DOWN, "The server is shutting down");
      }
      db = open.get(name);
      if (db != null) {
        return db;
      }
      Optional<Path> dir = directory(name);
      KvStore store = opener.open(name, dir, storeSettings);
      try {
        db =
            new Database(
                name, store, StoreCatalog.open(store), instanceId, snapshotMaxAgeMillis(store));
      } catch (RuntimeException e) {
        try {
          store.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
      open.put(name, db);
      LOG.info(
          "Opened database {} ({})", db.displayName(), dir.map(Path::toString).orElse("in memory"));
      return db;
    }
  }

  /**
   * The maximum snapshot age of {@code store}: an embedded store's own, else what the settings say
   * (a store opened another way, e.g. in tests).
   */
  private long snapshotMaxAgeMillis(KvStore store) {
    return store instanceof EmbeddedStore embedded
        ? embedded.config().snapshotMaxAgeMillis()
        : StoreConfig.from(storeSettings).snapshotMaxAgeMillis();
  }

  /** The open databases. */
  List<Database> all() {
    return List.copyOf(open.values());
  }

  /**
   * Closes every store (a durable one flushes its memstores); the first failure is thrown after all
   * were tried, the others suppressed.
   */
  @Override
  public void close() {
    List<Database> databases;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      databases = new ArrayList<>(open.values());
    }
    RuntimeException failure = null;
    for (Database db : databases) {
      try {
        db.store().close();
      } catch (RuntimeException e) {
        LOG.error("Closing database {} failed", db.displayName(), e);
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    open.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
