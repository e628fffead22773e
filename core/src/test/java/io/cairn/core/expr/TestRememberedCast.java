package io.cairn.core.expr;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.type.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestRememberedCast {
  private final List<Object> casted = new ArrayList<>();
  private final DataType decimal2 = DataType.decimal(38, 2);
  private final RememberedCast cast =
      new RememberedCast(
          v -> {
            casted.add(v);
            return Values.cast(v, decimal2);
          });

  @Test
  void theSameDecimalIsCastOnce() {
    BigDecimal v = new BigDecimal("7.654321");
    for (int i = 0; i < 5; i++) {
      assertThat(cast.apply(v)).isEqualTo(new BigDecimal("7.65"));
    }
    assertThat(casted).containsExactly(v);
  }

  @Test
  void anEqualValueThatIsAnotherObjectIsCastAgainAndAnotherValueGetsItsOwnResult() {
    BigDecimal a = new BigDecimal("1.005");
    BigDecimal b = new BigDecimal("1.005");
    BigDecimal c = new BigDecimal("2.994");
    assertThat(cast.apply(a)).isEqualTo(new BigDecimal("1.01"));
    assertThat(cast.apply(b)).isEqualTo(new BigDecimal("1.01"));
    assertThat(cast.apply(c)).isEqualTo(new BigDecimal("2.99"));
    assertThat(cast.apply(a)).isEqualTo(new BigDecimal("1.01"));
    assertThat(casted).containsExactly(a, b, c, a);
  }

  @Test
  void mutableValuesAreNeverRemembered() {
    RememberedCast toText = new RememberedCast(v -> new String((byte[]) v, UTF_8));
    byte[] bytes = {'a', 'b'};
    assertThat(toText.apply(bytes)).isEqualTo("ab");
    bytes[1] = 'c'; // a reused buffer changed in place
    assertThat(toText.apply(bytes)).isEqualTo("ac");
  }

  @Test
  void afterItsTriesNoNewValueIsRemembered() {
    for (int i = 0; i < RememberedCast.TRIES; i++) {
      cast.apply(BigDecimal.valueOf(i));
    }
    BigDecimal late = new BigDecimal("3.14159");
    cast.apply(late);
    cast.apply(late);
    assertThat(casted).hasSize(RememberedCast.TRIES + 2);
  }
}
