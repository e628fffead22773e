package io.cairn.sql.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.sql.grammar.ClassifiedStatement.Action;
import io.cairn.sql.grammar.ClassifiedStatement.Kind;
import io.cairn.sql.grammar.ClassifiedStatement.OnDuplicateKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestStatementClassifier {
  private static ClassifiedStatement classify(String sql) {
    return StatementClassifier.classify(sql);
  }

  @Test
  void ddlKinds() {
    assertThat(classify("CREATE TABLE t (a INT)").kind()).isEqualTo(Kind.CAIRN_DDL);
    assertThat(classify("-- c\n/* d */ drop /*+ x */ table t").kind()).isEqualTo(Kind.CAIRN_DDL);
    assertThat(classify("ALTER TABLE s.t SET TTL=1").kind()).isEqualTo(Kind.CAIRN_DDL);
    assertThat(classify("UPDATE STATISTICS t").kind()).isEqualTo(Kind.CAIRN_DDL);
    assertThat(classify("UPDATE STATISTICS t SET x = 1").kind()).isEqualTo(Kind.DML);
    assertThat(classify("MAJOR_COMPACT TABLE t").kind()).isEqualTo(Kind.CAIRN_DDL);
    // every index statement is the grammar's, supported or not (the planner names what is not)
    for (String sql :
        List.of(
            " /* x */ create -- y\n local index i on t (a)",
            "CREATE INDEX i ON t (a)",
            "create unique index i on t (a)",
            "CREATE UNIQUE LOCAL INDEX i ON t (a)",
            "DROP INDEX i",
            "ALTER INDEX i ON t REBUILD",
            "ALTER INDEX i RENAME TO j",
            "CHECK INDEX i ON t")) {
      assertThat(classify(sql).kind()).as(sql).isEqualTo(Kind.CAIRN_DDL);
    }
    assertThat(classify("CREATE \"INDEX\" i").kind()).isEqualTo(Kind.QUERY);
    assertThat(classify("CHECK TABLE t").kind()).isEqualTo(Kind.QUERY);
    assertThat(classify("\"CREATE\" TABLE t").kind()).isEqualTo(Kind.QUERY);
  }

  @Test
  void unsupportedStatementsByName() {
    assertThat(classify("ALTER TABLE t ADD c INT").unsupported()).isEqualTo("ALTER TABLE");
    assertThat(classify(" /* x */ create -- y\n view v as select 1"))
        .satisfies(c -> assertThat(c.kind()).isEqualTo(Kind.UNSUPPORTED))
        .satisfies(c -> assertThat(c.unsupported()).isEqualTo("CREATE VIEW"));
    assertThat(classify("truncate table t").unsupported()).isEqualTo("TRUNCATE TABLE");
    // a hint ends the leading words; quoted words are names
    assertThat(classify("CREATE /*+ x */ VIEW v").kind()).isEqualTo(Kind.QUERY);
    assertThat(classify("CREATE \"VIEW\" v").kind()).isEqualTo(Kind.QUERY);
    assertThat(classify("'CREATE' VIEW v").kind()).isEqualTo(Kind.QUERY);
    assertThat(classify("CREATE VIEWS").kind()).isEqualTo(Kind.QUERY);
  }

  @Test
  void explainAndItsBody() {
    ClassifiedStatement c = classify("EXPLAIN PLAN FOR  SELECT 1");
    assertThat(c.kind()).isEqualTo(Kind.EXPLAIN);
    assertThat(c.bodyOffset()).isEqualTo(18);
    assertThat(c.explained().orElseThrow().text()).isEqualTo("SELECT 1");
    assertThat(c.explained().orElseThrow().kind()).isEqualTo(Kind.QUERY);

    ClassifiedStatement nested = classify("/* a */ explain /* b */ explain DELETE FROM t");
    assertThat(nested.explained().orElseThrow().text()).isEqualTo("explain DELETE FROM t");
    assertThat(nested.explained().orElseThrow().explained().orElseThrow().kind())
        .isEqualTo(Kind.DML);

    assertThat(classify("EXPLAIN PLAN SELECT 1").explained().orElseThrow().text())
        .isEqualTo("PLAN SELECT 1");
    assertThat(classify("EXPLAIN /*+ x */ SELECT 1").explained().orElseThrow().text())
        .isEqualTo("/*+ x */ SELECT 1");
    assertThat(classify("EXPLAIN CREATE TABLE t (a INT)").explained().orElseThrow().kind())
        .isEqualTo(Kind.CAIRN_DDL);
    assertThat(classify("EXPLAIN").explained().orElseThrow().text()).isEmpty();
    assertThat(classify("EXPLAIN /* never closed").explained().orElseThrow().text()).isEmpty();
    assertThat(classify("EXPLAIN 'never closed").explained().orElseThrow().text())
        .isEqualTo("'never closed");
    assertThat(classify("SELECT 'EXPLAIN'").kind()).isEqualTo(Kind.QUERY);
    assertThat(classify("\"EXPLAIN\"").kind()).isEqualTo(Kind.QUERY);
  }

  @Test
  void statementHintOfDml() {
    String sql = "  DELETE /*+ A B('x y') C */ FROM T";
    ClassifiedStatement c = classify(sql);
    assertThat(c.kind()).isEqualTo(Kind.DML);
    ClassifiedStatement.StatementHint hint = c.statementHint().orElseThrow();
    assertThat(hint.names()).containsExactly("A", "B", "C");
    assertThat(sql.substring(hint.start(), hint.end())).isEqualTo("/*+ A B('x y') C */");
    assertThat(c.hintCommas()).isEmpty(); // the statement hint is blanked, not rewritten
    assertThat(c.rewritten(sql, sql.length()))
        .hasSameSizeAs(sql)
        .isEqualTo("  DELETE                     FROM T");

    assertThat(classify("SELECT 1").statementHint()).isEmpty();
    assertThat(classify("DELETE FROM T").statementHint()).isEmpty();
    assertThat(classify("UPSERT INTO U /*+ x */ SELECT * FROM T").statementHint()).isEmpty();
    assertThat(classify("/* c */ UPSERT /*+ x */ INTO U SELECT 1").statementHint()).isEmpty();
    assertThat(classify("update /*+ NO_CACHE */ t set a = 1").statementHint().orElseThrow().names())
        .containsExactly("NO_CACHE");
    assertThat(classify("UPSERT /*+ never closed INTO t").statementHint()).isEmpty();
  }

  @Test
  void hintItemsGetCommas() {
    String sql = "SELECT /*+ INDEX(T IDX)  NO_CACHE 'a b' */ * FROM T -- /*+ X Y */";
    ClassifiedStatement c = classify(sql);
    assertThat(c.rewritten(sql, sql.length()))
        .isEqualTo("SELECT /*+ INDEX(T,IDX), NO_CACHE,'a b' */ * FROM T -- /*+ X Y */");
    String quoted = "SELECT '/*+ A B */', \"/*+ C D */\" FROM T";
    assertThat(classify(quoted).rewritten(quoted, quoted.length())).isEqualTo(quoted);
  }

  @Test
  void systemSchemaIsQuoted() {
    String sql =
        "SELECT * FROM system.stats s, SYSTEM . \"X\" WHERE 'SYSTEM.x' = \"SYSTEM\".y"
            + " /* SYSTEM.z */ AND mysystem.a = $SYSTEM.b AND SYSTEM /* c */ .c = 1";
    ClassifiedStatement c = classify(sql);
    assertThat(c.rewritten(sql, sql.length()))
        .isEqualTo(
            "SELECT * FROM \"SYSTEM\".stats s, \"SYSTEM\" . \"X\" WHERE 'SYSTEM.x' = \"SYSTEM\".y"
                + " /* SYSTEM.z */ AND mysystem.a = $SYSTEM.b AND SYSTEM /* c */ .c = 1");
    // nothing at or after the limit is rewritten
    assertThat(c.rewritten(sql, 20)).startsWith("SELECT * FROM \"SYSTEM\".stats s, SYSTEM . ");
  }

  @Test
  void commentsDoNotNest() {
    // the first */ ends a comment, as in Calcite: what follows is SQL again
    ClassifiedStatement c = classify("/* a /* b */ EXPLAIN SELECT 1 */");
    assertThat(c.kind()).isEqualTo(Kind.EXPLAIN);
    assertThat(c.explained().orElseThrow().text()).isEqualTo("SELECT 1 */");
    assertThat(classify("/* a /* b */ DROP TABLE t").kind()).isEqualTo(Kind.CAIRN_DDL);
    assertThat(classify("/* DROP TABLE t */ SELECT 1").kind()).isEqualTo(Kind.QUERY);
  }

  @Test
  void unterminatedQuotesAndCommentsRunToTheEnd() {
    String sql = "SELECT 'a SYSTEM.x /*+ A B */";
    assertThat(classify(sql).rewritten(sql, sql.length())).isEqualTo(sql);
    String comment = "SELECT 1 /* SYSTEM.x";
    assertThat(classify(comment).rewritten(comment, comment.length())).isEqualTo(comment);
    String name = "SELECT \"a SYSTEM.x";
    assertThat(classify(name).rewritten(name, name.length())).isEqualTo(name);
  }

  @Test
  void aDotStartingANumberFollowsSystem() {
    String sql = "SELECT * FROM SYSTEM.1x";
    assertThat(classify(sql).rewritten(sql, sql.length())).isEqualTo("SELECT * FROM \"SYSTEM\".1x");
  }

  @Test
  void anUnterminatedHintAfterExplainIsTheBody() {
    assertThat(classify("EXPLAIN /*+ never closed").explained().orElseThrow().text())
        .isEqualTo("/*+ never closed");
  }

  @Test
  void onDuplicateKeyClauseOfAnUpsert() {
    String sql = "UPSERT INTO T (A, B) VALUES (1, 2)\n  on /* c */ DUPLICATE\tkey UPDATE B = B + 1";
    OnDuplicateKey clause = classify(sql).onDuplicateKey().orElseThrow();
    assertThat(clause.start()).isEqualTo(sql.indexOf("on"));
    assertThat(clause.action()).isEqualTo(Action.UPDATE);
    assertThat(clause.actionStart()).isEqualTo(sql.indexOf("UPDATE"));
    assertThat(sql.substring(clause.actionEnd())).isEqualTo(" B = B + 1");

    String ignore = "insert into t values (1) ON DUPLICATE KEY IGNORE -- done\n";
    OnDuplicateKey ignored = classify(ignore).onDuplicateKey().orElseThrow();
    assertThat(ignored.action()).isEqualTo(Action.IGNORE);
    assertThat(ignored.actionStart()).isEqualTo(ignore.indexOf("IGNORE"));
    assertThat(ignored.actionEnd()).isEqualTo(ignore.length()); // space and comments skipped
    String more = "UPSERT INTO T VALUES (1) ON DUPLICATE KEY IGNORE /*+ x */ 1";
    assertThat(classify(more).onDuplicateKey().orElseThrow().actionEnd())
        .isEqualTo(more.indexOf("/*+")); // a hint is no comment to skip

    String missing = "UPSERT INTO T VALUES (1) ON DUPLICATE KEY DO NOTHING";
    OnDuplicateKey neither = classify(missing).onDuplicateKey().orElseThrow();
    assertThat(neither.action()).isEqualTo(Action.MISSING);
    assertThat(neither.actionStart())
        .isEqualTo(missing.indexOf("DO"))
        .isEqualTo(neither.actionEnd());
    String atTheEnd = "UPSERT INTO T VALUES (1) ON DUPLICATE KEY /* never closed";
    assertThat(classify(atTheEnd).onDuplicateKey().orElseThrow().actionStart())
        .isEqualTo(atTheEnd.length());

    // the first ON at the top level that reads ON DUPLICATE KEY
    String join = "UPSERT INTO T SELECT * FROM A JOIN B ON A.X = B.X ON DUPLICATE KEY IGNORE";
    assertThat(classify(join).onDuplicateKey().orElseThrow().start())
        .isEqualTo(join.lastIndexOf("ON"));
    // offsets of an explained statement are its own
    ClassifiedStatement explained =
        classify("EXPLAIN UPSERT INTO T VALUES (1) ON DUPLICATE KEY IGNORE")
            .explained()
            .orElseThrow();
    assertThat(explained.onDuplicateKey().orElseThrow().start())
        .isEqualTo(explained.text().indexOf("ON"));
  }

  @Test
  void onDuplicateKeyInLiteralsCommentsAndParenthesesDoesNotCount() {
    for (String sql :
        List.of(
            "UPSERT INTO T VALUES (1, 'ON DUPLICATE KEY IGNORE')",
            "UPSERT INTO \"ON DUPLICATE KEY\" VALUES (1)",
            "UPSERT INTO T VALUES (1) -- ON DUPLICATE KEY IGNORE\n",
            "UPSERT INTO T VALUES (1) /* ON DUPLICATE KEY IGNORE */",
            "UPSERT INTO T VALUES (1) /*+ ON DUPLICATE KEY IGNORE */",
            "UPSERT INTO T VALUES (1) 'never closed ON DUPLICATE KEY IGNORE",
            "UPSERT INTO T VALUES (1) /* never closed ON DUPLICATE KEY IGNORE",
            "UPSERT INTO T SELECT * FROM (SELECT 1 ON DUPLICATE KEY IGNORE)",
            "UPSERT INTO T VALUES (1) ON /*+ x */ DUPLICATE KEY IGNORE",
            "UPSERT INTO T VALUES (1) $ON DUPLICATE KEY IGNORE",
            "UPSERT INTO T VALUES (1) 1ON DUPLICATE KEY IGNORE",
            "UPSERT INTO T VALUES (1) ON DUPLICATE KEYS IGNORE",
            "SELECT 1 ON DUPLICATE KEY IGNORE",
            "DELETE FROM T ON DUPLICATE KEY IGNORE",
            "/*+ x */ UPSERT INTO T VALUES (1) ON DUPLICATE KEY IGNORE")) {
      assertThat(classify(sql).onDuplicateKey()).as(sql).isEmpty();
    }
    // Calcite's lexer ends a -- comment at a carriage return too, and so does the classifier
    assertThat(classify("UPSERT INTO T VALUES (1) -- c\rON DUPLICATE KEY IGNORE").onDuplicateKey())
        .isPresent();
  }

  @Test
  void nestingOfParentheses() {
    String sql = "SELECT (1 + (2)) * ((((3)))) FROM T";
    ClassifiedStatement c = classify(sql);
    // where each level is first reached
    assertThat(c.nesting()).containsExactly(7, 12, 21, 22);
    assertThat(c.nestsDeeperThan(3, sql.length())).isTrue();
    assertThat(c.nestsDeeperThan(4, sql.length())).isFalse();
    assertThat(c.nestsDeeperThan(3, 22)).isFalse(); // the fourth level starts at 22
    assertThat(c.nestsDeeperThan(3, 23)).isTrue();

    // parentheses in strings, quoted names, comments and hints do not count; a stray ) closes
    // nothing; an unterminated string or comment runs to the end
    String quoted =
        "SELECT /*+ A((( */ '(((', \"(((\" -- (((\n FROM T WHERE )) (X) /* (( */ (('(((";
    assertThat(classify(quoted).nesting())
        .containsExactly(quoted.indexOf("(X)"), quoted.lastIndexOf("(('") + 1);
    String comment = "SELECT (1) /* ((( never closed";
    assertThat(classify(comment).nesting()).containsExactly(7);

    // DML too, with offsets into an explained statement's own text
    ClassifiedStatement explained =
        classify("EXPLAIN DELETE FROM T WHERE ((A))").explained().orElseThrow();
    assertThat(explained.nesting()).containsExactly(20, 21);
    // not counted for Cairn's own statements
    assertThat(classify("CREATE TABLE T (A INTEGER PRIMARY KEY)").nesting()).isEmpty();
  }
}
