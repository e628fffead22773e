package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvStore.TableBatch;
import io.cairn.kv.KvTable;
import io.cairn.kv.TableSpec;
import io.cairn.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Databases' privileges, limit, idle closing and failed creations, on the embedded stores. */
class TestDatabases {
  @TempDir Path dir;

  private static DatabasePolicy policy(
      DatabasePolicy.CreateRule rule, int max, Duration idleTimeout) {
    return new DatabasePolicy(rule, Set.of("root"), max, idleTimeout);
  }

  private Databases databases(DatabasePolicy policy, Databases.StoreOpener opener) {
    return new Databases(Optional.of(dir), Map.of(), opener, 1, policy);
  }

  @Test
  void creatingIsAPrivilegeAndUsingIsNot() {
    try (Databases dbs =
        databases(
            policy(DatabasePolicy.CreateRule.ADMIN, 8, Duration.ZERO),
            Databases.StoreOpener.EMBEDDED)) {
      dbs.openDefault();
      assertThatThrownBy(() -> dbs.acquire("sales", "bob"))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED))
          .hasMessageContainingAll("[sales] does not exist", "user [bob]", "create-databases");
      assertThat(dir.resolve("databases/sales")).doesNotExist();
      ServedDatabase sales = dbs.acquire("sales", "root");
      ServedDatabase again = dbs.acquire("sales", "bob");
      assertThat(again).isSameAs(sales);
      assertThat(sales.holders()).isEqualTo(2);
      sales.release();
      sales.release();
      dbs.acquire("", "").release(); // the default database: anyone
    }
  }

  @Test
  void atMostMaxDatabasesAreOpen() {
    try (Databases dbs =
        databases(
            policy(DatabasePolicy.CreateRule.ANY, 2, Duration.ZERO),
            Databases.StoreOpener.EMBEDDED)) {
      dbs.openDefault();
      dbs.acquire("a", "").release();
      assertThatThrownBy(() -> dbs.acquire("b", ""))
          .isInstanceOfSatisfying(
              CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SERVER_BUSY))
          .hasMessageContainingAll("[2] are open", "max-databases [2]", "[b]");
      assertThat(dir.resolve("databases/b")).doesNotExist();
      dbs.acquire("a", "").release(); // open ones are served
    }
  }

  @Test
  void aCreationThatFailsEvenWithAnErrorRemovesWhatItMadeAndNothingElse() throws IOException {
    Databases.StoreOpener failing =
        (name, d, settings) -> {
          if (name.isEmpty()) {
            return Stores.open(d.orElseThrow(), settings);
          }
          try {
            Files.createDirectories(d.orElseThrow().resolve("wal"));
            Files.writeString(d.orElseThrow().resolve("wal/half-made"), "x");
          } catch (IOException e) {
            throw new AssertionError(e);
          }
          throw new OutOfMemoryError("Direct buffer memory (a test's)");
        };
    try (Databases dbs =
        databases(policy(DatabasePolicy.CreateRule.ANY, 8, Duration.ZERO), failing)) {
      dbs.openDefault();
      assertThatThrownBy(() -> dbs.acquire("doomed", "")).isInstanceOf(OutOfMemoryError.class);
      assertThat(dir.resolve("databases/doomed")).doesNotExist();
      assertThat(dir.resolve("databases")).isDirectory();
      // a file in the way is not a directory the creation made: it stays
      Files.writeString(dir.resolve("databases/in-the-way"), "keep me");
      assertThatThrownBy(() -> dbs.acquire("in-the-way", "")).isInstanceOf(Error.class);
      assertThat(dir.resolve("databases/in-the-way")).hasContent("keep me");
      assertThat(dbs.all()).extracting(ServedDatabase::name).containsExactly("");
    }
  }

  @Test
  void anIdleDatabaseClosesAndOpensAgainWithItsTables() throws Exception {
    try (Databases dbs =
        databases(
            policy(DatabasePolicy.CreateRule.ANY, 8, Duration.ofMillis(1)),
            Databases.StoreOpener.EMBEDDED)) {
      dbs.openDefault();
      ServedDatabase held = dbs.acquire("held", "");
      ServedDatabase idle = dbs.acquire("idle", "");
      idle.store().createTable("T", new TableSpec(Map.of(), List.of()));
      idle.release();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      int closed = 0;
      while (closed == 0 && System.nanoTime() < deadline) {
        closed = dbs.closeIdle(); // past 1 ms without a holder
      }
      assertThat(closed).isEqualTo(1);
      assertThat(dbs.all()).extracting(ServedDatabase::name).containsExactlyInAnyOrder("", "held");
      assertThat(idle.holders()).isEqualTo(-1);
      assertThat(idle.tryAcquire()).isFalse();

      ServedDatabase reopened = dbs.acquire("idle", "");
      assertThat(reopened).isNotSameAs(idle);
      assertThat(reopened.store().table("T")).isPresent();
      reopened.release();
      held.release();
    }
  }

  @Test
  void inMemoryAndDefaultDatabasesStayOpen() {
    try (Databases dbs =
        new Databases(
            Optional.empty(),
            Map.of(),
            Databases.StoreOpener.EMBEDDED,
            1,
            policy(DatabasePolicy.CreateRule.ANY, 8, Duration.ofMillis(1)))) {
      dbs.openDefault();
      dbs.acquire("memory", "").release();
      assertThat(dbs.closeIdle()).isZero();
      assertThat(dbs.all()).hasSize(2);
    }
  }

  @Test
  void aHelloWhileItsDatabaseClosesWaitsAndOpensItAgain() throws Exception {
    CountDownLatch closing = new CountDownLatch(1);
    CountDownLatch mayClose = new CountDownLatch(1);
    Databases.StoreOpener slowToClose =
        (name, d, settings) -> {
          KvStore store = Stores.open(d.orElseThrow(), settings);
          return name.isEmpty() ? store : new SlowToClose(store, closing, mayClose);
        };
    try (Databases dbs =
        databases(policy(DatabasePolicy.CreateRule.ANY, 8, Duration.ofMillis(1)), slowToClose)) {
      dbs.openDefault();
      ServedDatabase first = dbs.acquire("busy", "");
      first.release();
      CompletableFuture<Integer> closer =
          CompletableFuture.supplyAsync(
              () -> {
                int n = 0;
                while (n == 0) {
                  n = dbs.closeIdle();
                }
                return n;
              });
      assertThat(closing.await(10, TimeUnit.SECONDS)).isTrue();
      CompletableFuture<ServedDatabase> hello =
          CompletableFuture.supplyAsync(() -> dbs.acquire("busy", ""));
      // it waits for the close (the store's lock is still held)
      assertThat(hello).isNotDone();
      mayClose.countDown();
      ServedDatabase second = hello.get(10, TimeUnit.SECONDS);
      assertThat(closer.get(10, TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(second).isNotSameAs(first);
      assertThat(second.holders()).isEqualTo(1);
      second.release();
    }
  }

  /** A store whose close says it started and then waits to be let go on. */
  private static final class SlowToClose implements KvStore {
    private final KvStore delegate;
    private final CountDownLatch closing;
    private final CountDownLatch mayClose;

    SlowToClose(KvStore delegate, CountDownLatch closing, CountDownLatch mayClose) {
      this.delegate = delegate;
      this.closing = closing;
      this.mayClose = mayClose;
    }

    @Override
    public KvTable createTable(String name, TableSpec spec) {
      return delegate.createTable(name, spec);
    }

    @Override
    public KvSnapshot openSnapshot() {
      return delegate.openSnapshot();
    }

    @Override
    public Optional<KvTable> table(String name) {
      return delegate.table(name);
    }

    @Override
    public void mutate(List<TableBatch> batches, io.cairn.kv.Durability durability) {
      delegate.mutate(batches, durability);
    }

    @Override
    public void dropTable(String name) {
      delegate.dropTable(name);
    }

    @Override
    public void close() {
      closing.countDown();
      try {
        if (!mayClose.await(10, TimeUnit.SECONDS)) {
          throw new AssertionError("not let go on within 10 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      delegate.close();
    }
  }
}
