package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The translation of the local index statements (issue 17): CREATE INDEX into a validated draft
 * whose key parts are expressions over the table's row (the very expressions a query with the same
 * text plans to), DROP INDEX, ALTER INDEX ... REBUILD and CHECK INDEX into their plans, and every
 * bad input refused with its code, naming what it found.
 */
class TestIndexDdl {
  private KvStore store;
  private Catalog catalog;
  private CairnPlanner planner;
  private TableDescriptor t;

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("index-ddl");
    catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog);
    create(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), A INTEGER, B INTEGER,"
            + " QTY DECIMAL(10,2), D DATE)");
    create("CREATE TABLE S.U (K VARCHAR(5) NOT NULL, V INTEGER, CONSTRAINT PK PRIMARY KEY (K))");
    create("CREATE TABLE NOKEY (V INTEGER)");
    t = catalog.table("PUBLIC", "T").orElseThrow();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private void create(String sql) {
    StatementPlan.CreateTable create = (StatementPlan.CreateTable) planner.plan(sql).plan();
    catalog.createTable(create.draft(), false);
  }

  private StatementPlan plan(String sql) {
    return planner.plan(sql).plan();
  }

  private StatementPlan.CreateIndex createIndex(String sql) {
    return (StatementPlan.CreateIndex) plan(sql);
  }

  private Expr column(String name) {
    int index = t.columnIndex(name).orElseThrow();
    return new Expr.ColumnRef(index, t.columns().get(index).type());
  }

  @Test
  void createIndexOfColumnsWithIncludedColumns() {
    assertThat(plan("CREATE LOCAL INDEX I ON T (NAME, qty DESC) INCLUDE (A, d)"))
        .isEqualTo(
            new StatementPlan.CreateIndex(
                "PUBLIC",
                "T",
                new IndexDescriptor(
                    0,
                    "I",
                    List.of(
                        new IndexColumn(column("NAME"), "NAME", SortOrder.ASC),
                        new IndexColumn(column("QTY"), "QTY", SortOrder.DESC)),
                    List.of(2, 5),
                    IndexDescriptor.State.BUILDING),
                false));
    // plain CREATE INDEX makes the same local index; the index lives in its table's schema
    assertThat(plan("create index if not exists \"i\" on s.u (\"V\")"))
        .isEqualTo(
            new StatementPlan.CreateIndex(
                "S",
                "U",
                new IndexDescriptor(
                    0,
                    "i",
                    List.of(
                        new IndexColumn(
                            new Expr.ColumnRef(
                                1, catalog.table("S", "U").orElseThrow().columns().get(1).type()),
                            "V",
                            SortOrder.ASC)),
                    List.of(),
                    IndexDescriptor.State.BUILDING),
                true));
    // SQLite's schema-qualified index name; PostgreSQL's USING BTREE is what a local index is
    assertThat(createIndex("CREATE INDEX S.J ON U (V)").schemaName()).isEqualTo("S");
    assertThat(createIndex("CREATE INDEX J ON T USING btree (A)").draft().columns()).hasSize(1);
  }

  @Test
  void expressionPartsAreTheExpressionsAQueryPlans() {
    StatementPlan.CreateIndex index =
        createIndex("CREATE INDEX F ON T (UPPER(name) DESC, A + B, EXTRACT(YEAR FROM D), ID)");
    List<IndexColumn> columns = index.draft().columns();
    assertThat(columns)
        .extracting(IndexColumn::sql)
        .containsExactly("UPPER(name)", "A + B", "EXTRACT(YEAR FROM D)", "ID");
    assertThat(columns)
        .extracting(IndexColumn::order)
        .containsExactly(SortOrder.DESC, SortOrder.ASC, SortOrder.ASC, SortOrder.ASC);
    assertThat(columns.get(0).expr())
        .isEqualTo(new Expr.Call(Op.UPPER, List.of(column("NAME")), column("NAME").type()));
    assertThat(columns.get(0).columnIndex()).isEmpty();
    assertThat(columns.get(3).columnIndex()).hasValue(0);
    assertThat(columns.stream().map(IndexColumn::expr).toList())
        .isEqualTo(queryExpressions("SELECT UPPER(name), A + B, EXTRACT(YEAR FROM D), ID FROM T"));
  }

  /** The expressions over T's row that the query's plan computes, in order. */
  private List<Expr> queryExpressions(String sql) {
    PlanNode root = ((StatementPlan.Query) plan(sql)).root();
    if (root instanceof ProjectNode project && project.input() instanceof ScanNode scan) {
      List<Expr> result = new ArrayList<>();
      for (Expr e : project.expressions()) {
        result.add(substitute(e, scan.projection()));
      }
      return result;
    }
    return ((ScanNode) root).projection();
  }

  private static Expr substitute(Expr expr, List<Expr> inputs) {
    if (expr instanceof Expr.ColumnRef ref) {
      return inputs.get(ref.index());
    }
    if (expr instanceof Expr.Call call) {
      return new Expr.Call(
          call.op(),
          call.operands().stream().map(o -> substitute(o, inputs)).toList(),
          call.type());
    }
    return expr;
  }

  @Test
  void refusedClausesAreNamed() {
    assertFails("CREATE UNIQUE INDEX I ON T (A)", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("UNIQUE indexes are not supported: ")
        .hasMessageContaining("found CREATE UNIQUE INDEX (index [I])");
    assertFails("CREATE UNIQUE LOCAL INDEX I ON T (A)", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("UNIQUE indexes are not supported");
    assertFails("CREATE LOCAL INDEX I ON T (A) ASYNC", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("ASYNC is not supported");
    assertFails("CREATE INDEX I ON T (A) SALT_BUCKETS=4", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("Index options are not supported")
        .hasMessageContaining("found [SALT_BUCKETS]");
    assertFails("CREATE INDEX I ON T (A) SPLIT ON (1)", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("SPLIT ON is not supported for an index");
    assertFails("CREATE INDEX I ON T (A) WHERE A > 0", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("Partial indexes are not supported")
        .hasMessageContaining("found WHERE [A > 0]");
    assertFails("CREATE INDEX I ON T USING HASH (A)", ErrorCode.NOT_SUPPORTED)
        .hasMessageContaining("found USING [HASH]");
  }

  @Test
  void badTablesAreRefused() {
    assertFails("CREATE INDEX I ON MISSING (A)", ErrorCode.TABLE_NOT_FOUND)
        .hasMessage("Table [PUBLIC.MISSING] does not exist");
    assertFails("CREATE INDEX I ON S.T (A)", ErrorCode.TABLE_NOT_FOUND)
        .hasMessage("Table [S.T] does not exist");
    assertFails("CREATE INDEX I ON SYSTEM.STATS (TABLE_NAME)", ErrorCode.NOT_SUPPORTED)
        .hasMessageContaining("found [SYSTEM.STATS]");
    assertFails("CREATE INDEX I ON NOKEY (V)", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("Local indexes need a primary key")
        .hasMessageContaining("[PUBLIC.NOKEY]");
    assertFails("CREATE INDEX S.I ON PUBLIC.T (A)", ErrorCode.VALIDATION_ERROR)
        .hasMessage(
            "An index lives in its table's schema: expected index [I] in schema [PUBLIC],"
                + " found [S.I]");
  }

  @Test
  void badKeyPartsAreRefused() {
    assertFails("CREATE INDEX I ON T (A, NOPE)", ErrorCode.COLUMN_NOT_FOUND)
        .hasMessage(
            "Key part 2 [NOPE] of index [I]: expected a column of table [PUBLIC.T], found [NOPE],"
                + " which it does not have");
    assertFails("CREATE INDEX I ON T (UPPER(NOPE))", ErrorCode.COLUMN_NOT_FOUND)
        .hasMessageStartingWith("Key part 1 [UPPER(NOPE)] of index [I]: ")
        .hasMessageContaining("NOPE");
    assertFails("CREATE INDEX I ON T (A, name, \"A\")", ErrorCode.INVALID_TABLE_DEFINITION)
        .hasMessage(
            "Key part 3 [\"A\"] of index [I] repeats key part 1 [A]: expected distinct key parts");
    assertFails("CREATE INDEX I ON T (NAME, T.NAME)", ErrorCode.INVALID_TABLE_DEFINITION)
        .hasMessage(
            "Key part 2 [T.NAME] of index [I] repeats key part 1 [NAME]: expected distinct key"
                + " parts");
    assertFails("CREATE INDEX I ON T (A + B, (a+b))", ErrorCode.INVALID_TABLE_DEFINITION)
        .hasMessageContaining("repeats key part 1 [A + B]");
    assertFails("CREATE INDEX I ON T (A + RAND())", ErrorCode.VALIDATION_ERROR)
        .hasMessageContaining("[RAND], whose value changes");
    assertFails("CREATE INDEX I ON T (CURRENT_TIMESTAMP)", ErrorCode.VALIDATION_ERROR)
        .hasMessageContaining("[CURRENT_TIMESTAMP], whose value changes");
    assertFails("CREATE INDEX I ON T (SUM(A))", ErrorCode.VALIDATION_ERROR)
        .hasMessageContaining("found an aggregate function [SUM]");
    assertFails("CREATE INDEX I ON T (A + ?)", ErrorCode.VALIDATION_ERROR)
        .hasMessageContaining("found a parameter [?]");
    assertFails("CREATE INDEX I ON T ((SELECT 1))", ErrorCode.VALIDATION_ERROR)
        .hasMessageContaining("found a subquery");
    assertFails("CREATE INDEX I ON T (ROW_NUMBER() OVER ())", ErrorCode.VALIDATION_ERROR)
        .hasMessageContaining("found a window function");
    assertFails("CREATE INDEX I ON T (1 + 2)", ErrorCode.VALIDATION_ERROR)
        .hasMessage(
            "Key part 1 [1 + 2] of index [I]: expected an expression over the table's columns,"
                + " found a constant");
    assertFails("CREATE INDEX I ON T (A * INTERVAL '1' DAY)", ErrorCode.INVALID_TABLE_DEFINITION)
        .hasMessageContaining("expected a type that can be part of a key");
    assertFails("CREATE INDEX I ON T (A +)", ErrorCode.SYNTAX_ERROR)
        .hasMessageStartingWith("Key part 1 [A +] of index [I]: Syntax error");
  }

  @Test
  void badIncludedColumnsAreRefused() {
    assertFails("CREATE INDEX I ON T (A) INCLUDE (NOPE)", ErrorCode.COLUMN_NOT_FOUND)
        .hasMessage(
            "INCLUDE column [NOPE] of index [I]: expected a column of table [PUBLIC.T], found"
                + " none of that name");
    assertFails("CREATE INDEX I ON T (A) INCLUDE (B, ID)", ErrorCode.INVALID_TABLE_DEFINITION)
        .hasMessage(
            "INCLUDE column [ID] of index [I]: expected a column outside the primary key, found"
                + " a primary-key column of [PUBLIC.T] (every entry carries its row's key"
                + " already)");
    assertFails("CREATE INDEX I ON T (B, A) INCLUDE (A)", ErrorCode.INVALID_TABLE_DEFINITION)
        .hasMessage(
            "INCLUDE column [A] of index [I]: expected a column that is not a key part, found key"
                + " part 2 (every entry carries its key parts already)");
  }

  @Test
  void dropIndexForms() {
    assertThat(plan("DROP INDEX I ON S.U"))
        .isEqualTo(new StatementPlan.DropIndex("S", "I", Optional.of("U"), false));
    assertThat(plan("DROP INDEX IF EXISTS s.i"))
        .isEqualTo(new StatementPlan.DropIndex("S", "I", Optional.empty(), true));
    assertThat(plan("DROP INDEX I"))
        .isEqualTo(new StatementPlan.DropIndex("PUBLIC", "I", Optional.empty(), false));
    assertThat(plan("DROP INDEX S.I ON U"))
        .isEqualTo(new StatementPlan.DropIndex("S", "I", Optional.of("U"), false));
    assertFails("DROP INDEX S.I ON PUBLIC.T", ErrorCode.VALIDATION_ERROR)
        .hasMessageStartingWith("An index lives in its table's schema");
  }

  @Test
  void alterIndexRebuildsAndRefusesOtherActions() {
    assertThat(plan("ALTER INDEX I ON T REBUILD"))
        .isEqualTo(new StatementPlan.RebuildIndex("PUBLIC", "T", "I", false));
    assertThat(plan("alter index if exists i on s.u rebuild all"))
        .isEqualTo(new StatementPlan.RebuildIndex("S", "U", "I", true));
    // IF EXISTS: a missing table is found missing when the statement runs
    assertThat(plan("ALTER INDEX IF EXISTS I ON MISSING REBUILD"))
        .isEqualTo(new StatementPlan.RebuildIndex("PUBLIC", "MISSING", "I", true));
    assertFails("ALTER INDEX I ON MISSING REBUILD", ErrorCode.TABLE_NOT_FOUND);
    assertFails("ALTER INDEX I REBUILD", ErrorCode.INDEX_NOT_FOUND)
        .hasMessage("Index [PUBLIC.I] does not exist");
    assertFails("ALTER INDEX I ON T DISABLE", ErrorCode.NOT_SUPPORTED)
        .hasMessage(
            "ALTER INDEX ... DISABLE is not supported in this version of Cairn; supported: ALTER"
                + " INDEX [IF EXISTS] name ON table REBUILD");
    assertFails("ALTER INDEX I ON T REBUILD ASYNC", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("ALTER INDEX ... REBUILD ASYNC is not supported");
    assertFails("ALTER INDEX I RENAME TO J", ErrorCode.NOT_SUPPORTED)
        .hasMessageStartingWith("ALTER INDEX ... RENAME TO J is not supported");
  }

  @Test
  void checkIndexIsAQueryOfOneRow() {
    assertThat(plan("CHECK INDEX I ON S.U")).isEqualTo(new StatementPlan.CheckIndex("S", "U", "I"));
    assertThat(StatementPlan.CheckIndex.COLUMNS)
        .extracting(StatementPlan.ResultColumn::label)
        .containsExactly(
            "INDEX_NAME",
            "TABLE_NAME",
            "ROWS_CHECKED",
            "ENTRIES_CHECKED",
            "MISSING",
            "EXTRA",
            "CONSISTENT",
            "SAMPLES");
    assertFails("CHECK INDEX I ON MISSING", ErrorCode.TABLE_NOT_FOUND);
    assertFails("CHECK INDEX I", ErrorCode.INDEX_NOT_FOUND);
  }

  private org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertFails(
      String sql, ErrorCode code) {
    return assertThatThrownBy(() -> plan(sql))
        .isInstanceOf(CairnException.class)
        .satisfies(e -> assertThat(((CairnException) e).errorCode()).as(sql).isEqualTo(code));
  }
}
