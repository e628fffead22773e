package io.cairn.tpch.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestTextTable {
  @Test
  void padsColumnsAndAlignsNumbersRight() {
    String out =
        new TextTable("query", "ms", "note")
            .alignLeft(2)
            .addRow("count", "1.5", "ok")
            .addRow("q1", "123.25")
            .render();
    assertThat(out)
        .isEqualTo(
            "query      ms  note\n"
                + "-----  ------  ----\n"
                + "count     1.5  ok\n"
                + "q1     123.25\n");
  }

  @Test
  void tooManyCellsFails() {
    assertThatThrownBy(() -> new TextTable("a").addRow("1", "2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 cells");
  }
}
