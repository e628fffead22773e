package io.cairn.store.coprocessor;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.DecimalAccumulator;
import io.cairn.core.agg.DoubleAccumulator;
import io.cairn.core.agg.LongAccumulator;
import io.cairn.core.expr.RowNumber;
import java.util.Arrays;

/**
 * Adds the values of an aggregate call over the rows of a block read as vectors to the rows'
 * groups: doubles and integers one by one, DECIMAL values summed exactly per group in a long and
 * added once per group. A call whose argument an earlier call of the block summed (AVG(x) after
 * SUM(x)) takes that call's sums. Its per-group arrays grow to the most groups a block has; one per
 * scan.
 */
final class BlockSums {
  /** Groups the per-group arrays are made for; they grow past it. */
  private static final int INITIAL_GROUPS = 16;

  /** Per call: per group of the block, the exact sum of the call's DECIMAL values and how many. */
  private final long[][] sums;

  private final long[][] counts;

  /** Per call: the block whose sums {@link #sums} holds (no long overflowed), or -1. */
  private final long[] summedIn;

  /** The current block, counted from 1 by {@link #newBlock}. */
  private long block;

  /** Per group of the current block: how many of its rows there are, when {@link #rowsIn}. */
  private long[] groupRows = new long[INITIAL_GROUPS];

  private long rowsIn = -1;

  /**
   * The sums of {@code calls} aggregate calls. Everything a block needs is made here, not on the
   * first block: a branch taken once per scan in a method as hot as {@link #add} is one its
   * compiled code leaves out, and deoptimizes on in the next scan (a query's second run).
   */
  BlockSums(int calls) {
    sums = new long[calls][INITIAL_GROUPS];
    counts = new long[calls][INITIAL_GROUPS];
    summedIn = new long[calls];
    Arrays.fill(summedIn, -1);
  }

  /** Starts a block: the sums of the one before are of no use any more. */
  void newBlock() {
    block++;
  }

  /**
   * Adds call {@code i}'s values of a block, evaluated for its {@code n} rows, to its groups; the
   * values are those of call {@code source} ({@code i} itself, or an earlier call of this block
   * with the same argument evaluated at the same scale).
   */
  void add(
      Accumulator[][] groups,
      int groupCount,
      int[] groupOfRow,
      int i,
      int source,
      RowNumber number,
      int n) {
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
    if (summedIn[source] != block && !sum(source, groupCount, groupOfRow, status, values, n)) {
      addOneByOne(groups, groupCount, groupOfRow, i, source, status, values, scale, n);
      return;
    }
    long[] s = sums[source];
    long[] c = counts[source];
    for (int g = 0; g < groupCount; g++) {
      if (c[g] > 0) {
        ((DecimalAccumulator) groups[g][i]).addUnscaledSum(s[g], scale, c[g]);
      }
    }
  }

  /**
   * Sums call {@code call}'s values per group into {@link #sums} and {@link #counts}; false when a
   * group's sum would overflow a long (nothing is kept: the caller adds the values one by one).
   */
  private boolean sum(
      int call, int groupCount, int[] groupOfRow, byte[] status, long[] values, int n) {
    if (sums[call].length < groupCount) {
      sums[call] = new long[Math.max(groupCount, 2 * sums[call].length)];
      counts[call] = new long[sums[call].length];
    }
    long[] s = sums[call];
    long[] c = counts[call];
    Arrays.fill(s, 0, groupCount, 0);
    summedIn[call] = -1;
    boolean all = true;
    for (int row = 0; row < n; row++) {
      all &= status[row] == RowNumber.VALUE;
    }
    long overflow = 0;
    if (groupOfRow == null) {
      long total = 0;
      long count = 0;
      for (int row = 0; row < n; row++) {
        if (all || status[row] == RowNumber.VALUE) {
          long v = values[row];
          long r = total + v;
          overflow |= (total ^ r) & (v ^ r); // negative when both terms have the sign r lacks
          total = r;
          count++;
        }
      }
      s[0] = total;
      c[0] = count;
    } else if (all) {
      // every row a value: no status to test, the counts are the groups' rows (once per block)
      for (int row = 0; row < n; row++) {
        int g = groupOfRow[row];
        long total = s[g];
        long v = values[row];
        long r = total + v;
        overflow |= (total ^ r) & (v ^ r);
        s[g] = r;
      }
      System.arraycopy(groupRows(groupCount, groupOfRow, n), 0, c, 0, groupCount);
    } else {
      Arrays.fill(c, 0, groupCount, 0);
      for (int row = 0; row < n; row++) {
        if (status[row] == RowNumber.VALUE) {
          int g = groupOfRow[row];
          long total = s[g];
          long v = values[row];
          long r = total + v;
          overflow |= (total ^ r) & (v ^ r);
          s[g] = r;
          c[g]++;
        }
      }
    }
    if (overflow < 0) {
      return false;
    }
    summedIn[call] = block;
    return true;
  }

  /** How many rows of the block each group has. */
  private long[] groupRows(int groupCount, int[] groupOfRow, int n) {
    if (rowsIn != block) {
      if (groupRows.length < groupCount) {
        groupRows = new long[Math.max(groupCount, 2 * groupRows.length)];
      }
      Arrays.fill(groupRows, 0, groupCount, 0);
      for (int row = 0; row < n; row++) {
        groupRows[groupOfRow[row]]++;
      }
      rowsIn = block;
    }
    return groupRows;
  }

  /**
   * Adds the values row by row, each group's sum handed to its accumulator before it would
   * overflow; in the arrays of call {@code source}, which {@link #sum} sized and left unsummed.
   */
  private void addOneByOne(
      Accumulator[][] groups,
      int groupCount,
      int[] groupOfRow,
      int i,
      int source,
      byte[] status,
      long[] values,
      int scale,
      int n) {
    long[] sums = this.sums[source];
    long[] counts = this.counts[source];
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
