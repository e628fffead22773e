package io.cairn.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.GroupKey;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The join hash table against a plain map of {@link GroupKey}s: keys of longs kept in the long
 * index, and moved to a map when a key of another kind arrives.
 */
class TestJoinHashTable {
  private static final int[] FIRST = {0};
  private static final int[] BOTH = {0, 1};

  @Test
  void longKeysOfOneColumnMatchAsTheirGroupKeysDo() {
    Random random = new Random(7);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      Object key = random.nextInt(20) == 0 ? null : (long) random.nextInt(3_000) - 1_000;
      rows.add(new Object[] {key, "r" + i});
    }
    JoinHashTable table = build(rows, List.of(0));
    assertThat(table.longKeys()).isNotNull();
    assertSameAsMap(table, rows, FIRST);
    assertThat(table.hasNullKey()).isTrue();
    assertThat(table.rowCount()).isEqualTo(rows.size());
  }

  /**
   * Keys spread far wider than the rows (a hashed index), the extremes of a long among them (whose
   * span overflows), and keys dense enough for an array, each with repeated keys chained in order.
   */
  @Test
  void sparseDenseAndExtremeLongKeys() {
    Random random = new Random(5);
    List<Object[]> sparse = new ArrayList<>();
    for (int i = 0; i < 4_000; i++) {
      long key =
          switch (i % 50) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> 0L;
            default -> random.nextLong() % 1_000 * 1_000_003L;
          };
      sparse.add(new Object[] {key, i});
    }
    JoinHashTable table = build(sparse, List.of(0));
    assertSameAsMap(table, sparse, FIRST);
    assertThat(table.longKeys().first(new Object[] {Long.MIN_VALUE})).isZero();
    assertThat(table.next(0)).isEqualTo(50);

    List<Object[]> dense = new ArrayList<>();
    for (int i = 0; i < 4_000; i++) {
      dense.add(new Object[] {1_000_000 + random.nextInt(9_000), i});
    }
    table = build(dense, List.of(0));
    assertSameAsMap(table, dense, FIRST);
    assertThat(table.longKeys().first(new Object[] {999_999})).isEqualTo(-1);
    assertThat(table.longKeys().first(new Object[] {1_009_000})).isEqualTo(-1);
    assertThat(table.longKeys().first(new Object[] {1_000_000L})).isEqualTo(-1); // a Long
  }

  @Test
  void twoColumnsOfIntegersAndLongs() {
    Random random = new Random(11);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      rows.add(new Object[] {random.nextInt(40), (long) random.nextInt(40), i});
    }
    JoinHashTable table = build(rows, List.of(0, 1));
    assertThat(table.longKeys()).isNotNull();
    assertSameAsMap(table, rows, BOTH);
    // a Long probing Integer keys matches nothing, as GroupKey's equality says
    assertThat(table.longKeys().first(new Object[] {3L, 4L})).isEqualTo(-1);
    assertThat(table.matches(GroupKey.of(new Object[] {3L, 4L}, BOTH))).isEmpty();
  }

  @Test
  void aKeyOfAnotherKindMovesTheRowsToAMap() {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      rows.add(new Object[] {(long) (i % 97), i});
    }
    rows.add(new Object[] {new BigDecimal("5.0"), -1});
    rows.add(new Object[] {5, -2}); // an Integer: not a key of the Long column's class
    for (int i = 0; i < 100; i++) {
      rows.add(new Object[] {(long) (i % 13), 1_000 + i});
    }
    JoinHashTable table = build(rows, List.of(0));
    assertThat(table.longKeys()).isNull();
    assertSameAsMap(table, rows, FIRST);
    assertThat(table.matches(GroupKey.of(new Object[] {new BigDecimal("5.00")}, FIRST)))
        .extracting(r -> r[1])
        .containsExactly(-1);
  }

  @Test
  void threeKeyColumnsUseAMap() {
    List<Object[]> rows = List.of(new Object[] {1L, 2L, 3L}, new Object[] {1L, 2L, 3L});
    JoinHashTable table = build(rows, List.of(0, 1, 2));
    assertThat(table.longKeys()).isNull();
    assertSameAsMap(table, rows, new int[] {0, 1, 2});
  }

  @Test
  void anEmptyTableMatchesNothing() {
    JoinHashTable table = build(List.of(), List.of(0));
    assertThat(table.keyCount()).isZero();
    assertThat(table.longKeys().first(new Object[] {1L})).isEqualTo(-1);
    assertThat(table.longKeys().keys(0)).isEmpty();
  }

  /**
   * Values come back equal to those added (a decimal with its scale) whatever each column holds:
   * longs, integers, dates, decimals of one scale, NULLs among them, and columns that turn to
   * objects when a value of another kind or scale arrives, a column of NULLs only.
   */
  @Test
  void valuesComeBackAsAdded() {
    Random random = new Random(3);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      boolean late = i > 1_500;
      rows.add(
          new Object[] {
            (long) i,
            random.nextInt(10) == 0 ? null : random.nextInt(),
            BigDecimal.valueOf(random.nextInt(100_000), 2),
            late && i % 7 == 0 ? new BigDecimal("1.5") : BigDecimal.valueOf(random.nextLong(), 3),
            java.time.LocalDate.ofEpochDay(random.nextInt(20_000)),
            i % 3 == 0 ? null : "s" + i,
            i < 10 ? null : (late && i % 11 == 0 ? "text" : (Object) (long) i),
            new BigDecimal("123456789012345678901234.5"),
            i % 2 == 0 ? null : new byte[] {(byte) i},
            null, // a column of NULLs only
            (short) i // a number of another class: objects
          });
    }
    JoinHashTable table = build(rows, List.of(0));
    for (Object[] expected : rows) {
      List<Object[]> found = table.matches(GroupKey.of(expected, FIRST));
      assertThat(found).hasSize(1);
      assertThat(found.get(0)).containsExactly(expected);
      for (int c = 0; c < expected.length; c++) {
        if (expected[c] instanceof BigDecimal d) {
          assertThat(((BigDecimal) found.get(0)[c]).scale()).isEqualTo(d.scale());
        }
      }
    }
  }

  private static JoinHashTable build(List<Object[]> rows, List<Integer> keys) {
    int columns = rows.isEmpty() ? 2 : rows.get(0).length;
    JoinHashTable.Builder builder = JoinHashTable.builder(columns, keys);
    long bytes = 0;
    for (Object[] row : rows) {
      bytes += builder.add(row);
    }
    assertThat(builder.estimatedBytes()).isEqualTo(bytes);
    return builder.build();
  }

  /** Every key of {@code rows} and some absent ones find the rows a map of GroupKeys finds. */
  private static void assertSameAsMap(JoinHashTable table, List<Object[]> rows, int[] keys) {
    Map<GroupKey, List<Object[]>> expected = new HashMap<>();
    for (Object[] row : rows) {
      GroupKey key = GroupKey.of(row, keys);
      if (!key.hasNull()) {
        expected.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
      }
    }
    assertThat(table.keyCount()).isEqualTo(expected.size());
    for (Map.Entry<GroupKey, List<Object[]>> e : expected.entrySet()) {
      assertThat(table.matches(e.getKey())).containsExactlyElementsOf(e.getValue());
      if (table.longKeys() != null) {
        Object[] values = new Object[keys.length];
        for (int i = 0; i < values.length; i++) {
          values[i] = e.getKey().value(i);
        }
        List<Object[]> found = new ArrayList<>();
        for (int r = table.longKeys().first(values); r >= 0; r = table.next(r)) {
          Object[] row = new Object[table.columnCount()];
          table.copyRow(r, java.util.stream.IntStream.range(0, row.length).toArray(), row, 0);
          found.add(row);
        }
        assertThat(found).containsExactlyElementsOf(e.getValue());
      }
    }
    int grouped = 0;
    for (List<Object[]> group : table.rowsByKey()) {
      assertThat(group).containsExactlyElementsOf(expected.get(GroupKey.of(group.get(0), keys)));
      grouped += group.size();
    }
    assertThat(grouped).isEqualTo(expected.values().stream().mapToInt(List::size).sum());
    for (long absent = 100_000; absent < 100_010; absent++) {
      Object[] probe = new Object[keys.length];
      for (int i = 0; i < probe.length; i++) {
        probe[i] = absent;
      }
      assertThat(table.matches(GroupKey.of(probe, keys))).isEmpty();
    }
    if (table.longKeys() != null) {
      assertThat(table.longKeys().keys(0)).hasSize(expected.size());
    }
  }
}
