package io.cairn.sql.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.sql.Identifiers;
import io.cairn.sql.tree.DropTable;
import io.cairn.sql.tree.QualifiedName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.atn.ATN;
import org.antlr.v4.runtime.misc.IntervalSet;
import org.junit.jupiter.api.Test;

/** Keeps the grammar's keywords and {@link Identifiers}'s reserved words in step. */
class TestGrammarKeywords {
  @Test
  void reservedKeywordsAreQuotedWhenPrinted() {
    IntervalSet nonReserved = nonReservedTokens();
    for (String keyword : keywords()) {
      int type = tokenType(keyword);
      if (nonReserved.contains(type)) {
        assertThat(Identifiers.quoteIfNeeded(keyword)).as(keyword).isEqualTo(keyword);
        assertThat(CairnSqlParser.parse("DROP TABLE " + keyword.toLowerCase(Locale.ROOT)))
            .isEqualTo(new DropTable(QualifiedName.of(keyword), false));
      } else {
        assertThat(Identifiers.isReservedWord(keyword)).as(keyword).isTrue();
      }
    }
  }

  @Test
  void printedNamesParseBack() {
    List<String> names = new ArrayList<>(keywords());
    names.addAll(List.of("ORDERS", "Orders", "a\"b", "with space", "X1", "_Y", "1X"));
    for (String name : names) {
      QualifiedName qualifiedName = QualifiedName.of(name, name);
      assertThat(CairnSqlParser.parse("DROP TABLE " + qualifiedName.toSql()))
          .as(qualifiedName.toSql())
          .isEqualTo(new DropTable(qualifiedName, false));
    }
  }

  private static List<String> keywords() {
    Vocabulary vocabulary = CairnSqlBaseLexer.VOCABULARY;
    List<String> keywords = new ArrayList<>();
    for (int type = 1; type <= vocabulary.getMaxTokenType(); type++) {
      String literal = vocabulary.getLiteralName(type);
      if (literal != null && Character.isLetter(literal.charAt(1))) {
        keywords.add(literal.substring(1, literal.length() - 1));
      }
    }
    assertThat(keywords).contains("CREATE", "TABLE", "KEY");
    return keywords;
  }

  private static int tokenType(String keyword) {
    Vocabulary vocabulary = CairnSqlBaseLexer.VOCABULARY;
    for (int type = 1; type <= vocabulary.getMaxTokenType(); type++) {
      if (("'" + keyword + "'").equals(vocabulary.getLiteralName(type))) {
        return type;
      }
    }
    throw new AssertionError("no token for " + keyword);
  }

  private static IntervalSet nonReservedTokens() {
    ATN atn = CairnSqlBaseParser._ATN;
    return atn.nextTokens(atn.ruleToStartState[CairnSqlBaseParser.RULE_nonReserved]);
  }
}
