package io.cairn.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The default methods of the KV SPI, against a store that has nothing but its own fakes. */
class TestKvStoreDefaults {
  /** A table that applies nothing and fails each batch's first conditional mutation. */
  private static final class ConditionFailingTable implements KvTable {
    final List<List<Mutation>> applied = new ArrayList<>();

    @Override
    public String name() {
      return "T";
    }

    @Override
    public void mutate(List<Mutation> batch, Durability durability) {
      for (int i = 0; i < batch.size(); i++) {
        Mutation m = batch.get(i);
        if (m.condition().kind() != Mutation.Condition.Kind.NONE) {
          throw new ConditionFailedException(0, i, m.key(), m.condition().kind());
        }
      }
      applied.add(batch);
    }

    @Override
    public RowScanner scan(ScanRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long allocateIds(long count) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<RegionInfo> regions() {
      return List.of();
    }
  }

  private static final class FakeStore implements KvStore {
    @Override
    public KvTable createTable(String name, TableSpec spec) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<KvTable> table(String name) {
      return Optional.empty();
    }

    @Override
    public KvSnapshot openSnapshot() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void dropTable(String name) {}

    @Override
    public void close() {}
  }

  @Test
  void aMultiTableMutateNamesTheFailingBatchAndKeepsTheConditionsKind() {
    ConditionFailingTable a = new ConditionFailingTable();
    ConditionFailingTable b = new ConditionFailingTable();
    Bytes key = Bytes.wrap(new byte[] {7});
    List<KvStore.TableBatch> batches =
        List.of(
            new KvStore.TableBatch(a, List.of(new Mutation.Put(key, Bytes.EMPTY))),
            new KvStore.TableBatch(
                b,
                List.of(
                    new Mutation.Delete(Bytes.wrap(new byte[] {1})),
                    new Mutation.Delete(key, Mutation.Condition.unchangedSince(5)))));
    assertThatThrownBy(() -> new FakeStore().mutate(batches, null))
        .isInstanceOfSatisfying(
            ConditionFailedException.class,
            e -> {
              assertThat(e.batchIndex()).isEqualTo(1);
              assertThat(e.mutationIndex()).isEqualTo(1);
              assertThat(e.key()).isEqualTo(key);
              assertThat(e.kind()).isEqualTo(Mutation.Condition.Kind.UNCHANGED_SINCE);
              assertThat(e.isConflict()).isTrue();
              assertThat(e.errorCode()).isEqualTo(ErrorCode.WRITE_CONFLICT);
            });
    assertThat(a.applied).hasSize(1); // this default applies batch after batch
  }
}
