package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Join order from column statistics (issue 18): tables loaded into a real store, their statistics
 * collected, and the planner's joins each built on their smaller input with cardinalities from the
 * columns' distinct values.
 */
class TestJoinOrder {
  private KvStore store;
  private Catalog catalog;

  @BeforeEach
  void open() {
    store = Stores.inMemory("join-order");
    catalog = Catalog.open(store);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private CairnPlanner planner(boolean withColumnStatistics) {
    return new CairnPlanner(
        catalog,
        t -> store.table(t.kvTableName()).map(KvTable::approximateRowCount).orElse(-1L),
        IndexStatisticsSource.NONE,
        withColumnStatistics
            ? t -> store.table(t.kvTableName()).map(KvTable::columnStatistics).orElse(List.of())
            : ColumnStatisticsSource.NONE);
  }

  private void create(String ddl) {
    StatementPlan.CreateTable create =
        (StatementPlan.CreateTable) new CairnPlanner(catalog).plan(ddl).plan();
    catalog.createTable(create.draft(), false);
  }

  /**
   * Loads {@code rows} rows made by {@code row} into table {@code name} and collects statistics.
   */
  private void load(String name, int rows, IntFunction<Object[]> row) {
    TableDescriptor t = catalog.table("PUBLIC", name).orElseThrow();
    KvTable kv = store.table(t.kvTableName()).orElseThrow();
    RowCodec codec = new RowCodec(t.layout());
    List<Mutation> batch = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      Object[] values = row.apply(i);
      batch.add(new Mutation.Put(codec.encodeKey(values), codec.encodeValue(values)));
      if (batch.size() == 10_000) {
        kv.mutate(batch);
        batch.clear();
      }
    }
    kv.mutate(batch);
    kv.updateStatistics();
  }

  /**
   * The plan's joins as a bracketed tree of table names, the build (right) side second; a scan
   * probing a join's build side in the store is that join.
   */
  static String joinTree(PlanNode node) {
    if (node instanceof JoinNode j) {
      return "(" + joinTree(j.left()) + " " + joinTree(j.right()) + ")";
    }
    if (node instanceof ScanNode s) {
      return s.probe()
          .map(p -> "(" + s.table().tableName() + " " + joinTree(p.build()) + ")")
          .orElse(s.table().tableName());
    }
    List<String> inner =
        node.inputs().stream().map(TestJoinOrder::joinTree).filter(x -> !x.isEmpty()).toList();
    return inner.stream().collect(Collectors.joining(" "));
  }

  private static String joinTree(CairnPlanner planner, String sql) {
    StatementPlan.Query q = (StatementPlan.Query) planner.plan(sql).plan();
    return joinTree(q.root());
  }

  /**
   * O (100,000 rows) references C (10,000), which references N (25): C joined with N is a
   * 10,000-row intermediate, and the hash table is built on it (or on C), never on O.
   */
  @Test
  void threeWayJoinBuildsOnTheSmallIntermediateNotTheLargeTable() {
    create("CREATE TABLE N (ID INTEGER PRIMARY KEY, NAME VARCHAR(20))");
    create("CREATE TABLE C (ID INTEGER PRIMARY KEY, NATION INTEGER, SEGMENT INTEGER)");
    create("CREATE TABLE O (ID INTEGER PRIMARY KEY, CUST INTEGER, TOTAL INTEGER)");
    load("N", 25, i -> new Object[] {i, "N" + i});
    load("C", 10_000, i -> new Object[] {i, i % 25, i % 5});
    load("O", 100_000, i -> new Object[] {i, (i * 7) % 10_000, i % 1000});
    String sql =
        "SELECT COUNT(*) FROM O JOIN C ON O.CUST = C.ID JOIN N ON C.NATION = N.ID"
            + " WHERE C.SEGMENT = 1";
    String tree = joinTree(planner(true), sql);
    assertThat(tree).as("O is never a build side").startsWith("(O ").doesNotContain(" O)");
    // every side built on is smaller: C filtered to 2,000 rows joined with N's 25
    assertThat(tree).isIn("(O (C N))", "((O C) N)");
  }

  /**
   * TPC-H Q14's shape: a slice of a large table (F, 100,000 rows, 1/40 kept) and a smaller table
   * (D, 5,000 rows) of similar estimates: F's scan probes D (it runs in parallel chunks in the
   * store), where rows alone would build on F's 2,500 rows; a slice of F much smaller than D is
   * still the build side.
   */
  @Test
  void ofTwoSimilarInputsTheScanOfTheLargerTableProbes() {
    create("CREATE TABLE D (ID INTEGER PRIMARY KEY, KIND INTEGER)");
    create("CREATE TABLE F (ID INTEGER PRIMARY KEY, D_ID INTEGER, SLICE INTEGER, V INTEGER)");
    load("D", 5_000, i -> new Object[] {i, i % 7});
    load("F", 100_000, i -> new Object[] {i, (i * 13) % 5_000, i % 400, i % 100});
    assertThat(
            joinTree(
                planner(true),
                "SELECT SUM(F.V) FROM F JOIN D ON F.D_ID = D.ID WHERE F.SLICE BETWEEN 0 AND 9"))
        .isEqualTo("(F D)");
    assertThat(
            joinTree(
                planner(true),
                "SELECT SUM(F.V) FROM F JOIN D ON F.D_ID = D.ID WHERE F.SLICE = 3 AND F.V = 1"))
        .isEqualTo("(D F)");
  }

  /**
   * TPC-H Q5's shape at SF 0.01: CUSTOMER and SUPPLIER join on their nation (a product per nation:
   * 6,000 rows here, 600,000 at SF 0.1), so they are never joined with each other. C_NATIONKEY =
   * S_NATIONKEY = N_NATIONKEY joins CUSTOMER with NATION directly: the region's nations, their
   * customers, their orders of the year, those orders' line items, and SUPPLIER last on both its
   * keys; each join builds on its smaller input.
   */
  @Test
  void q5DoesNotStartWithTheCustomerSupplierProduct() {
    create("CREATE TABLE REGION (R_REGIONKEY INTEGER PRIMARY KEY, R_NAME VARCHAR(25))");
    create(
        "CREATE TABLE NATION (N_NATIONKEY INTEGER PRIMARY KEY, N_NAME VARCHAR(25),"
            + " N_REGIONKEY INTEGER)");
    create(
        "CREATE TABLE CUSTOMER (C_CUSTKEY INTEGER PRIMARY KEY, C_NATIONKEY INTEGER,"
            + " C_NAME VARCHAR(25))");
    create(
        "CREATE TABLE SUPPLIER (S_SUPPKEY INTEGER PRIMARY KEY, S_NATIONKEY INTEGER,"
            + " S_NAME VARCHAR(25))");
    create(
        "CREATE TABLE ORDERS (O_ORDERKEY INTEGER PRIMARY KEY, O_CUSTKEY INTEGER,"
            + " O_ORDERDATE DATE)");
    create(
        "CREATE TABLE LINEITEM (L_ORDERKEY INTEGER NOT NULL, L_LINENUMBER INTEGER NOT NULL,"
            + " L_SUPPKEY INTEGER, L_EXTENDEDPRICE DECIMAL(15,2), L_DISCOUNT DECIMAL(15,2),"
            + " CONSTRAINT PK PRIMARY KEY (L_ORDERKEY, L_LINENUMBER))");
    // SF 0.01: 1,500 customers, 100 suppliers, 15,000 orders, 60,000 line items
    load("REGION", 5, i -> new Object[] {i, i == 2 ? "ASIA" : "R" + i});
    load("NATION", 25, i -> new Object[] {i, "N" + i, i / 5});
    load("CUSTOMER", 1_500, i -> new Object[] {i, i % 25, "C" + i});
    load("SUPPLIER", 100, i -> new Object[] {i, (i * 3) % 25, "S" + i});
    java.time.LocalDate start = java.time.LocalDate.of(1992, 1, 1);
    load("ORDERS", 15_000, i -> new Object[] {i, (i * 7) % 1_500, start.plusDays(i % 2_400)});
    load(
        "LINEITEM",
        60_000,
        i ->
            new Object[] {
              i / 4,
              i % 4,
              (i * 13) % 100,
              java.math.BigDecimal.valueOf(i % 1000, 2),
              java.math.BigDecimal.valueOf(i % 10, 2)
            });
    String q5 =
        "SELECT N_NAME, SUM(L_EXTENDEDPRICE * (1 - L_DISCOUNT)) AS REVENUE"
            + " FROM CUSTOMER, ORDERS, LINEITEM, SUPPLIER, NATION, REGION"
            + " WHERE C_CUSTKEY = O_CUSTKEY AND L_ORDERKEY = O_ORDERKEY AND L_SUPPKEY = S_SUPPKEY"
            + " AND C_NATIONKEY = S_NATIONKEY AND S_NATIONKEY = N_NATIONKEY"
            + " AND N_REGIONKEY = R_REGIONKEY AND R_NAME = 'ASIA'"
            + " AND O_ORDERDATE >= DATE '1994-01-01'"
            + " AND O_ORDERDATE < DATE '1994-01-01' + INTERVAL '1' YEAR"
            + " GROUP BY N_NAME ORDER BY REVENUE DESC";
    String tree = joinTree(planner(true), q5);
    assertThat(tree)
        .as("CUSTOMER and SUPPLIER are never joined with each other first")
        .doesNotContain("(CUSTOMER SUPPLIER)")
        .doesNotContain("(SUPPLIER CUSTOMER)");
    assertThat(tree)
        .as("LINEITEM, the largest, is never a build side")
        .doesNotContain(" LINEITEM)");
    assertThat(tree).isEqualTo("((LINEITEM (ORDERS (CUSTOMER (NATION REGION)))) SUPPLIER)");
    assertThat(joinTree(planner(false), q5)).as("without column statistics").isNotEqualTo(tree);
  }

  /**
   * TPC-H Q9's shape: LINEITEM joins PARTSUPP on both columns of PARTSUPP's key, so each line item
   * matches one PARTSUPP row. Counting the two equalities as independent estimated that join at a
   * few rows, and the 60,000 line items joined with it became a build side; now no join builds on
   * LINEITEM (it probes the green parts' PARTSUPP rows). PARTSUPP's two columns hold its key and
   * both join LINEITEM: their distinct values multiplied are capped at its rows.
   */
  @Test
  void aJoinOnACompositeKeyIsNotEstimatedAsIndependentKeys() {
    create("CREATE TABLE PART (P_PARTKEY INTEGER PRIMARY KEY, P_NAME VARCHAR(20))");
    create("CREATE TABLE SUPPLIER (S_SUPPKEY INTEGER PRIMARY KEY, S_NATIONKEY INTEGER)");
    create(
        "CREATE TABLE PARTSUPP (PS_PARTKEY INTEGER NOT NULL, PS_SUPPKEY INTEGER NOT NULL,"
            + " PS_SUPPLYCOST DECIMAL(15,2), CONSTRAINT PK PRIMARY KEY (PS_PARTKEY, PS_SUPPKEY))");
    create(
        "CREATE TABLE LINEITEM (L_ORDERKEY INTEGER NOT NULL, L_LINENUMBER INTEGER NOT NULL,"
            + " L_PARTKEY INTEGER, L_SUPPKEY INTEGER, L_QUANTITY DECIMAL(15,2),"
            + " CONSTRAINT PK PRIMARY KEY (L_ORDERKEY, L_LINENUMBER))");
    load("PART", 2_000, i -> new Object[] {i, i % 20 == 0 ? "green" + i : "blue" + i});
    // as at SF 1, parts times suppliers far more than the line items (SF 1: 2e9 and 6e6)
    load("SUPPLIER", 1_000, i -> new Object[] {i, i % 25});
    load(
        "PARTSUPP",
        8_000,
        i -> new Object[] {i / 4, (i / 4 + (i % 4) * 250) % 1_000, java.math.BigDecimal.ONE});
    load(
        "LINEITEM",
        60_000,
        i -> {
          int part = (i * 7919) % 2_000;
          return new Object[] {
            i / 4, i % 4, part, (part + (i % 4) * 250) % 1_000, java.math.BigDecimal.TEN
          };
        });
    String q9 =
        "SELECT S_NATIONKEY, SUM(L_QUANTITY * PS_SUPPLYCOST)"
            + " FROM PART, SUPPLIER, LINEITEM, PARTSUPP"
            + " WHERE S_SUPPKEY = L_SUPPKEY AND PS_SUPPKEY = L_SUPPKEY AND PS_PARTKEY = L_PARTKEY"
            + " AND P_PARTKEY = L_PARTKEY AND P_NAME LIKE '%green%' GROUP BY S_NATIONKEY";
    String tree = joinTree(planner(true), q9);
    assertThat(tree)
        .as("LINEITEM is never a build side")
        .startsWith("(")
        .doesNotContain(" LINEITEM");
    // with PARTSUPP's key capped at its rows, LINEITEM joined with it is as large as LINEITEM, so
    // SUPPLIER is built on, not probed with every joined line item (which took 0.5 s at SF 1)
    assertThat(tree).isEqualTo("(LINEITEM ((PARTSUPP PART) SUPPLIER))");
  }

  /** 16 tables T0..T15 of 100 * (i + 1) rows: (ID, A, B); a chain joins Ti.A = Ti+1.ID. */
  private void createSixteen() {
    for (int i = 0; i < 16; i++) {
      create("CREATE TABLE T" + i + " (ID INTEGER PRIMARY KEY, A INTEGER, B INTEGER)");
      int rows = 100 * (i + 1);
      load("T" + i, rows, k -> new Object[] {k, k % 97, k % 13});
    }
  }

  static String chain(int tables) {
    StringBuilder from = new StringBuilder("SELECT COUNT(*) FROM T0");
    StringBuilder where = new StringBuilder(" WHERE T0.B = 1");
    for (int i = 1; i < tables; i++) {
      from.append(", T").append(i);
      where.append(" AND T").append(i - 1).append(".A = T").append(i).append(".ID");
    }
    return from.append(where).toString();
  }

  static String star(int tables) {
    StringBuilder from = new StringBuilder("SELECT COUNT(*) FROM T15");
    StringBuilder where = new StringBuilder(" WHERE T15.B = 1");
    for (int i = 0; i < tables - 1; i++) {
      from.append(", T").append(i);
      where.append(" AND T15.A = T").append(i).append(".ID");
    }
    return from.append(where).toString();
  }

  /**
   * Planning a 16-table join stops with QUERY_CANCELED when cancelled while the joins are ordered:
   * the flag is set from the statistics source, which join ordering asks.
   */
  @Test
  void aCancelledSixteenTableJoinStopsPlanning() {
    createSixteen();
    java.util.concurrent.atomic.AtomicBoolean cancel =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger asked =
        new java.util.concurrent.atomic.AtomicInteger();
    CairnPlanner cancelling =
        new CairnPlanner(
            catalog,
            t -> store.table(t.kvTableName()).map(KvTable::approximateRowCount).orElse(-1L),
            IndexStatisticsSource.NONE,
            t -> {
              asked.incrementAndGet();
              cancel.set(true); // from here on, planning must stop
              return store.table(t.kvTableName()).map(KvTable::columnStatistics).orElse(List.of());
            });
    for (String sql : List.of(chain(16), star(16))) {
      cancel.set(false);
      asked.set(0);
      assertThatThrownBy(() -> cancelling.plan(sql, cancel))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELED));
      assertThat(asked.get()).as("stopped once asked, not after every table").isBetween(1, 15);
      assertThat(cancelling.cachedPlans()).isZero();
    }
    // not cancelled: both plan, every join with a condition (no cross product)
    for (String sql : List.of(chain(16), star(16))) {
      String tree = joinTree(planner(true), sql);
      assertThat(tree.chars().filter(c -> c == '(').count()).isEqualTo(15);
    }
  }

  /**
   * A cached plan is current while its tables' row counts and columns' distinct values stay within
   * 2x; once a column's distinct values change more (rows rewritten, statistics collected again) it
   * is planned again, though the row count is the same.
   */
  @Test
  void aCachedPlanIsPlannedAgainWhenAColumnsDistinctValuesChange() {
    create("CREATE TABLE P (ID INTEGER PRIMARY KEY, V INTEGER)");
    create("CREATE TABLE Q (ID INTEGER PRIMARY KEY, V INTEGER)");
    load("P", 2_000, i -> new Object[] {i, i % 10});
    load("Q", 1_000, i -> new Object[] {i, i % 10});
    CairnPlanner planner = planner(true);
    String sql = "SELECT COUNT(*) FROM P JOIN Q ON P.V = Q.V";
    PlannedStatement first = planner.plan(sql);
    assertThat(first.tables()).allSatisfy(u -> assertThat(u.distinct()).hasSize(2));
    assertThat(planner.isCurrent(first)).isTrue();
    load("Q", 1_000, i -> new Object[] {i, i % 15}); // 1.5x: still current
    assertThat(planner.isCurrent(first)).isTrue();
    assertThat(planner.plan(sql)).isSameAs(first);
    load("Q", 1_000, i -> new Object[] {i, i}); // same rows, 1,000 values instead of 10
    assertThat(
            store
                .table(catalog.table("PUBLIC", "Q").orElseThrow().kvTableName())
                .orElseThrow()
                .approximateRowCount())
        .isEqualTo(1_000);
    assertThat(planner.isCurrent(first)).isFalse();
    assertThat(planner.plan(sql)).isNotSameAs(first);
  }
}
