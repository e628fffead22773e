package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.TypeName;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.grammar.StatementClassifier;
import io.cairn.store.Stores;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ON DUPLICATE KEY clause of an UPSERT: found outside literals, comments and parentheses,
 * blanked so Calcite plans the UPSERT alone, and planned into {@link StatementPlan.OnDuplicateKey}.
 */
class TestOnDuplicateKeyClause {
  /** The clause of {@code sql} as the planner strips it: classified once, then blanked out. */
  private static OnDuplicateKeyClause.Found strip(String sql) {
    return OnDuplicateKeyClause.strip(sql, StatementClassifier.classify(sql));
  }

  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTable() {
    store = Stores.inMemory("on-duplicate-key");
    Catalog catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog);
    StatementPlan.CreateTable create =
        (StatementPlan.CreateTable)
            planner.plan("CREATE TABLE T (ID INTEGER PRIMARY KEY, N INTEGER, V VARCHAR(5))").plan();
    catalog.createTable(create.draft(), false);
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void stripBlanksTheClauseAndKeepsPositions() {
    String sql = "UPSERT INTO T (ID, N) VALUES (1, 2)\n  ON DUPLICATE KEY UPDATE N = N + 1";
    OnDuplicateKeyClause.Found found = strip(sql);
    assertThat(found).isNotNull();
    assertThat(found.ignore()).isFalse();
    assertThat(found.statement()).hasSameSizeAs(sql);
    assertThat(found.statement().strip()).isEqualTo("UPSERT INTO T (ID, N) VALUES (1, 2)");
    assertThat(found.assignments()).hasSameSizeAs(sql).endsWith(" N = N + 1");
    assertThat(found.assignments().strip()).isEqualTo("N = N + 1");

    OnDuplicateKeyClause.Found ignore =
        strip("upsert into t values (1, 2, 'x') on  duplicate\tkey ignore");
    assertThat(ignore.ignore()).isTrue();
    assertThat(ignore.statement().strip()).isEqualTo("upsert into t values (1, 2, 'x')");
  }

  @Test
  void stripLeavesOtherStatementsAndTextAlone() {
    assertThat(strip("SELECT 'ON DUPLICATE KEY IGNORE' FROM T")).isNull();
    assertThat(strip("UPSERT INTO T VALUES (1, 2, 'ON DUPLICATE KEY')")).isNull();
    assertThat(strip("UPSERT INTO T VALUES (1, 2, 'x') -- ON DUPLICATE KEY IGNORE\n")).isNull();
    assertThat(strip("UPSERT INTO \"ON DUPLICATE KEY\" VALUES (1)")).isNull();
    assertThat(strip("UPSERT INTO T VALUES (1, 2, 'x')")).isNull();
  }

  @Test
  void planHasTheAssignmentsOverTheRowWithParametersAfterTheValues() {
    StatementPlan.Upsert u =
        (StatementPlan.Upsert)
            planner
                .plan(
                    "UPSERT INTO T (ID, N) VALUES (?, ?) ON DUPLICATE KEY UPDATE N = N + ?, V = ?")
                .plan();
    assertThat(u.parameterTypes()).hasSize(4);
    assertThat(u.parameterTypes().get(3).name()).isEqualTo(TypeName.VARCHAR);
    StatementPlan.OnDuplicateKey clause = u.onDuplicateKey().orElseThrow();
    assertThat(clause.ignore()).isFalse();
    assertThat(clause.assignments())
        .extracting(StatementPlan.OnDuplicateKey.Assignment::column)
        .containsExactly(1, 2);
    Expr.Call plus = (Expr.Call) clause.assignments().get(0).value();
    assertThat(plus.operands().get(0))
        .isEqualTo(new Expr.ColumnRef(1, plus.operands().get(0).type()));
    assertThat(((Expr.Param) plus.operands().get(1)).index()).isEqualTo(2);
    assertThat(((Expr.Param) clause.assignments().get(1).value()).index()).isEqualTo(3);
    assertThat(Explainer.explain(u).get(0))
        .isEqualTo("UPSERT INTO PUBLIC.T (ID, N) ON DUPLICATE KEY UPDATE N = (N + ?3), V = ?4");
  }

  @Test
  void ignoreAndErrors() {
    StatementPlan.Upsert u =
        (StatementPlan.Upsert)
            planner.plan("UPSERT INTO T VALUES (1, 2, 'a') ON DUPLICATE KEY IGNORE").plan();
    assertThat(u.onDuplicateKey()).contains(StatementPlan.OnDuplicateKey.IGNORE);
    for (var c :
        List.of(
            List.of("UPSERT INTO T VALUES (1, 2, 'a') ON DUPLICATE KEY UPDATE ID = 1", "0A000"),
            List.of("INSERT INTO T VALUES (1, 2, 'a') ON DUPLICATE KEY IGNORE", "0A000"),
            List.of("UPSERT INTO T SELECT * FROM T ON DUPLICATE KEY IGNORE", "0A000"),
            List.of("UPSERT INTO T VALUES (1, 2, 'a') ON DUPLICATE KEY UPDATE", "42601"),
            List.of("UPSERT INTO T VALUES (1, 2, 'a') ON DUPLICATE KEY", "42601"))) {
      assertThatThrownBy(() -> planner.plan(c.get(0)))
          .as(c.get(0))
          .isInstanceOfSatisfying(
              CairnException.class, e -> assertThat(e.errorCode().sqlState()).isEqualTo(c.get(1)));
    }
    assertThatThrownBy(
            () ->
                planner.plan(
                    "UPSERT INTO T VALUES (1, 2, 'a') ON DUPLICATE KEY UPDATE N = DATE '2024-01-01'"))
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH))
        .hasMessageContaining("column [N]");
  }
}
