package io.cairn.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The VALUE_IS condition of stores without read points, and what its failure says. */
class TestValueConditions {
  private static final Bytes KEY = Bytes.wrap(new byte[] {1});
  private static final Bytes VALUE = Bytes.wrap(new byte[] {7, 7});

  @Test
  void aValueConditionCarriesTheValueReadOrNoRowAndNothingElseDoes() {
    assertThat(Mutation.Condition.valueIs(VALUE).expected()).isEqualTo(VALUE);
    assertThat(Mutation.Condition.valueIs(null).expected()).isNull();
    assertThat(Mutation.Condition.valueIs(VALUE).readPoint()).isZero();
    assertThatThrownBy(
            () -> new Mutation.Condition(Mutation.Condition.Kind.UNCHANGED_SINCE, 5, VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected no value");
    assertThatThrownBy(() -> new Mutation.Condition(Mutation.Condition.Kind.VALUE_IS, 5, VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected a read point of 0");
    // a delete may require the row's value, or no row (an INSERT then a DELETE of one key)
    assertThat(new Mutation.Delete(KEY, Mutation.Condition.valueIs(null)).condition().kind())
        .isEqualTo(Mutation.Condition.Kind.VALUE_IS);
  }

  @Test
  void aFailedValueConditionIsAConflictAndSaysWhichRowsWereWritten() {
    ConditionFailedException e =
        new ConditionFailedException(0, 3, KEY, Mutation.Condition.Kind.VALUE_IS);
    assertThat(e.isConflict()).isTrue();
    assertThat(e.errorCode()).isEqualTo(ErrorCode.WRITE_CONFLICT);
    assertThat(e.written()).isEmpty();
    Bytes other = Bytes.wrap(new byte[] {2});
    ConditionFailedException partial = e.withOthersWritten(Set.of(other));
    assertThat(partial.othersWritten()).isTrue();
    assertThat(partial.written()).containsExactly(other);
    assertThat(partial.mutationIndex()).isEqualTo(3);
    assertThat(partial.getMessage()).contains("other rows were written");
    assertThat(e.withOthersWritten().written()).isEmpty();
  }

  @Test
  void aStoreWithReadPointsDoesNotReadLatestValues() {
    KvTable table =
        new KvTable() {
          @Override
          public String name() {
            return "T";
          }

          @Override
          public void mutate(List<Mutation> batch, Durability durability) {}

          @Override
          public RowScanner scan(ScanRequest request) {
            throw new UnsupportedOperationException();
          }

          @Override
          public long allocateIds(long count) {
            return 0;
          }

          @Override
          public List<RegionInfo> regions() {
            return List.of();
          }
        };
    assertThatThrownBy(() -> table.latestValues(List.of(KEY)))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED);
              assertThat(e.getMessage()).contains("Table [T]");
            });
  }
}
