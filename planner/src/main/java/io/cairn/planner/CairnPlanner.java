package io.cairn.planner;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.grammar.CairnSqlParser;
import io.cairn.sql.grammar.ClassifiedStatement;
import io.cairn.sql.grammar.ParsingException;
import io.cairn.sql.grammar.StatementClassifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Cairn's SQL front end: the facade and the plan cache. The text is classified once ({@link
 * StatementClassifier}); DDL goes through Cairn's ANTLR grammar, unsupported statements fail,
 * EXPLAIN plans its body, and queries and DML go through Calcite ({@link QueryPlanner}). Plans are
 * cached by (statement text, catalog version). Thread-safe.
 */
public final class CairnPlanner {
  /** Parser settings: Calcite's defaults for quoting and case, lenient conformance. */
  public static final SqlParser.Config PARSER_CONFIG =
      SqlParser.config()
          .withQuoting(Quoting.DOUBLE_QUOTE)
          .withUnquotedCasing(Casing.TO_UPPER)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true)
          .withConformance(SqlConformanceEnum.LENIENT);

  private static final int PLAN_CACHE_SIZE = 512;

  private final Catalog catalog;
  private final AtomicReference<SchemaSnapshot> snapshot = new AtomicReference<>();
  private final Map<String, PlannedStatement> cache =
      Collections.synchronizedMap(
          new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, PlannedStatement> eldest) {
              return size() > PLAN_CACHE_SIZE;
            }
          });

  private record SchemaSnapshot(long version, CalciteSchema schema) {}

  private final ToLongFunction<TableDescriptor> rowCounts;

  /** A planner without row counts (the optimizer assumes defaults). */
  public CairnPlanner(Catalog catalog) {
    this(catalog, t -> -1);
  }

  /**
   * @param rowCounts approximate rows of a table, -1 when unknown; asked while planning, so
   *     estimates follow the data (plans already cached keep the order they were made with)
   */
  public CairnPlanner(Catalog catalog, ToLongFunction<TableDescriptor> rowCounts) {
    this(catalog, rowCounts, IndexStatisticsSource.NONE);
  }

  /**
   * @param rowCounts approximate rows of a table, -1 when unknown
   * @param indexStatistics the statistics of local indexes, for the choice between a table and its
   *     indexes ({@link IndexChoice}); asked while planning
   */
  public CairnPlanner(
      Catalog catalog,
      ToLongFunction<TableDescriptor> rowCounts,
      IndexStatisticsSource indexStatistics) {
    this(catalog, rowCounts, indexStatistics, ColumnStatisticsSource.NONE);
  }

  /**
   * @param rowCounts approximate rows of a table, -1 when unknown
   * @param indexStatistics the statistics of local indexes ({@link IndexChoice})
   * @param columnStatistics the statistics of tables' columns, for the cardinalities of filters and
   *     joins and so the join order ({@link Cardinalities}); asked while planning
   */
  public CairnPlanner(
      Catalog catalog,
      ToLongFunction<TableDescriptor> rowCounts,
      IndexStatisticsSource indexStatistics,
      ColumnStatisticsSource columnStatistics) {
    this.catalog = catalog;
    this.rowCounts = rowCounts;
    this.indexStatistics = indexStatistics;
    this.columnStatistics = columnStatistics;
  }

  private final IndexStatisticsSource indexStatistics;
  private final ColumnStatisticsSource columnStatistics;

  /** Plans one statement; a cached plan is returned when the text and catalog are unchanged. */
  public PlannedStatement plan(String sql) {
    return plan(sql, new AtomicBoolean());
  }

  /**
   * Plans one statement; a cached plan is returned when the text and catalog are unchanged and the
   * plan is still {@linkplain #isCurrent current}. Planning runs on a thread with a large stack
   * ({@link PlanningThreads}) and stops with QUERY_CANCELED when {@code cancel} is set, from any
   * thread.
   *
   * @throws CairnException for every failure, including a stack exhausted by a deeply nested
   *     statement (STATEMENT_TOO_COMPLEX) and assertions inside Calcite (INTERNAL_ERROR)
   */
  public PlannedStatement plan(String sql, AtomicBoolean cancel) {
    String text = stripTerminator(sql);
    long version = catalog.version();
    String key = version + "\u0000" + text;
    PlannedStatement cached = cache.get(key);
    if (cached != null && isCurrent(cached)) {
      return cached;
    }
    PlannedStatement planned =
        PlanningThreads.run(
            () -> {
              List<String> warnings = new ArrayList<>();
              Uses uses = new Uses();
              StatementPlan plan =
                  Cardinalities.using(
                      columnStatistics,
                      () ->
                          IndexSelectivity.using(
                              indexStatistics,
                              () ->
                                  planUncached(
                                      StatementClassifier.classify(text),
                                      version,
                                      warnings,
                                      uses,
                                      cancel)));
              return new PlannedStatement(
                  plan, warnings, version, uses.tables(rowCounts, columnStatistics));
            },
            cancel);
    StatementPlan plan = planned.plan();
    if (plan instanceof StatementPlan.Query
        || plan instanceof StatementPlan.Upsert
        || plan instanceof StatementPlan.Delete
        || plan instanceof StatementPlan.Explain) {
      cache.put(key, planned); // DDL and maintenance plans are cheap and run once
    }
    return planned;
  }

  /**
   * Whether {@code planned} still fits the catalog and the data: every table it uses is still the
   * one it was planned for (not dropped, or dropped and created again, or altered), and no table it
   * reads has changed its approximate row count by more than {@value #ROW_COUNT_FACTOR} times since
   * (and by at least {@value #ROW_COUNT_SLACK} rows), nor the distinct values of one of its columns
   * as much (column statistics collected since), which could change the join order. A catalog
   * change to other tables leaves the plan current. Cheap: a catalog lookup, a row count and the
   * column statistics per table.
   */
  public boolean isCurrent(PlannedStatement planned) {
    boolean sameCatalog = planned.catalogVersion() == catalog.version();
    for (PlannedStatement.TableUse use : planned.tables()) {
      TableDescriptor table = use.table();
      if (!sameCatalog
          && table.tableId() >= 0
          && !catalog
              .table(table.schemaName(), table.tableName())
              .map(table::equals)
              .orElse(false)) {
        return false;
      }
      if (use.rowCount() >= 0 && changedMaterially(use.rowCount(), rowCounts.applyAsLong(table))) {
        return false;
      }
      if (!use.distinct().isEmpty() && distinctChanged(use.distinct(), distinct(table))) {
        return false;
      }
    }
    return true;
  }

  /** Each column's distinct values from the table's column statistics (-1: unknown); or empty. */
  private List<Long> distinct(TableDescriptor table) {
    return distinct(columnStatistics, table);
  }

  private static List<Long> distinct(ColumnStatisticsSource source, TableDescriptor table) {
    List<io.cairn.kv.ColumnStatistics> stats = source.statistics(table);
    if (stats.size() != table.columns().size()) {
      return List.of();
    }
    return stats.stream().map(io.cairn.kv.ColumnStatistics::distinct).toList();
  }

  /**
   * Whether a column's distinct values changed by more than {@value #ROW_COUNT_FACTOR} times (and
   * {@value #ROW_COUNT_SLACK} values): the cardinalities of its filters and joins did, and with
   * them maybe the join order. Statistics that became unknown change nothing.
   */
  private static boolean distinctChanged(List<Long> before, List<Long> now) {
    if (now.size() != before.size()) {
      return false;
    }
    for (int i = 0; i < before.size(); i++) {
      if (before.get(i) >= 0 && changedMaterially(before.get(i), now.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** Row counts further apart than a factor, which the optimizer may order joins differently by. */
  static final long ROW_COUNT_FACTOR = 2;

  /** Changes of fewer rows than this never count (a small table filling up plans once). */
  static final long ROW_COUNT_SLACK = 64;

  private static boolean changedMaterially(long before, long now) {
    if (now < 0) {
      return false;
    }
    long low = Math.min(before, now);
    long high = Math.max(before, now);
    return high - low >= ROW_COUNT_SLACK && high > ROW_COUNT_FACTOR * low;
  }

  /** The tables a plan reads (with the row counts planning saw) and the one it writes. */
  static final class Uses {
    final Set<TableDescriptor> read = new LinkedHashSet<>();
    final Set<TableDescriptor> written = new LinkedHashSet<>();

    List<PlannedStatement.TableUse> tables(
        ToLongFunction<TableDescriptor> rowCounts, ColumnStatisticsSource columnStatistics) {
      List<PlannedStatement.TableUse> uses = new ArrayList<>();
      for (TableDescriptor t : read) {
        boolean stored = t.tableId() >= 0;
        uses.add(
            new PlannedStatement.TableUse(
                t,
                stored ? rowCounts.applyAsLong(t) : -1,
                stored ? distinct(columnStatistics, t) : List.of()));
      }
      for (TableDescriptor t : written) {
        if (!read.contains(t)) {
          uses.add(new PlannedStatement.TableUse(t, -1));
        }
      }
      return uses;
    }
  }

  /** Number of cached plans (for tests and metrics). */
  public int cachedPlans() {
    return cache.size();
  }

  private StatementPlan planUncached(
      ClassifiedStatement statement,
      long version,
      List<String> warnings,
      Uses uses,
      AtomicBoolean cancel) {
    String text = statement.text();
    if (text.isEmpty()) {
      throw new CairnException(ErrorCode.SYNTAX_ERROR, "Empty statement: expected SQL text");
    }
    switch (statement.kind()) {
      case CAIRN_DDL -> {
        try {
          return DdlTranslator.translate(
              CairnSqlParser.parse(text),
              catalog,
              (source, target, column, what) ->
                  new QueryPlanner(schema(version), uses, cancel)
                      .assignConstant(source, target, column, what),
              new IndexExpressions(cancel));
        } catch (ParsingException e) {
          throw new CairnException(ErrorCode.SYNTAX_ERROR, e.getMessage(), e);
        }
      }
      case UNSUPPORTED -> {
        String unsupported = statement.unsupported();
        if (unsupported.equals("ALTER TABLE")) {
          throw new CairnException(
              ErrorCode.NOT_SUPPORTED,
              "This form of ALTER TABLE (ADD, DROP, RENAME, ...) is not supported in this version"
                  + " of Cairn; supported: ALTER TABLE name SET option = value [, option = value]*");
        }
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED, unsupported + " is not supported in this version of Cairn");
      }
      case EXPLAIN -> {
        StatementPlan inner =
            planUncached(statement.explained().orElseThrow(), version, warnings, uses, cancel);
        return new StatementPlan.Explain(inner, Explainer.explain(inner), inner.parameterTypes());
      }
      default -> {
        return new QueryPlanner(schema(version), uses, cancel).plan(statement, warnings);
      }
    }
  }

  private CalciteSchema schema(long version) {
    SchemaSnapshot current = snapshot.get();
    if (current != null && current.version() == version) {
      return current.schema();
    }
    List<TableDescriptor> tables = catalog.tables();
    CalciteSchema schema = CairnCalciteSchema.create(tables, catalog.schemas(), rowCounts);
    snapshot.set(new SchemaSnapshot(version, schema));
    return schema;
  }

  private static String stripTerminator(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }
}
