package io.cairn.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestIdentifiers {
  @Test
  void unquotedNamesAreUpperCased() {
    assertThat(Identifiers.normalize("orders")).isEqualTo("ORDERS");
    assertThat(Identifiers.normalize("MixedCase")).isEqualTo("MIXEDCASE");
    // Locale.ROOT: no Turkish dotless i.
    assertThat(Identifiers.normalize("title")).isEqualTo("TITLE");
  }

  @Test
  void quotedNamesAreKeptExactly() {
    assertThat(Identifiers.normalize("\"MixedCase\"")).isEqualTo("MixedCase");
    assertThat(Identifiers.normalize("\"a\"\"b\"")).isEqualTo("a\"b");
    assertThat(Identifiers.normalize("\"with space\"")).isEqualTo("with space");
    assertThat(Identifiers.normalize("\"\"\"\"")).isEqualTo("\"");
  }

  @Test
  void unquoteRejectsUnquotedText() {
    assertThatThrownBy(() -> Identifiers.unquote("abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[abc]");
  }

  @Test
  void quote() {
    assertThat(Identifiers.quote("a\"b")).isEqualTo("\"a\"\"b\"");
    assertThat(Identifiers.quote("x")).isEqualTo("\"x\"");
  }

  @Test
  void quoteIfNeeded() {
    assertThat(Identifiers.quoteIfNeeded("ORDERS")).isEqualTo("ORDERS");
    assertThat(Identifiers.quoteIfNeeded("O_ORDER$KEY1")).isEqualTo("O_ORDER$KEY1");
    assertThat(Identifiers.quoteIfNeeded("_X")).isEqualTo("_X");
    assertThat(Identifiers.quoteIfNeeded("Orders")).isEqualTo("\"Orders\"");
    assertThat(Identifiers.quoteIfNeeded("orders")).isEqualTo("\"orders\"");
    assertThat(Identifiers.quoteIfNeeded("1ST")).isEqualTo("\"1ST\"");
    assertThat(Identifiers.quoteIfNeeded("A B")).isEqualTo("\"A B\"");
    assertThat(Identifiers.quoteIfNeeded("A\"B")).isEqualTo("\"A\"\"B\"");
    assertThat(Identifiers.quoteIfNeeded("")).isEqualTo("\"\"");
    assertThat(Identifiers.quoteIfNeeded("SELECT")).isEqualTo("\"SELECT\"");
    assertThat(Identifiers.quoteIfNeeded("TABLE")).isEqualTo("\"TABLE\"");
    assertThat(Identifiers.quoteIfNeeded("KEY")).isEqualTo("KEY");
  }

  @Test
  void quoteIfNeededRoundTrips() {
    for (String name : new String[] {"ORDERS", "Orders", "a\"b", "DATE", "X1", "é", "É"}) {
      assertThat(Identifiers.normalize(Identifiers.quoteIfNeeded(name))).isEqualTo(name);
    }
  }
}
