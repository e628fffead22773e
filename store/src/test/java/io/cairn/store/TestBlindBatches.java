package io.cairn.store;

import static io.cairn.store.TestingTables.insert;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch without conditions (a load's) skips the condition check; a key written twice in it keeps
 * its last value, and a condition anywhere in a batch still sees the batch's earlier mutations.
 */
class TestBlindBatches {
  @TempDir Path dir;

  @Test
  void aBlindBatchKeepsTheLastValueOfAKeyAndAConditionSeesTheBatchsEarlierPuts() {
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(Map.of()))) {
      KvTable t = store.createTable("T");
      List<Mutation> blind = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        blind.add(put(i % 10, i));
      }
      t.mutate(blind);
      List<List<Object>> rows = readAll(t, scanAll());
      assertThat(rows).hasSize(10);
      assertThat(rows.get(3)).containsExactly(3L, 93);

      // the insert of key 50 follows a put of it in the same batch: it fails, nothing is written
      ConditionFailedException e =
          catchThrowableOfType(
              () -> t.mutate(List.of(put(50, 1), put(51, 1), insert(50, 2))),
              ConditionFailedException.class);
      assertThat(e.mutationIndex()).isEqualTo(2);
      assertThat(readAll(t, scanAll())).hasSize(10);
    }
  }
}
