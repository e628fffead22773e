package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.GroupKey;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A join's hash index finds, for every probe row, exactly the build rows a nested loop with
 * GroupKey's equality finds, in build order: keys of Longs and of Integers (the table of longs,
 * with colliding and negative keys, Long.MIN_VALUE, probes of another class; the array of a dense
 * range, probed out of it and across the ends of a long), two columns of them (the table of pairs),
 * mixed classes and decimals (the map of GroupKeys), NULLs on both sides.
 */
class TestJoinIndex {
  private final Random random = new Random(20261127);

  @Test
  void findsWhatANestedLoopFinds() {
    Supplier<Object> longs = () -> nullOr((long) random.nextInt(40) - 20);
    Supplier<Object> farLongs =
        () -> nullOr(random.nextBoolean() ? Long.MIN_VALUE : (long) random.nextInt(8) << 40);
    Supplier<Object> ints = () -> nullOr(random.nextInt(30));
    Supplier<Object> mixed = () -> random.nextBoolean() ? longs.get() : ints.get();
    Supplier<Object> decimals = () -> nullOr(BigDecimal.valueOf(random.nextInt(20), 1));
    check(longs, longs, 1);
    check(farLongs, farLongs, 1);
    check(ints, ints, 1);
    check(longs, ints, 1); // Integer probes of Long keys: equal to none
    check(mixed, mixed, 1);
    check(decimals, decimals, 1);
    check(ints, ints, 2);
    // two columns of longs or ints (the table of pairs), probes of another class, far keys
    check(longs, longs, 2);
    check(farLongs, farLongs, 2);
    check(longs, ints, 2);
    check(mixed, mixed, 2);
    check(longs, () -> random.nextBoolean() ? longs.get() : ints.get(), 2);
    // keys of a dense range (an array by key): probes below and above it, and far out of it
    check(ints, () -> nullOr(random.nextInt(60) - 15), 1);
    Supplier<Object> top = () -> nullOr(Long.MAX_VALUE - random.nextInt(30));
    check(
        top,
        () -> random.nextBoolean() ? top.get() : nullOr(Long.MIN_VALUE + random.nextInt(40)),
        1);
  }

  private Object nullOr(Object v) {
    return random.nextInt(10) == 0 ? null : v;
  }

  private void check(Supplier<Object> build, Supplier<Object> probe, int keyCount) {
    int[] keys = keyCount == 1 ? new int[] {1} : new int[] {1, 2};
    for (int size : new int[] {0, 1, 7, 300}) {
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        rows.add(new Object[] {"row " + i, build.get(), build.get()});
      }
      JoinIndex index = JoinIndex.of(rows, keys);
      for (int p = 0; p < 200; p++) {
        Object[] probeRow = {probe.get(), "x", probe.get()};
        int[] probeKeys = keyCount == 1 ? new int[] {0} : new int[] {0, 2};
        GroupKey key = GroupKey.of(probeRow, probeKeys);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < size && !key.hasNull(); i++) {
          if (GroupKey.of(rows.get(i), keys).equals(key)) {
            expected.add(i);
          }
        }
        List<Integer> actual = new ArrayList<>();
        for (int i = index.first(probeRow, probeKeys); i >= 0; i = index.next(i)) {
          actual.add(i);
        }
        assertThat(actual).as("probe %s over %s rows", key, size).isEqualTo(expected);
      }
    }
  }
}
