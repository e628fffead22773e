package io.cairn.server.rpc;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.StoreCatalog;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.io.FileTrees;
import io.cairn.kv.KvStore;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.StoreConfig;
import io.cairn.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The databases under the server's root: the default one (Hello's database empty) in the data
 * directory itself, a named one {@code NAME} in {@code DATA/databases/NAME}, or all of them in
 * memory. Thread-safe.
 *
 * <p>A session holds its database from its Hello to its end ({@link #acquire}, {@link
 * ServedDatabase#release}). A database is opened on first use; creating one (a name with no
 * directory, or an in-memory name not open yet) needs the {@code create-databases} privilege
 * ({@link DatabasePolicy}), and at most {@code max-databases} are open at once. A durable named
 * database that nobody has held for {@code database-idle-timeout} is closed by {@link #closeIdle}
 * (its memstores flushed, its threads stopped) and opened again by the next Hello naming it; the
 * default database and in-memory ones stay open until the server stops (closing an in-memory store
 * would lose its data). A Hello that arrives while its database is being closed waits for the close
 * and opens it again. A creation that fails removes the directory it made.
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
  private final DatabasePolicy policy;
  private final Map<String, ServedDatabase> open = new ConcurrentHashMap<>();

  /** Databases being closed (idle), completed when closed; guarded by this. */
  private final Map<String, CompletableFuture<Void>> closing = new HashMap<>();

  private boolean closed; // guarded by this

  Databases(
      Optional<Path> root,
      Map<String, String> storeSettings,
      StoreOpener opener,
      long instanceId,
      DatabasePolicy policy) {
    this.root = requireNonNull(root, "root is null");
    this.storeSettings = Map.copyOf(storeSettings);
    this.opener = requireNonNull(opener, "opener is null");
    this.instanceId = instanceId;
    this.policy = requireNonNull(policy, "policy is null");
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

  /** Who may create databases and how many may be open. */
  DatabasePolicy policy() {
    return policy;
  }

  /**
   * Opens the default database at start (a bad data directory fails the start); it stays open.
   *
   * @throws CairnException what opening the store throws (NOT_A_STORE, STORE_IN_USE, ...)
   */
  ServedDatabase openDefault() {
    ServedDatabase db = acquire("", "", true);
    db.release();
    return db;
  }

  /**
   * The database {@code name} (empty: the default one) for a session of {@code user} (empty when
   * anonymous), opened and created when needed, with the session as one more holder: the caller
   * must {@link ServedDatabase#release} it once.
   *
   * @throws CairnException INVALID_ARGUMENT for a bad name, PERMISSION_DENIED when it does not
   *     exist and {@code user} may not create it, SERVER_BUSY past max-databases,
   *     SERVER_SHUTTING_DOWN, or what opening the store throws (STORE_IN_USE, NOT_A_STORE,
   *     DATA_CORRUPTED, IO_ERROR, ...)
   */
  ServedDatabase acquire(String name, String user) {
    return acquire(name, user, false);
  }

  private ServedDatabase acquire(String name, String user, boolean mayCreate) {
    checkName(name);
    ServedDatabase db = open.get(name);
    if (db != null && db.tryAcquire()) {
      return db;
    }
    while (true) {
      CompletableFuture<Void> closingNow;
      synchronized (this) {
        if (closed) {
          throw new CairnException(ErrorCode.SERVER_SHUTTING_DOWN, "The server is shutting down");
        }
        closingNow = closing.get(name);
        if (closingNow == null) {
          db = open.get(name);
          if (db != null && db.tryAcquire()) {
            return db;
          }
          // retired ones leave the map under this lock, so db is null here
          db = create(name, user, mayCreate);
          if (!db.tryAcquire()) {
            throw CairnException.internal("A new database was retired before its first session");
          }
          open.put(name, db);
          return db;
        }
      }
      awaitClosed(name, closingNow);
    }
  }

  /** Waits for database {@code name}'s close, after which the caller opens it again. */
  private static void awaitClosed(String name, CompletableFuture<Void> closingNow) {
    try {
      closingNow.get(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(
          ErrorCode.QUERY_CANCELED, "Interrupted while database [" + name + "] was closing");
    } catch (java.util.concurrent.TimeoutException e) {
      throw new CairnException(
          ErrorCode.SERVER_BUSY,
          "Database [" + name + "] is still closing after a minute (idle); retry later");
    } catch (java.util.concurrent.ExecutionException e) {
      // closing failed and was logged: it is out of the map, so open it again
    }
  }

  /** Opens (or creates) database {@code name} for {@code user}; under this lock. */
  private ServedDatabase create(String name, String user, boolean mayCreate) {
    int count = open.size() + closing.size();
    if (count >= policy.maxDatabases()) {
      throw new CairnException(
          ErrorCode.SERVER_BUSY,
          "Too many open databases: ["
              + count
              + "] are open, the most "
              + ServerConfig.MAX_DATABASES
              + " ["
              + policy.maxDatabases()
              + "] allows; cannot open database ["
              + name
              + "] (idle databases close after "
              + ServerConfig.DATABASE_IDLE_TIMEOUT
              + ")");
    }
    Optional<Path> dir = directory(name);
    boolean exists = name.isEmpty() || dir.map(Files::isDirectory).orElse(false);
    // only what this creation made is removed when it fails, never a file that was there
    boolean madeHere = !exists && dir.isPresent() && !Files.exists(dir.get(), NOFOLLOW_LINKS);
    if (!exists && !mayCreate && !policy.mayCreate(user)) {
      throw new CairnException(
          ErrorCode.PERMISSION_DENIED,
          "Database ["
              + name
              + "] does not exist, and "
              + (user.isEmpty() ? "an anonymous user" : "user [" + user + "]")
              + " may not create it: "
              + ServerConfig.CREATE_DATABASES
              + " is ["
              + policy.createDatabases().text()
              + "]"
              + (policy.createDatabases() == DatabasePolicy.CreateRule.ADMIN
                  ? " (only the users of " + ServerConfig.ADMINS + " may)"
                  : ""));
    }
    KvStore store = null;
    try {
      store = opener.open(name, dir, storeSettings);
      StoreCatalog catalog = StoreCatalog.open(store);
      Stores.useSqlNames(store, catalog::tables); // SYSTEM.STATS shows SQL names
      ServedDatabase db =
          new ServedDatabase(
              name,
              store,
              catalog,
              instanceId,
              snapshotMaxAgeMillis(store),
              name.isEmpty() || dir.isEmpty());
      LOG.info(
          "Opened database {} ({}{})",
          db.displayName(),
          dir.map(Path::toString).orElse("in memory"),
          exists ? "" : ", created");
      return db;
    } catch (RuntimeException | Error e) {
      if (store != null) {
        try {
          store.close();
        } catch (RuntimeException | Error suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      if (madeHere) {
        try {
          FileTrees.deleteRecursively(dir.get());
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
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

  /**
   * Closes the durable named databases nobody has held for the idle timeout (none when it is zero);
   * returns how many. Runs on the server's timer.
   */
  int closeIdle() {
    long idle = policy.idleTimeout().toNanos();
    if (idle <= 0) {
      return 0;
    }
    int count = 0;
    for (ServedDatabase db : List.copyOf(open.values())) {
      CompletableFuture<Void> done;
      synchronized (this) {
        if (closed || open.get(db.name()) != db || !db.tryRetire(System.nanoTime(), idle)) {
          continue;
        }
        open.remove(db.name());
        done = new CompletableFuture<>();
        closing.put(db.name(), done);
      }
      try {
        db.store().close();
        count++;
        LOG.info(
            "Closed database {} (no session for {}, {})",
            db.displayName(),
            policy.idleTimeout(),
            ServerConfig.DATABASE_IDLE_TIMEOUT);
        done.complete(null);
      } catch (RuntimeException e) {
        LOG.error("Closing idle database {} failed", db.displayName(), e);
        done.completeExceptionally(e);
      } finally {
        synchronized (this) {
          closing.remove(db.name(), done);
        }
      }
    }
    return count;
  }

  /** The open databases. */
  List<ServedDatabase> all() {
    return List.copyOf(open.values());
  }

  /**
   * Closes every store (a durable one flushes its memstores); the first failure is thrown after all
   * were tried, the others suppressed.
   */
  @Override
  public void close() {
    List<ServedDatabase> databases;
    List<CompletableFuture<Void>> closingNow;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      databases = new ArrayList<>(open.values());
      closingNow = new ArrayList<>(closing.values());
    }
    for (CompletableFuture<Void> c : closingNow) {
      try {
        c.get(1, TimeUnit.MINUTES); // an idle database's close flushes its memstores
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        LOG.warn("An idle database's close did not end well: {}", e.toString());
      }
    }
    RuntimeException failure = null;
    for (ServedDatabase db : databases) {
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
