package io.cairn.it.crash;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.StoreConfig;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The child JVM of {@link TestIndexCrashRecovery}: a store table with local indexes written by two
 * writer threads (updates and deletes of the same rows) while a maintenance thread flushes, splits
 * and compacts and a builder thread builds and drops indexes, until it is killed. Arguments: {@code
 * DIR SEED ROUND}.
 *
 * <p>Stdout, one line per {@code write(2)}: {@code ACK} after the first commit of each writer,
 * {@code BUILT id} when index {@code id} is built, {@code DROPPING id} before it is dropped again.
 */
public final class IndexCrashWorkload {
  private static final OutputStream STDOUT = new FileOutputStream(FileDescriptor.out);

  static final String TABLE = "T";

  /** K BIGINT primary key, V INTEGER, W VARCHAR. */
  static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.INTEGER),
              new RowLayout.ColumnLayout(3, DataType.VARCHAR)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  /** Maintained from the start: on V, carrying W. */
  static final IndexSpec ALWAYS =
      new IndexSpec(
          1,
          List.of(new Expr.ColumnRef(1, DataType.INTEGER)),
          List.of(SortOrder.ASC),
          List.of(2),
          true);

  static final Map<String, String> SETTINGS =
      Map.of(
          StoreConfig.MEMSTORE_FLUSH_SIZE, "64k",
          StoreConfig.REGION_SPLIT_SIZE, "256k",
          StoreConfig.COMPACTION_MIN_FILES, "3");

  private IndexCrashWorkload() {}

  /** The index the builder builds as {@code id}: on W descending. */
  static IndexSpec built(int id) {
    return new IndexSpec(
        id,
        List.of(new Expr.ColumnRef(2, DataType.VARCHAR)),
        List.of(SortOrder.DESC),
        List.of(),
        true);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    int round = Integer.parseInt(args[2]);
    EmbeddedStore store = EmbeddedStore.open(dir, StoreConfig.from(SETTINGS));
    KvTable t = store.table(TABLE).orElseGet(() -> store.createTable(TABLE));
    t.defineIndexes(LAYOUT, List.of(ALWAYS));
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      SplittableRandom random = new SplittableRandom(seed + w);
      threads.add(new Thread(() -> guard(() -> write(t, random)), "writer-" + w));
    }
    threads.add(new Thread(() -> guard(() -> maintain(t, new SplittableRandom(seed))), "maint"));
    threads.add(new Thread(() -> guard(() -> build(t, round)), "builder"));
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private interface Work {
    void run() throws Exception;
  }

  private static void guard(Work work) {
    try {
      work.run();
    } catch (Throwable e) {
      System.err.println("FAIL " + e);
      e.printStackTrace();
      Runtime.getRuntime().halt(3);
    }
  }

  private static void write(KvTable t, SplittableRandom random) throws IOException {
    RowCodec codec = new RowCodec(LAYOUT);
    boolean acked = false;
    while (true) {
      List<Mutation> batch = new ArrayList<>();
      for (int i = 1 + random.nextInt(8); i > 0; i--) {
        long k = random.nextInt(3000);
        Object[] row = {k, random.nextInt(200), "w" + random.nextInt(1000)};
        batch.add(
            random.nextInt(6) == 0
                ? new Mutation.Delete(codec.encodeKey(row))
                : new Mutation.Put(codec.encodeKey(row), codec.encodeValue(row)));
      }
      t.mutate(batch);
      if (!acked) {
        emit("ACK");
        acked = true;
      }
    }
  }

  private static void maintain(KvTable t, SplittableRandom random) throws InterruptedException {
    while (true) {
      switch (random.nextInt(3)) {
        case 0 -> t.flush();
        case 1 -> t.split();
        default -> t.compact(random.nextBoolean());
      }
      Thread.sleep(random.nextInt(50));
    }
  }

  private static void build(KvTable t, int round) throws IOException, InterruptedException {
    for (int i = 0; ; i++) {
      int id = 1000 * (round + 1) + i;
      t.defineIndexes(LAYOUT, List.of(ALWAYS, built(id).withReadable(false)));
      t.buildIndex(id, n -> {});
      emit("BUILT " + id);
      Thread.sleep(400); // maintained for a while: a kill then finds it built
      emit("DROPPING " + id); // before: writes after the drop no longer maintain it
      t.defineIndexes(LAYOUT, List.of(ALWAYS));
    }
  }

  /** One line in one write(2), so a kill never leaves half a line. */
  private static void emit(String line) throws IOException {
    byte[] bytes = (line + "\n").getBytes(UTF_8);
    synchronized (STDOUT) {
      STDOUT.write(bytes);
    }
  }
}
