package io.cairn.tpch.queries;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Date;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestResultCheck {
  private static ResultCheck.Answer answer(List<?>... rows) {
    return new ResultCheck.Answer(
        List.of("A", "B"),
        Arrays.stream(rows)
            .map(r -> r.stream().map(ResultCheck::normalize).toList())
            .map(r -> (List<Object>) new java.util.ArrayList<Object>(r))
            .toList());
  }

  @Test
  void numbersWithinTheToleranceMatch() {
    assertThat(ResultCheck.same(new BigDecimal("100.0000001"), new BigDecimal("100"))).isTrue();
    assertThat(ResultCheck.same(new BigDecimal("100.001"), new BigDecimal("100"))).isFalse();
    assertThat(ResultCheck.same(BigDecimal.ZERO, new BigDecimal("1e-10"))).isTrue();
    assertThat(ResultCheck.same(BigDecimal.ZERO, new BigDecimal("1e-8"))).isFalse();
    assertThat(ResultCheck.same(ResultCheck.normalize(7L), ResultCheck.normalize(7.0d))).isTrue();
  }

  @Test
  void charPaddingAndDateTypesDoNotMatter() {
    var expected = answer(List.of("BUILDING", LocalDate.of(1995, 3, 15)));
    var actual = answer(List.of("BUILDING  ", Date.valueOf("1995-03-15")));
    assertThat(ResultCheck.compare(expected, actual, true).matches()).isTrue();
  }

  @Test
  void orderMattersOnlyForOrderedQueries() {
    var expected = answer(List.of("x", 1), List.of("y", 2));
    var actual = answer(List.of("y", 2), List.of("x", 1));
    assertThat(ResultCheck.compare(expected, actual, false).matches()).isTrue();
    var ordered = ResultCheck.compare(expected, actual, true);
    assertThat(ordered.matches()).isFalse();
    assertThat(ordered.detail()).startsWith("same rows in another order: row 1 column 1 (A)");
  }

  @Test
  void theFirstDifferenceIsNamed() {
    var expected = answer(List.of("x", 1), List.of("y", 2));
    var verdict = ResultCheck.compare(expected, answer(List.of("x", 1), List.of("y", 3)), true);
    assertThat(verdict.detail()).startsWith("row 2 column 2 (B): 3, expected 2");
    var missing = ResultCheck.compare(expected, answer(List.of("x", 1)), true);
    assertThat(missing.detail())
        .isEqualTo("1 rows, expected 2; first difference: row 2 missing, expected ['y', 2]");
  }
}
