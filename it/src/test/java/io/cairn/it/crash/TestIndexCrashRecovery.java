package io.cairn.it.crash;

import static io.cairn.it.crash.IndexCrashWorkload.ALWAYS;
import static io.cairn.it.crash.IndexCrashWorkload.LAYOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KvTable;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 during writes, index builds and region splits of a table with local indexes: a child JVM
 * ({@link IndexCrashWorkload}) writes, builds, drops, flushes, splits and compacts until it is
 * killed at a random moment; this JVM opens the store and compares every index that was maintained
 * (and the last one whose build finished and was not dropped) with the rows: zero differences,
 * every round, on the same directory.
 *
 * <p>{@code -Dcairn.crash.iterations=N} (default 4) runs more rounds, {@code -Dcairn.crash.seed=S}
 * repeats the random choices of a failed run.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES) // a guard against hangs, not a timed assertion
final class TestIndexCrashRecovery {
  private static final Duration CHILD_PATIENCE = Duration.ofMinutes(3);

  @TempDir Path temp;

  @Test
  void indexesAgreeWithTheirRowsAfterKillNine() throws Exception {
    long seed = Long.getLong("cairn.crash.seed", System.nanoTime());
    int iterations = Integer.getInteger("cairn.crash.iterations", 4);
    SplittableRandom random = new SplittableRandom(seed);
    Path dir = temp.resolve("store");
    String reproduce = "seed [" + seed + "] (reproduce: -Dcairn.crash.seed=" + seed + ")";
    TestCrashRecovery.report("TestIndexCrashRecovery: " + reproduce + " store [" + dir + "]");
    for (int round = 0; round < iterations; round++) {
      long killDelayMillis = random.nextInt(1501);
      ChildJvm child =
          ChildJvm.start(
              IndexCrashWorkload.class,
              temp.resolve("child-" + round + ".err"),
              dir.toString(),
              Long.toString(random.nextLong()),
              Integer.toString(round));
      try {
        assertThat(
                child.awaitLines(
                    lines -> lines.stream().filter("ACK"::equals).count() == 2, CHILD_PATIENCE))
            .as("the child acknowledges a commit of each writer")
            .isTrue();
        Thread.sleep(killDelayMillis);
        assertThat(child.isAlive()).as("the child is still running when it is killed").isTrue();
        child.kill();
        List<IndexSpec> checked = new ArrayList<>(List.of(ALWAYS));
        lastBuilt(child.lines()).ifPresent(id -> checked.add(IndexCrashWorkload.built(id)));
        String found =
            Timeouts.call(() -> check(dir, checked), CHILD_PATIENCE, "opening and checking");
        TestCrashRecovery.report(
            "TestIndexCrashRecovery: round "
                + round
                + " killed after "
                + killDelayMillis
                + " ms: "
                + found);
      } catch (Throwable t) {
        throw new AssertionError(
            "index crash recovery failed at round ["
                + round
                + "], "
                + reproduce
                + ": "
                + t.getMessage()
                + "\n"
                + child.describe(),
            t);
      } finally {
        child.close();
      }
    }
  }

  /** The id of the last index the child built and did not drop again. */
  private static java.util.Optional<Integer> lastBuilt(List<String> lines) {
    Integer built = null;
    for (String line : lines) {
      if (line.startsWith("BUILT ")) {
        built = Integer.parseInt(line.substring(6));
      } else if (line.startsWith("DROPPING ")) {
        built = null;
      }
    }
    return java.util.Optional.ofNullable(built);
  }

  private static String check(Path dir, List<IndexSpec> indexes) {
    StringBuilder found = new StringBuilder();
    try (EmbeddedStore store =
        EmbeddedStore.open(dir, StoreConfig.from(IndexCrashWorkload.SETTINGS))) {
      KvTable t = store.table(IndexCrashWorkload.TABLE).orElseThrow();
      t.defineIndexes(LAYOUT, indexes);
      for (IndexSpec index : indexes) {
        IndexCheck check = t.verifyIndex(index.indexId());
        assertThat(check.samples()).as("index %s", index.indexId()).isEmpty();
        assertThat(check.consistent()).as("index %s: %s", index.indexId(), check).isTrue();
        assertThat(check.entries()).isEqualTo(check.rows());
        found
            .append("index ")
            .append(index.indexId())
            .append(' ')
            .append(check.rows())
            .append(" rows; ");
      }
      found.append(t.regions().size()).append(" regions");
    }
    return found.toString();
  }
}
