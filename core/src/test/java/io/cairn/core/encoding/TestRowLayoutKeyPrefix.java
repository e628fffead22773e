package io.cairn.core.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which column sets are a layout's first key columns (rows equal there are adjacent). */
class TestRowLayoutKeyPrefix {
  @Test
  void theFirstKeyColumnsInAnyOrderEachOnce() {
    // columns A, B, C, D; key (C, A, D)
    RowLayout layout =
        new RowLayout(
            List.of(
                new RowLayout.ColumnLayout(1, DataType.BIGINT),
                new RowLayout.ColumnLayout(2, DataType.INTEGER),
                new RowLayout.ColumnLayout(3, DataType.INTEGER),
                new RowLayout.ColumnLayout(4, DataType.VARCHAR)),
            List.of(
                new RowLayout.KeyColumn(2, SortOrder.ASC),
                new RowLayout.KeyColumn(0, SortOrder.DESC),
                new RowLayout.KeyColumn(3, SortOrder.ASC)),
            false,
            1);
    assertThat(layout.isKeyPrefix(new int[] {2})).isTrue();
    assertThat(layout.isKeyPrefix(new int[] {0, 2})).isTrue();
    assertThat(layout.isKeyPrefix(new int[] {3, 2, 0})).isTrue();
    assertThat(layout.isKeyPrefix(new int[] {0})).isFalse(); // the second key column alone
    assertThat(layout.isKeyPrefix(new int[] {2, 3})).isFalse(); // skips A
    assertThat(layout.isKeyPrefix(new int[] {2, 2})).isFalse(); // C twice, no A
    assertThat(layout.isKeyPrefix(new int[] {2, 0, 3, 1})).isFalse(); // more than the key
    assertThat(layout.isKeyPrefix(new int[0])).isFalse();
    RowLayout rowIds =
        new RowLayout(List.of(new RowLayout.ColumnLayout(1, DataType.BIGINT)), List.of(), true, 1);
    assertThat(rowIds.isKeyPrefix(new int[] {0})).isFalse();
  }
}
