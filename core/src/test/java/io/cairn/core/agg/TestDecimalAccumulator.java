package io.cairn.core.agg;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.type.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Summing and averaging DECIMALs handed over as unscaled longs gives exactly what adding the
 * BigDecimals gives: value and scale, across scales that change, sums that overflow a long, partial
 * states and merges; doubles handed over unboxed likewise.
 */
class TestDecimalAccumulator {
  private static final AggregateCall SUM =
      new AggregateCall(AggregateKind.SUM, List.of(0), false, DataType.decimal(38, 4));

  private static final AggregateCall AVG =
      new AggregateCall(AggregateKind.AVG, List.of(0), false, DataType.decimal(38, 6));

  @Test
  void unscaledLongsSumLikeBigDecimals() {
    sumsLikeBigDecimals(SUM);
  }

  @Test
  void unscaledLongsAverageLikeBigDecimals() {
    sumsLikeBigDecimals(AVG);
  }

  @Test
  void doublesAddLikeBoxedDoubles() {
    Random random = new Random(5);
    for (AggregateKind kind : List.of(AggregateKind.SUM, AggregateKind.AVG)) {
      AggregateCall call = new AggregateCall(kind, List.of(0), false, DataType.DOUBLE);
      Accumulator boxed = Aggregates.create(call);
      DoubleAccumulator primitive = (DoubleAccumulator) Aggregates.create(call);
      for (int i = 0; i < 100; i++) {
        double d = random.nextGaussian() * 1e6;
        boxed.add(new Object[] {d});
        primitive.addDouble(d);
      }
      assertThat(primitive.result()).isEqualTo(boxed.result());
    }
  }

  private static void sumsLikeBigDecimals(AggregateCall call) {
    Random random = new Random(11);
    for (int round = 0; round < 300; round++) {
      Accumulator boxed = Aggregates.create(call);
      DecimalAccumulator unscaled = (DecimalAccumulator) Aggregates.create(call);
      DecimalAccumulator half = (DecimalAccumulator) Aggregates.create(call);
      List<BigDecimal> values = new ArrayList<>();
      int n = random.nextInt(50);
      for (int i = 0; i < n; i++) {
        long u =
            switch (random.nextInt(4)) {
              case 0 -> Long.MAX_VALUE - random.nextInt(10); // overflows the long sum
              case 1 -> Long.MIN_VALUE + random.nextInt(10);
              default -> random.nextInt(2_000_001) - 1_000_000L;
            };
        int scale = random.nextInt(6) == 0 ? random.nextInt(4) : 2; // mostly one scale
        values.add(BigDecimal.valueOf(u, scale));
        boxed.add(new Object[] {BigDecimal.valueOf(u, scale)});
        unscaled.addUnscaled(u, scale);
        if (i % 2 == 0) {
          half.addUnscaled(u, scale);
        } else {
          half.add(new Object[] {BigDecimal.valueOf(u, scale)});
        }
      }
      Object[] a = new Object[2];
      Object[] b = new Object[2];
      boxed.writePartial(a, 0);
      unscaled.writePartial(b, 0);
      assertThat(b[0]).as("partial of %s", values).isEqualTo(a[0]);
      assertThat(unscaled.result()).as("result of %s", values).isEqualTo(boxed.result());
      // a partial state merged into another accumulator
      Accumulator merged = Aggregates.create(call);
      merged.mergePartial(b, 0);
      assertThat(merged.result()).isEqualTo(boxed.result());
      // boxed and unscaled values mixed, and accumulators merged
      assertThat(half.result()).as("mixed, %s", values).isEqualTo(boxed.result());
      Accumulator both = Aggregates.create(call);
      both.merge(half);
      assertThat(both.result()).as("merged, %s", values).isEqualTo(boxed.result());
    }
  }

  @Test
  void nothingAddedIsNull() {
    DecimalAccumulator a = (DecimalAccumulator) Aggregates.create(SUM);
    assertThat(a.result()).isNull();
    Object[] out = new Object[1];
    a.writePartial(out, 0);
    assertThat(out[0]).isNull();
  }
}
