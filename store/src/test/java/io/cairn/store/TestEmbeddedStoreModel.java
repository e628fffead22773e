package io.cairn.store;

import static io.cairn.store.TestingTables.K;
import static io.cairn.store.TestingTables.V;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random batches and scans against the store and a TreeMap model; jqwik prints the seed. */
class TestEmbeddedStoreModel {
  enum Kind {
    PUT,
    INSERT,
    DELETE
  }

  record Change(Kind kind, long key, Integer value) {}

  sealed interface Action permits Batch, Scan {}

  record Batch(List<Change> changes) implements Action {}

  /** Ranges from sorted distinct points, paired; optional filter V < below; a limit. */
  record Scan(List<Long> points, boolean openStart, boolean openStop, Integer below, long limit)
      implements Action {}

  @Provide
  Arbitrary<List<Action>> actions() {
    Arbitrary<Change> change =
        Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.longs().between(-3, 12),
                Arbitraries.integers().between(-5, 5).injectNull(0.2))
            .as(Change::new);
    Arbitrary<Action> batch = change.list().ofMinSize(1).ofMaxSize(5).map(Batch::new);
    Arbitrary<Action> scan =
        Combinators.combine(
                Arbitraries.longs().between(-4, 13).set().ofMaxSize(4),
                Arbitraries.of(true, false),
                Arbitraries.of(true, false),
                Arbitraries.integers().between(-5, 6).injectNull(0.5),
                Arbitraries.longs().between(-1, 6))
            .as(
                (points, openStart, openStop, below, limit) ->
                    new Scan(points.stream().sorted().toList(), openStart, openStop, below, limit));
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, batch), net.jqwik.api.Tuple.of(2, scan))
        .list()
        .ofMinSize(1)
        .ofMaxSize(40);
  }

  @Property(tries = 300)
  void behavesLikeATreeMap(@ForAll("actions") List<Action> actions) {
    EmbeddedStore store = new EmbeddedStore("model");
    KvTable table = store.createTable("T");
    TreeMap<Long, Integer> model = new TreeMap<>();
    for (Action action : actions) {
      if (action instanceof Batch batch) {
        applyBatch(table, model, batch);
      } else {
        checkScan(table, model, (Scan) action);
      }
    }
    checkScan(table, model, new Scan(List.of(), true, true, null, -1));
  }

  private static void applyBatch(KvTable table, TreeMap<Long, Integer> model, Batch batch) {
    TreeMap<Long, Integer> next = new TreeMap<>(model);
    int failedAt = -1;
    List<Mutation> mutations = new ArrayList<>();
    for (int i = 0; i < batch.changes().size(); i++) {
      Change c = batch.changes().get(i);
      switch (c.kind()) {
        case PUT -> {
          mutations.add(TestingTables.put(c.key(), c.value()));
          next.put(c.key(), c.value());
        }
        case INSERT -> {
          mutations.add(TestingTables.insert(c.key(), c.value()));
          if (next.containsKey(c.key()) && failedAt < 0) {
            failedAt = i;
          }
          next.put(c.key(), c.value());
        }
        case DELETE -> {
          mutations.add(TestingTables.delete(c.key()));
          next.remove(c.key());
        }
      }
    }
    try {
      table.mutate(mutations);
      assertThat(failedAt).as("batch %s should have failed", batch).isEqualTo(-1);
      model.clear();
      model.putAll(next);
    } catch (ConditionFailedException e) {
      if (failedAt < 0) {
        fail("unexpected condition failure for " + batch, e);
      }
      assertThat(e.mutationIndex()).isEqualTo(failedAt);
    }
  }

  private static void checkScan(KvTable table, TreeMap<Long, Integer> model, Scan scan) {
    List<KeyRange> ranges = new ArrayList<>();
    List<long[]> bounds = new ArrayList<>(); // model ranges, Long.MIN/MAX for open ends
    List<Long> p = new ArrayList<>(scan.points());
    if (scan.openStart()) {
      p.add(0, null);
    }
    if (scan.openStop() || p.size() % 2 == 1) {
      p.add(null);
    }
    for (int i = 0; i + 1 < p.size(); i += 2) {
      Long from = p.get(i);
      Long to = p.get(i + 1);
      ranges.add(
          new KeyRange(
              from == null ? Bytes.EMPTY : TestingTables.key(from),
              to == null ? Bytes.EMPTY : TestingTables.key(to)));
      bounds.add(
          new long[] {from == null ? Long.MIN_VALUE : from, to == null ? Long.MAX_VALUE : to});
    }
    Optional<Expr> filter =
        scan.below() == null
            ? Optional.empty()
            : Optional.of(
                new Expr.Call(
                    Op.LESS_THAN,
                    List.of(V, new Expr.Literal(scan.below(), DataType.INTEGER)),
                    DataType.BOOLEAN));
    List<List<Object>> expected = new ArrayList<>();
    outer:
    for (long[] b : bounds) {
      for (Map.Entry<Long, Integer> e : model.entrySet()) {
        if (e.getKey() < b[0] || e.getKey() >= b[1]) {
          continue;
        }
        if (scan.below() != null && (e.getValue() == null || e.getValue() >= scan.below())) {
          continue;
        }
        if (scan.limit() >= 0 && expected.size() >= scan.limit()) {
          break outer;
        }
        expected.add(Arrays.asList(e.getKey(), e.getValue()));
      }
    }
    List<List<Object>> actual =
        TestingTables.readAll(
            table, TestingTables.request(ranges, filter, List.of(K, V), scan.limit()));
    assertThat(actual).as("scan %s over model %s", scan, model).isEqualTo(expected);
  }
}
