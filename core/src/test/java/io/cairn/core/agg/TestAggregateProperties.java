package io.cairn.core.agg;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Partial states merged in order give the one-step result, for any split of the rows into runs
 * (empty ones included); jqwik reports the seed of any failure. Sums stay within BIGINT: an
 * overflow depends on the order of additions, which a split changes.
 */
class TestAggregateProperties {
  private static final List<AggregateCall> CALLS =
      List.of(
          new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.COUNT, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.SUM, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.SUM0, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.AVG, List.of(0), false, DataType.decimal(38, 12)),
          new AggregateCall(AggregateKind.AVG, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.MIN, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.MAX, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.ANY_VALUE, List.of(0), false, DataType.BIGINT),
          new AggregateCall(AggregateKind.SUM, List.of(1), false, DataType.decimal(38, 2)),
          new AggregateCall(AggregateKind.AVG, List.of(1), false, DataType.decimal(38, 12)),
          new AggregateCall(AggregateKind.MIN, List.of(1), false, DataType.decimal(12, 2)),
          new AggregateCall(AggregateKind.MAX, List.of(1), false, DataType.decimal(12, 2)));

  @Provide
  Arbitrary<List<Object[]>> rows() {
    Arbitrary<Object> longs =
        Arbitraries.longs().between(-(1L << 40), 1L << 40).map(l -> (Object) l).injectNull(0.2);
    Arbitrary<Object> decimals =
        Arbitraries.longs()
            .between(-1_000_000_000L, 1_000_000_000L)
            .map(l -> (Object) BigDecimal.valueOf(l, 2))
            .injectNull(0.2);
    return Combinators.combine(longs, decimals)
        .as((l, d) -> new Object[] {l, d})
        .list()
        .ofMaxSize(40);
  }

  @Property
  void partialStatesMergeToTheOneStepResult(
      @ForAll("rows") List<Object[]> rows,
      @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 8) Integer> runs,
      @ForAll @IntRange(min = 0, max = 12) int which) {
    AggregateCall call = CALLS.get(which);
    Accumulator single = Aggregates.create(call);
    rows.forEach(single::add);

    int width = Aggregates.partialTypes(call).size();
    Accumulator last = Aggregates.create(call);
    List<Integer> ends = new ArrayList<>();
    int end = 0;
    for (int run : runs) {
      end = Math.min(rows.size(), end + run);
      ends.add(end);
    }
    ends.add(rows.size());
    int start = 0;
    for (int stop : ends) {
      Accumulator partial = Aggregates.create(call);
      rows.subList(start, stop).forEach(partial::add);
      Object[] state = new Object[width];
      partial.writePartial(state, 0);
      last.mergePartial(state, 0);
      start = stop;
    }
    Object expected = single.result();
    assertThat(last.result()).as(call + " over " + ends).isEqualTo(expected);
    if (expected != null) {
      assertThat(last.result()).isExactlyInstanceOf(expected.getClass());
    }
  }

  @Property
  void longsGiveTheBoxedResult(
      @ForAll @Size(max = 30) List<Long> values,
      @ForAll boolean large,
      @ForAll @IntRange(min = 0, max = 5) int which) {
    DataType bigint = DataType.BIGINT;
    AggregateCall call =
        List.of(
                new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, bigint),
                new AggregateCall(AggregateKind.COUNT, List.of(0), false, bigint),
                new AggregateCall(AggregateKind.SUM, List.of(0), false, bigint),
                new AggregateCall(AggregateKind.SUM0, List.of(0), false, DataType.INTEGER),
                new AggregateCall(AggregateKind.AVG, List.of(0), false, DataType.decimal(38, 12)),
                new AggregateCall(AggregateKind.AVG, List.of(0), false, bigint))
            .get(which);
    Accumulator boxed = Aggregates.create(call);
    LongAccumulator primitive = (LongAccumulator) Aggregates.create(call);
    Object expected;
    try {
      for (long v : values) {
        boxed.add(new Object[] {large ? v : v >> 34});
      }
      expected = boxed.result();
    } catch (CairnException e) {
      expected = e.getMessage();
    }
    Object actual;
    try {
      for (long v : values) {
        primitive.addLong(large ? v : v >> 34);
      }
      actual = primitive.result();
    } catch (CairnException e) {
      actual = e.getMessage();
    }
    assertThat(actual).as(call.toString()).isEqualTo(expected);
  }
}
