package io.cairn.store;

import static io.cairn.store.TestingTables.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestStoreDirectory {
  @TempDir Path dir;

  @Test
  void manifestLinesAreTheFormatsAndReadBack() {
    StoreManifest manifest = new StoreManifest("abc", 7, 42, true);
    assertThat(manifest.lines())
        .containsExactly(
            "cairn-store 1",
            "store-id abc",
            "next-table-id 7",
            "last-sequence-id 42",
            "wal-marker 1");
    Path path = dir.resolve(StoreDirectory.STORE_MANIFEST);
    manifest.write(path);
    assertThat(StoreManifest.read(dir, path)).isEqualTo(manifest);
    StoreManifest older = new StoreManifest("abc", 7, 42, false);
    assertThat(older.lines()).as("a store without the log marker").hasSize(4);
    older.write(path);
    assertThat(StoreManifest.read(dir, path)).isEqualTo(older);
  }

  @Test
  void secondLockOfTheSameDirectoryFails() {
    Path store = dir.resolve("store");
    try (StoreDirectory first = StoreDirectory.lock(store)) {
      assertThatThrownBy(() -> StoreDirectory.lock(store))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STORE_IN_USE));
    }
    StoreDirectory.lock(store).close(); // released
  }

  @Test
  void blockFileBytesByTableCountsEachTablesBlockFiles() throws IOException {
    Path store = dir.resolve("store");
    try (EmbeddedStore s = EmbeddedStore.open(store, StoreConfig.defaults())) {
      KvTable t = s.createTable("T");
      List<Mutation> rows = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        rows.add(put(i, i));
      }
      t.mutate(rows);
    } // the close flushes T into a block file
    Map<String, Long> bytes = StoreDirectory.blockFileBytesByTable(store);
    assertThat(bytes).isNotEmpty();
    for (Map.Entry<String, Long> e : bytes.entrySet()) {
      assertThat(e.getValue())
          .as("table directory %s", e.getKey())
          .isEqualTo(blockFileBytes(store.resolve("tables").resolve(e.getKey())));
    }
    assertThat(bytes.values().stream().mapToLong(Long::longValue).max().orElse(0))
        .as("T's 1,000 rows")
        .isGreaterThan(1000);
  }

  private static long blockFileBytes(Path tableDir) throws IOException {
    long sum = 0;
    try (Stream<Path> files = Files.list(tableDir)) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().endsWith(".cbf")) {
          sum += Files.size(f);
        }
      }
    }
    return sum;
  }
}
