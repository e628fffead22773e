package io.cairn.store.coprocessor;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.DecimalAccumulator;
import io.cairn.core.agg.DoubleAccumulator;
import io.cairn.core.agg.LongAccumulator;
import io.cairn.core.expr.RowNumber;
import java.util.Arrays;

/**
 * Adds the values of an aggregate call over the rows of a block read as vectors to the rows'
 * groups: doubles and integers one by one, DECIMAL values summed exactly per group in a long
 * (handed over before it would overflow) and added once per group. Its per-group arrays grow to the
 * most groups a block has; one per scan.
 */
final class BlockSums {
  /** Per group of a block: the exact sum of a DECIMAL call's values, and how many. */
  private long[] groupSums = new long[1];

  private long[] groupCounts = new long[1];

  /** Adds call {@code i}'s values of a block, evaluated for its {@code n} rows, to its groups. */
  void add(
      Accumulator[][] groups, int groupCount, int[] groupOfRow, int i, RowNumber number, int n) {
    byte[] status = number.batchStatus;
    if (number.floating()) {
      double[] values = number.batchDoubles;
      for (int row = 0; row < n; row++) {
        if (status[row] == RowNumber.VALUE) {
          int g = groupOfRow == null ? 0 : groupOfRow[row];
          ((DoubleAccumulator) groups[g][i]).addDouble(values[row]);
        }
      }
      return;
    }
    long[] values = number.batchValues;
    int scale = number.scale();
    if (scale == 0 && groups[0][i] instanceof LongAccumulator) {
      for (int row = 0; row < n; row++) {
        if (status[row] == RowNumber.VALUE) {
          int g = groupOfRow == null ? 0 : groupOfRow[row];
          ((LongAccumulator) groups[g][i]).addLong(values[row]);
        }
      }
      return;
    }
    if (groupSums.length < groupCount) {
      groupSums = new long[Math.max(groupCount, 2 * groupSums.length)];
      groupCounts = new long[groupSums.length];
    }
    long[] sums = groupSums;
    long[] counts = groupCounts;
    Arrays.fill(sums, 0, groupCount, 0);
    Arrays.fill(counts, 0, groupCount, 0);
    for (int row = 0; row < n; row++) {
      if (status[row] == RowNumber.VALUE) {
        int g = groupOfRow == null ? 0 : groupOfRow[row];
        long sum = sums[g];
        long value = values[row];
        long r = sum + value;
        if (((sum ^ r) & (value ^ r)) < 0) {
          // overflow only when both terms have the sign the result lacks
          ((DecimalAccumulator) groups[g][i]).addUnscaledSum(sum, scale, counts[g]);
          r = value;
          counts[g] = 0;
        }
        sums[g] = r;
        counts[g]++;
      }
    }
    for (int g = 0; g < groupCount; g++) {
      if (counts[g] > 0) {
        ((DecimalAccumulator) groups[g][i]).addUnscaledSum(sums[g], scale, counts[g]);
      }
    }
  }
}
