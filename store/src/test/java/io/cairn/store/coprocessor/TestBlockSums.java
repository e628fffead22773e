package io.cairn.store.coprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.DecimalAccumulator;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.NumberBatch;
import io.cairn.core.expr.RowNumber;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TestBlockSums {
  private static final AggregateCall SUM =
      new AggregateCall(AggregateKind.SUM, List.of(0), false, DataType.decimal(38, 2));
  private static final AggregateCall AVG =
      new AggregateCall(AggregateKind.AVG, List.of(0), false, DataType.decimal(38, 6));

  /**
   * DECIMAL sums of blocks (one group or several; NULLs in some blocks, none in others; sums that
   * overflow a long in some) and an AVG and a second SUM that take the first call's sums give what
   * adding each value to its group's accumulators gives.
   */
  @Test
  void blockSumsAreTheSumsOfEachValue() {
    RowLayout layout =
        new RowLayout(
            List.of(new RowLayout.ColumnLayout(1, DataType.decimal(20, 2))),
            List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
            false,
            1);
    RowNumber number =
        RowNumber.compile(
            new Expr.Literal(new BigDecimal("1.00"), DataType.decimal(20, 2)), layout);
    assertThat(number.scale()).isEqualTo(2);
    Random random = new Random(11);
    int groupCount = 40; // past the arrays' first size
    List<AggregateCall> calls = List.of(SUM, AVG, SUM);
    Accumulator[][] groups = new Accumulator[groupCount][calls.size()];
    Accumulator[][] expected = new Accumulator[groupCount][calls.size()];
    for (int g = 0; g < groupCount; g++) {
      for (int c = 0; c < calls.size(); c++) {
        groups[g][c] = Aggregates.create(calls.get(c));
        expected[g][c] = Aggregates.create(calls.get(c));
      }
    }
    BlockSums sums = new BlockSums(calls.size());
    int overflowing = 0;
    for (int block = 0; block < 400; block++) {
      int n = 1 + random.nextInt(NumberBatch.CAPACITY);
      boolean nulls = block % 3 == 0;
      boolean huge = block % 5 == 1;
      boolean oneGroup = block % 4 == 2;
      int blockGroups = oneGroup ? 1 : 1 + random.nextInt(groupCount);
      byte[] status = new byte[NumberBatch.CAPACITY];
      long[] values = new long[NumberBatch.CAPACITY];
      int[] groupOfRow = oneGroup ? null : new int[NumberBatch.CAPACITY];
      long total = 0;
      boolean overflows = false;
      for (int row = 0; row < n; row++) {
        status[row] = (byte) (nulls && random.nextInt(4) == 0 ? RowNumber.NULL : RowNumber.VALUE);
        values[row] =
            huge
                ? Long.MAX_VALUE / 3 - random.nextInt(1000)
                : random.nextInt(2_000_000) - 1_000_000;
        if (groupOfRow != null) {
          groupOfRow[row] = random.nextInt(blockGroups);
        }
        if (status[row] == RowNumber.VALUE) {
          long r = total + values[row];
          overflows |= ((total ^ r) & (values[row] ^ r)) < 0;
          total = r;
          for (int c = 0; c < calls.size(); c++) {
            int g = groupOfRow == null ? 0 : groupOfRow[row];
            ((DecimalAccumulator) expected[g][c]).addUnscaled(values[row], 2);
          }
        }
      }
      overflowing += overflows ? 1 : 0;
      number.batchStatus = status;
      number.batchValues = values;
      sums.newBlock();
      sums.add(groups, blockGroups, groupOfRow, 0, 0, number, n);
      sums.add(groups, blockGroups, groupOfRow, 1, 0, number, n);
      sums.add(groups, blockGroups, groupOfRow, 2, 0, number, n);
    }
    assertThat(overflowing).as("blocks whose sum overflows a long").isGreaterThan(20);
    for (int g = 0; g < groupCount; g++) {
      for (int c = 0; c < calls.size(); c++) {
        assertThat(groups[g][c].result())
            .as("group %s call %s", g, c)
            .isEqualTo(expected[g][c].result());
      }
    }
  }
}
