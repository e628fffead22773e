package io.cairn.store;

import static io.cairn.store.TestingTables.K;
import static io.cairn.store.TestingTables.LAYOUT;
import static io.cairn.store.TestingTables.V;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.memory.MemoryPool;
import io.cairn.core.type.DataType;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.SortKey;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans of an embedded store count in the store's own query memory ({@code
 * cairn.query-memory.max-bytes}) unless their request names a pool (as the network server's do).
 */
class TestEmbeddedQueryMemory {
  private static final int ROWS = 20_000;

  @TempDir Path dir;

  /** ORDER BY V DESC over every row. */
  private static ScanRequest sortAll() {
    return sortAll(V);
  }

  /** ORDER BY V + 1 DESC over every row: a sort by an expression, kept as values (no spilling). */
  private static ScanRequest sortAllByExpression() {
    return sortAll(
        new Expr.Call(
            Op.PLUS, List.of(V, new Expr.Literal(1, DataType.INTEGER)), DataType.INTEGER));
  }

  private static ScanRequest sortAll(Expr second) {
    return new ScanRequest(
        List.of(KeyRange.ALL),
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(K, second),
            ScanProgram.NO_LIMIT,
            0,
            List.of(),
            List.of(),
            List.of(new SortKey(1, true, false))),
        EvalContext.EMPTY,
        true);
  }

  /**
   * A sort by values past the store's query memory fails naming it; a sort by columns spills to the
   * store's spill directory instead (and leaves no file there); a request that names its own pool
   * counts there.
   */
  @Test
  void aSortPastTheStoresQueryMemoryFailsNamingItOrSpillsUnlessItsRequestNamesAPool() {
    Path spill = dir.resolve("spill");
    StoreConfig config =
        StoreConfig.from(
            Map.of(
                StoreConfig.QUERY_MEMORY_MAX_BYTES,
                "512k",
                StoreConfig.QUERY_MEMORY_WAIT,
                "0ms",
                StoreConfig.SPILL_DIRECTORY,
                spill.toString()));
    try (EmbeddedStore store = EmbeddedStore.open(dir.resolve("store"), config)) {
      KvTable t = store.createTable("T");
      List<Mutation> rows = new ArrayList<>();
      for (int k = 0; k < ROWS; k++) {
        rows.add(put(k, k % 1000));
      }
      t.mutate(rows);
      List<List<Object>> spilled = readAll(t, sortAll());
      assertThat(spilled).hasSize(ROWS);
      for (int i = 1; i < ROWS; i++) {
        assertThat((Integer) spilled.get(i - 1).get(1))
            .isGreaterThanOrEqualTo((Integer) spilled.get(i).get(1));
      }
      assertThat(spill).isDirectory().isEmptyDirectory();
      assertThat(store.queryMemory().used()).isZero();
      assertThatThrownBy(() -> readAll(t, sortAllByExpression()))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.MEMORY_LIMIT_EXCEEDED))
          .hasMessageContaining("the store [")
          .hasMessageContaining("[cairn.query-memory.max-bytes]");
      assertThat(store.queryMemory().used()).isZero();
      // a request that names its own pool counts there instead
      MemoryPool own = MemoryPool.root("the caller", 64L << 20, "caller.setting", Duration.ZERO);
      assertThat(readAll(t, sortAll().withMemory(own))).hasSize(ROWS);
      assertThat(own.used()).isZero();
      assertThat(store.queryMemory().used()).isZero();
    }
  }
}
