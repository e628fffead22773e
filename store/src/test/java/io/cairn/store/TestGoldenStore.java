package io.cairn.store;

import static io.cairn.store.TestingTables.delete;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.kv.KvTable;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads the store directory of format version 1 kept in {@code golden/store-v1} (manifests, a block
 * file and a log segment) on every build, so that a change that cannot open a store written by an
 * earlier release fails here. The directory is written once per format version by {@link #main} and
 * never regenerated for an existing version.
 */
class TestGoldenStore {
  @TempDir Path temp;

  @Test
  void opensAVersionOneStore() throws Exception {
    Path dir = temp.resolve("store");
    copy(golden(), dir);
    try (EmbeddedStore store = EmbeddedStore.open(dir, StoreConfig.defaults())) {
      KvTable t = store.table("T").orElseThrow();
      // rows 1..3 in a block file (2 deleted afterwards, in the log), 4 and 5 only in the log
      assertThat(readAll(t, scanAll()))
          .containsExactly(List.of(1L, 10), List.of(3L, 30), List.of(4L, 40), List.of(5L, 50));
      assertThat(t.options()).containsEntry("COMPRESSION", "ZSTD");
      assertThat(t.regions()).hasSize(2);
    }
  }

  private static Path golden() throws URISyntaxException {
    return Path.of(TestGoldenStore.class.getResource("/golden/store-v1/store.manifest").toURI())
        .getParent();
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  /** Writes the golden store into the (new) directory {@code args[0]}. */
  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    EmbeddedStore store = EmbeddedStore.open(dir, StoreConfig.defaults());
    KvTable t =
        store.createTable(
            "T",
            new io.cairn.kv.TableSpec(
                Map.of("COMPRESSION", "ZSTD"), List.of(TestingTables.key(3))));
    t.mutate(List.of(put(1, 10), put(2, 20), put(3, 30)));
    t.flush();
    t.mutate(List.of(delete(2), put(4, 40)));
    t.mutate(List.of(put(5, 50)));
    store.abandonForTesting(); // the last writes stay in the log only
  }
}
