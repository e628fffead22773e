package io.cairn.jdbc.internal.session;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import io.cairn.jdbc.internal.engine.CommandResult;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.engine.ParameterInfo;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import io.cairn.jdbc.internal.engine.ProgressListener;
import io.cairn.jdbc.internal.engine.ResultCursor;
import io.cairn.jdbc.internal.exec.ExecContext;
import io.cairn.jdbc.internal.exec.JoinBuildCache;
import io.cairn.jdbc.internal.exec.QueryExecution;
import io.cairn.jdbc.internal.exec.Snapshots;
import io.cairn.jdbc.internal.exec.TransactionWrites;
import io.cairn.jdbc.internal.exec.ValuesRows;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableStatistics;
import io.cairn.planner.Explainer;
import io.cairn.planner.PlannedStatement;
import io.cairn.planner.plan.StatementPlan;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/** A planned statement bound to a session; executes queries, DML and DDL. */
final class DatabaseCommand implements PreparedCommand {
  private static final int CHECK_INTERVAL = 1024;

  /** How often a conflicting read-modify-write statement runs at most. */
  static final int MAX_ATTEMPTS = 100;

  /** How long a conflicting read-modify-write statement is retried at most. */
  static final long MAX_RETRY_MILLIS = 10_000;

  /** Existing rows of an UPSERT are read this many keys per request. */
  private final DatabaseSession session;

  private final StatementPlan plan;
  private final List<String> warnings;

  /** What the plan depends on (catalog version, tables, row counts); null: nothing. */
  private final PlannedStatement planned;

  /**
   * Whether its executions keep their joins' build sides for the next ({@link #keepJoinBuilds}).
   */
  private volatile boolean keepsJoinBuilds;

  DatabaseCommand(DatabaseSession session, StatementPlan plan, List<String> warnings) {
    this(session, null, plan, warnings);
  }

  DatabaseCommand(
      DatabaseSession session,
      PlannedStatement planned,
      StatementPlan plan,
      List<String> warnings) {
    this.session = session;
    this.planned = planned;
    this.plan = plan;
    this.warnings = List.copyOf(warnings);
  }

  @Override
  public void keepJoinBuilds() {
    keepsJoinBuilds = true;
  }

  @Override
  public void close() {
    if (keepsJoinBuilds) {
      session.dropJoinBuilds(this);
    }
  }

  @Override
  public boolean isCurrent() {
    session.database().beforeStatement(); // the catalog, when another client may have changed it
    return planned == null || session.database().planner().isCurrent(planned);
  }

  @Override
  public List<String> warnings() {
    return warnings;
  }

  @Override
  public Kind kind() {
    if (plan instanceof StatementPlan.Query
        || plan instanceof StatementPlan.Explain
        || plan instanceof StatementPlan.CheckIndex) {
      return Kind.QUERY;
    }
    if (plan instanceof StatementPlan.Upsert || plan instanceof StatementPlan.Delete) {
      return Kind.DML;
    }
    return Kind.DDL;
  }

  @Override
  public List<ColumnInfo> columns() {
    if (plan instanceof StatementPlan.Query q) {
      return q.columns().stream()
          .map(
              c ->
                  new ColumnInfo(
                      c.label(), c.columnName(), c.schemaName(), c.tableName(), c.type()))
          .toList();
    }
    if (plan instanceof StatementPlan.Explain) {
      return List.of(new ColumnInfo("PLAN", "", "", "", DataType.VARCHAR.withNullable(false)));
    }
    if (plan instanceof StatementPlan.CheckIndex) {
      return StatementPlan.CheckIndex.COLUMNS.stream()
          .map(c -> new ColumnInfo(c.label(), "", "", "", c.type()))
          .toList();
    }
    return List.of();
  }

  @Override
  public List<ParameterInfo> parameters() {
    return plan.parameterTypes().stream().map(ParameterInfo::new).toList();
  }

  @Override
  public CommandResult execute(List<Object> parameters, ExecutionControl control) {
    if (plan instanceof StatementPlan.Explain e) {
      return new CommandResult.Rows(
          new ListCursor(explain(e, control).stream().map(line -> new Object[] {line}).toList()));
    }
    checkWritable();
    ExecContext ctx = context(parameters, control);
    if (plan instanceof StatementPlan.Query q) {
      return new CommandResult.Rows(query(q, ctx));
    }
    if (plan instanceof StatementPlan.Upsert || plan instanceof StatementPlan.Delete) {
      return new CommandResult.UpdateCount(dml(ctx));
    }
    if (plan instanceof StatementPlan.CreateTable c) {
      session.database().catalog().createTable(c.draft(), c.ifNotExists(), c.splitPoints());
      return new CommandResult.UpdateCount(0);
    }
    if (plan instanceof StatementPlan.AlterTableOptions a) {
      session.database().catalog().alterTableOptions(a.schemaName(), a.tableName(), a.options());
      return new CommandResult.UpdateCount(0);
    }
    if (plan instanceof StatementPlan.FlushTable f) {
      kvTable(table(f.schemaName(), f.tableName())).flush();
      return new CommandResult.UpdateCount(0);
    }
    if (plan instanceof StatementPlan.UpdateStatistics u) {
      // the update count: how many chunks the statistics cut the table into
      TableStatistics statistics = kvTable(table(u.schemaName(), u.tableName())).updateStatistics();
      return new CommandResult.UpdateCount(statistics.chunks().size());
    }
    if (plan instanceof StatementPlan.SplitTable s) {
      kvTable(table(s.schemaName(), s.tableName())).split();
      return new CommandResult.UpdateCount(0);
    }
    if (plan instanceof StatementPlan.CompactTable c) {
      kvTable(table(c.schemaName(), c.tableName())).compact(c.major());
      return new CommandResult.UpdateCount(0);
    }
    if (plan instanceof StatementPlan.DropTable d) {
      session.database().catalog().dropTable(d.schemaName(), d.tableName(), d.ifExists());
      return new CommandResult.UpdateCount(0);
    }
    if (plan instanceof StatementPlan.CreateIndex c) {
      return new CommandResult.UpdateCount(createIndex(c, control));
    }
    if (plan instanceof StatementPlan.DropIndex d) {
      session
          .database()
          .catalog()
          .dropIndex(d.schemaName(), d.indexName(), d.tableName().orElse(null), d.ifExists());
      return new CommandResult.UpdateCount(0);
    }
    if (plan instanceof StatementPlan.RebuildIndex r) {
      return new CommandResult.UpdateCount(rebuildIndex(r, control));
    }
    if (plan instanceof StatementPlan.CheckIndex c) {
      return new CommandResult.Rows(new ListCursor(List.<Object[]>of(checkIndex(c))));
    }
    throw CairnException.internal("Unknown plan " + plan.getClass().getSimpleName());
  }

  /** Refuses a statement that is not a query on a read-only connection. */
  private void checkWritable() {
    if (session.readOnly() && kind() != Kind.QUERY) {
      throw new CairnException(
          ErrorCode.READ_ONLY_TRANSACTION,
          "The connection is read-only (Connection.setReadOnly(true)): expected a query, found ["
              + (kind() == Kind.DML ? "DML" : "DDL")
              + "]");
    }
  }

  /**
   * The EXPLAIN's lines, rendered now: each scan's chunks come from the table's current statistics
   * (the plan is cached, the chunks are not). Parameters are not bound at EXPLAIN: key bounds that
   * use them are widened, and the line says so.
   */
  private List<String> explain(StatementPlan.Explain e, ExecutionControl control) {
    EvalContext eval =
        new EvalContext(
            new Object[e.parameterTypes().size()], LocalDateTime.now(ZoneId.systemDefault()));
    ExecContext ctx =
        new ExecContext(
            session.database().store(),
            eval,
            control,
            session.parallelism(),
            session.aggregateMaxBytes());
    boolean withoutParameters = !e.parameterTypes().isEmpty();
    return Explainer.explain(
        e.plan(), scan -> QueryExecution.scanInfo(scan, ctx, withoutParameters));
  }

  /** The parameters cast to the types the plan expects; their number checked. */
  private Object[] parameterValues(List<Object> parameters) {
    List<DataType> types = plan.parameterTypes();
    if (parameters.size() != types.size()) {
      throw new CairnException(
          ErrorCode.PARAMETER_NOT_SET,
          "Wrong number of parameters: expected ["
              + types.size()
              + "], found ["
              + parameters.size()
              + "]");
    }
    Object[] values = new Object[types.size()];
    for (int i = 0; i < values.length; i++) {
      Object v = parameters.get(i);
      values[i] = v == null ? null : castParameter(v, types.get(i));
    }
    return values;
  }

  /**
   * {@link Values#castParameter}, but a number of exactly its type's class or a string for a string
   * type (what the driver's PreparedStatement already converted it to; a string parameter is cast
   * to the type without its length, which keeps a string as it is) is taken as it is: a batch casts
   * every value of every row.
   */
  private static Object castParameter(Object v, DataType type) {
    boolean same =
        switch (type.name()) {
          case BIGINT -> v instanceof Long;
          case INTEGER -> v instanceof Integer;
          case SMALLINT -> v instanceof Short;
          case TINYINT -> v instanceof Byte;
          case DOUBLE -> v instanceof Double;
          case BOOLEAN -> v instanceof Boolean;
          case CHAR, VARCHAR -> v instanceof String; // cast to the type without its length
          default -> false;
        };
    return same ? v : Values.castParameter(v, type);
  }

  private ExecContext context(List<Object> parameters, ExecutionControl control) {
    EvalContext eval =
        new EvalContext(parameterValues(parameters), LocalDateTime.now(ZoneId.systemDefault()));
    return new ExecContext(
            session.database().store(),
            eval,
            control,
            session.parallelism(),
            session.aggregateMaxBytes(),
            session.queryMemory())
        .withHashJoinMaxBytes(session.hashJoinMaxBytes())
        .withJoinBuilds(keepsJoinBuilds ? session.joinBuilds(this) : JoinBuildCache.Scope.NONE);
  }

  /**
   * Starts a query: in a transaction at the transaction's read point; otherwise at a snapshot of
   * its own when it runs more than one scan (closed with its cursor), or at none (its only scan
   * takes one if it runs more than one request).
   */
  private QueryExecution query(StatementPlan.Query q, ExecContext ctx) {
    if (!session.autoCommit()) {
      return QueryExecution.start(
          q.root(), ctx.at(session.transactionReadPoint(), session.pending()));
    }
    if (Snapshots.scans(q.root()) <= 1) {
      return QueryExecution.start(q.root(), ctx);
    }
    KvSnapshot snapshot = session.openSnapshot();
    return QueryExecution.start(
        q.root(), ctx.at(snapshot.readPoint(), TransactionWrites.NONE), snapshot);
  }

  /**
   * Runs UPSERT, INSERT, UPDATE or DELETE. In a transaction its writes are buffered, it reads at
   * the transaction's read point over the transaction's writes, and the rows it read and changed
   * are written at commit on condition they are unchanged since that read point. In autocommit mode
   * a statement that reads (a source with a scan, the existing rows of a partial-column UPSERT or
   * of ON DUPLICATE KEY) reads at a snapshot of its own and writes each row on condition that
   * nobody changed it since that read point; when another commit did (WRITE_CONFLICT), it runs
   * again from the start at a new snapshot after a short random pause, at most {@value
   * #MAX_ATTEMPTS} times within {@value #MAX_RETRY_MILLIS} ms, so that read-modify-writes are
   * atomic per row (optimistic concurrency). A blind write (UPSERT VALUES of every column) reads
   * nothing and has no condition; INSERT's condition is must-not-exist and is never retried.
   */
  private long dml(ExecContext ctx) {
    boolean conditional = !(plan instanceof StatementPlan.Upsert u && u.insert());
    if (!session.autoCommit()) {
      // a read-modify-write's rows are checked at commit: unchanged since the transaction's
      // snapshot (a blind write needs no snapshot, so a load opens none)
      return reads()
          ? write(ctx.at(session.transactionReadPoint(), session.pending()), conditional, Set.of())
          : write(ctx, false, Set.of());
    }
    if (!reads()) {
      return write(ctx, false, Set.of());
    }
    long started = System.nanoTime();
    // on a store that writes each row on its own: the rows earlier attempts wrote (their
    // read-modify-write is done; an attempt again leaves them alone)
    Set<Bytes> done = new HashSet<>();
    for (int attempt = 1; ; attempt++) {
      try (KvSnapshot snapshot = session.openSnapshot()) {
        return write(ctx.at(snapshot.readPoint(), TransactionWrites.NONE), conditional, done);
      } catch (CairnException e) {
        if (e.errorCode() != ErrorCode.WRITE_CONFLICT || !conditional) {
          throw e;
        }
        if (e.getCause() instanceof ConditionFailedException failed) {
          done.addAll(failed.written());
        }
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        if (attempt >= MAX_ATTEMPTS || elapsedMillis >= MAX_RETRY_MILLIS) {
          throw new CairnException(
              ErrorCode.WRITE_CONFLICT,
              "Write conflict: other commits kept changing the rows this statement read; gave up"
                  + " after ["
                  + attempt
                  + "] attempts in ["
                  + elapsedMillis
                  + "] ms (at most "
                  + MAX_ATTEMPTS
                  + " attempts within "
                  + MAX_RETRY_MILLIS
                  + " ms): "
                  + e.getMessage(),
              e);
        }
      }
      pauseBeforeRetry(attempt, ctx.control());
    }
  }

  /** Whether the DML statement reads rows (its source scans, or it merges with existing rows). */
  private boolean reads() {
    if (plan instanceof StatementPlan.Upsert u) {
      return Snapshots.scans(u.source()) > 0 || merges(u) || u.onDuplicateKey().isPresent();
    }
    return true; // DELETE reads the rows it deletes
  }

  /** Whether the UPSERT keeps the columns it does not target of existing rows. */
  private static boolean merges(StatementPlan.Upsert u) {
    return !u.targetsAllColumns() && !u.insert() && !u.table().hiddenRowId();
  }

  /**
   * A random pause of up to 0.1 ms doubled per attempt (at most 8 ms), so that conflicting
   * statements spread out; honours cancel and the timeout.
   */
  private static void pauseBeforeRetry(int attempt, ExecutionControl control) {
    control.check();
    long maxNanos = Math.min(100_000L << Math.min(attempt - 1, 7), 8_000_000L);
    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxNanos / 4, maxNanos + 1));
    control.check();
  }

  /**
   * One attempt of the DML statement: reads at {@code ctx}'s read point and writes its batch, each
   * mutation on condition that its row is unchanged since that read point when {@code conditional}
   * (on a store without read points: that it holds the value read). The rows of {@code done},
   * written by an earlier attempt, are left alone and counted.
   */
  private long write(ExecContext ctx, boolean conditional, Set<Bytes> done) {
    Mutation.Condition condition =
        conditional && ctx.readPoint() != ScanRequest.LATEST
            ? Mutation.Condition.unchangedSince(ctx.readPoint())
            : Mutation.Condition.NONE;
    boolean checkValues =
        conditional && session.database().store().guarantees() == KvStore.Guarantees.LATEST_PER_ROW;
    if (plan instanceof StatementPlan.Upsert u) {
      return upsert(u, ctx, condition, checkValues, done);
    }
    return delete((StatementPlan.Delete) plan, ctx, condition, checkValues, done);
  }

  /**
   * Writes {@code batch} but for the rows of {@code done}, and returns {@code count}, or when some
   * were done, the rows done and written.
   */
  private long writeAllBut(
      Set<Bytes> done, TableDescriptor table, KvTable kv, List<Mutation> batch, long count) {
    if (!done.isEmpty()) {
      batch = new ArrayList<>(batch);
      batch.removeIf(m -> done.contains(m.key()));
      count = done.size() + batch.size();
    }
    session.write(table, kv, batch);
    return count;
  }

  // ---- local indexes

  /**
   * CREATE INDEX: the catalog creates and builds it; the update count is the rows indexed, the most
   * the build's progress reports (from any of its threads) said (0 when the index existed and IF
   * NOT EXISTS). The reports go on to the statement's progress listener.
   */
  private long createIndex(StatementPlan.CreateIndex c, ExecutionControl control) {
    IndexBuildReporter reporter =
        buildReporter(c.draft().name(), c.schemaName(), c.tableName(), control);
    Optional<IndexDescriptor> created =
        session
            .database()
            .catalog()
            .createIndex(c.schemaName(), c.tableName(), c.draft(), c.ifNotExists(), reporter);
    return created.isPresent() ? reporter.finish() : 0;
  }

  /**
   * ALTER INDEX ... REBUILD: the update count is the rows indexed, as for CREATE INDEX; with IF
   * EXISTS, 0 when the table or the index is gone.
   */
  private long rebuildIndex(StatementPlan.RebuildIndex r, ExecutionControl control) {
    if (r.ifExists()
        && session
            .database()
            .catalog()
            .table(r.schemaName(), r.tableName())
            .flatMap(t -> t.index(r.indexName()))
            .isEmpty()) {
      return 0;
    }
    IndexBuildReporter reporter =
        buildReporter(r.indexName(), r.schemaName(), r.tableName(), control);
    session
        .database()
        .catalog()
        .rebuildIndex(r.schemaName(), r.tableName(), r.indexName(), reporter);
    return reporter.finish();
  }

  /**
   * The reporter of a build of index {@code index} on {@code schema.table} to the statement's
   * progress listener; the percentage comes from the table's statistics or approximate row count
   * (read only when someone listens; unknown when the table is, which the catalog then reports).
   */
  private IndexBuildReporter buildReporter(
      String index, String schema, String table, ExecutionControl control) {
    ProgressListener listener = control.progressListener();
    long estimatedRows =
        listener == null
            ? -1
            : session
                .database()
                .catalog()
                .table(schema, table)
                .map(t -> estimatedRows(kvTable(t)))
                .orElse(-1L);
    return new IndexBuildReporter(index, schema + "." + table, estimatedRows, listener);
  }

  /** The table's rows from its statistics, else the store's approximate count; -1: unknown. */
  private static long estimatedRows(KvTable kv) {
    long rows = kv.statistics().rows();
    return rows >= 0 ? rows : kv.approximateRowCount();
  }

  /** CHECK INDEX's row: see {@link StatementPlan.CheckIndex#COLUMNS}. */
  private Object[] checkIndex(StatementPlan.CheckIndex c) {
    IndexCheck check =
        session.database().catalog().verifyIndex(c.schemaName(), c.tableName(), c.indexName());
    return new Object[] {
      c.indexName(),
      c.schemaName() + "." + c.tableName(),
      check.rows(),
      check.entries(),
      check.missing(),
      check.extra(),
      check.consistent(),
      String.join(", ", check.samples())
    };
  }

  /** The table as the catalog has it now (it may have been dropped since planning). */
  private TableDescriptor table(String schema, String name) {
    return session
        .database()
        .catalog()
        .table(schema, name)
        .orElseThrow(
            () ->
                new CairnException(
                    ErrorCode.TABLE_NOT_FOUND,
                    "Table [" + schema + "." + name + "] does not exist"));
  }

  private KvTable kvTable(TableDescriptor table) {
    return ExecContext.kvTable(session.database().store(), table);
  }

  /**
   * @param checkValues the store has no read points: the rows read are written on condition they
   *     hold the values read ({@link ValueChecks})
   */
  private long upsert(
      StatementPlan.Upsert u,
      ExecContext ctx,
      Mutation.Condition condition,
      boolean checkValues,
      Set<Bytes> done) {
    TableDescriptor table = u.table();
    KvTable kv = kvTable(table);
    RowCodec codec = new RowCodec(table.layout());
    Mutation.Condition putCondition = u.insert() ? Mutation.Condition.MUST_NOT_EXIST : condition;
    // rows merged with the existing ones are collected first, then read in one go
    List<Object[]> collected =
        merges(u) || u.onDuplicateKey().isPresent() ? new ArrayList<>() : null;
    // an UPDATE's rows as read, by key, when the store checks values
    Map<Bytes, Object[]> readRows = checkValues && u.readRows() ? new LinkedHashMap<>() : null;
    List<Mutation> batch = new ArrayList<>();
    long count = 0;
    long read = 0;
    try (QueryExecution source = QueryExecution.start(u.source(), ctx)) {
      for (Object[] row = source.next(); row != null; row = source.next()) {
        Object[] full = assigned(u, row);
        if (collected != null) {
          collected.add(full);
        } else {
          Mutation.Put put = put(table, kv, codec, full, putCondition);
          batch.add(put);
          if (readRows != null) {
            int targets = u.targetColumns().size();
            readRows.put(put.key(), Arrays.copyOfRange(row, targets, row.length));
          }
          count++;
        }
        if (++read % CHECK_INTERVAL == 0) {
          ctx.control().check();
        }
      }
    }
    if (collected != null) {
      count = mergeWithExisting(u, ctx, kv, codec, collected, putCondition, checkValues, batch);
    } else if (readRows != null) {
      batch = withConditions(batch, table, kv, codec, readRows, done, ctx);
    }
    ctx.control().check();
    return writeAllBut(done, table, kv, batch, count);
  }

  /**
   * {@code batch} with each row written on condition that it still holds the value it was read with
   * ({@link ValueChecks#unchanged}); a row the transaction wrote before was read from its writes
   * and keeps the condition of its first write (checked at commit); the rows of {@code done},
   * written by an earlier attempt, are not read.
   */
  private static List<Mutation> withConditions(
      List<Mutation> batch,
      TableDescriptor table,
      KvTable kv,
      RowCodec codec,
      Map<Bytes, Object[]> readRows,
      Set<Bytes> done,
      ExecContext ctx) {
    readRows.keySet().removeAll(done);
    readRows.keySet().removeIf(ctx.pending().of(table.kvTableName())::containsKey);
    Map<Bytes, Mutation.Condition> conditions =
        ValueChecks.unchanged(table, kv, codec, readRows, () -> ctx.control().check());
    List<Mutation> checked = new ArrayList<>(batch.size());
    for (Mutation m : batch) {
      Mutation.Condition c = conditions.getOrDefault(m.key(), m.condition());
      checked.add(
          m instanceof Mutation.Put p
              ? new Mutation.Put(p.key(), p.value(), c)
              : new Mutation.Delete(m.key(), c));
    }
    return checked;
  }

  /** {@code row} (the source's values of the target columns) as a table row; its key not NULL. */
  private static Object[] assigned(StatementPlan.Upsert u, Object[] row) {
    TableDescriptor table = u.table();
    List<ColumnDescriptor> columns = table.columns();
    Object[] full = new Object[columns.size()];
    for (int i = 0; i < u.targetColumns().size(); i++) {
      int c = u.targetColumns().get(i);
      ColumnDescriptor column = columns.get(c);
      full[c] = Values.assign(row[i], column.type(), column.name());
    }
    checkKeyNotNull(table, full);
    return full;
  }

  /** The put of a whole row, its NOT NULL columns checked. */
  private static Mutation.Put put(
      TableDescriptor table,
      KvTable kv,
      RowCodec codec,
      Object[] full,
      Mutation.Condition condition) {
    checkNotNull(table, full);
    Bytes key =
        table.hiddenRowId() ? RowCodec.encodeRowId(kv.allocateIds(1)) : codec.encodeKey(full);
    return new Mutation.Put(key, codec.encodeValue(full), condition);
  }

  /**
   * A blind UPSERT of VALUES (no INSERT condition, nothing read, every column or a table without a
   * key to merge on) runs a batch as one write.
   */
  @Override
  public boolean runsBatches() {
    return plan instanceof StatementPlan.Upsert u
        && !u.insert()
        && ValuesRows.accepts(u.source())
        && !reads();
  }

  /**
   * The rows of every parameter set, evaluated with each set's values as {@link #execute} would,
   * written in one go: in a transaction into its buffer, else as one atomic write. The expressions
   * are compiled and the codec made once per batch, not once per set.
   */
  @Override
  public BatchResult executeBatch(List<List<Object>> parameterSets, ExecutionControl control) {
    if (!runsBatches()) {
      throw CairnException.internal("executeBatch of a statement that runs batches entry by entry");
    }
    checkWritable();
    StatementPlan.Upsert u = (StatementPlan.Upsert) plan;
    TableDescriptor table = u.table();
    KvTable kv = kvTable(table);
    RowCodec codec = new RowCodec(table.layout());
    ValuesRows values = ValuesRows.of(u.source());
    LocalDateTime now = LocalDateTime.now(ZoneId.systemDefault());
    List<Mutation> batch = new ArrayList<>(parameterSets.size() * values.size());
    long[] counts = new long[parameterSets.size()];
    RuntimeException failure = null;
    int done = 0;
    for (; done < parameterSets.size(); done++) {
      if (done % CHECK_INTERVAL == 0) {
        control.check();
      }
      int before = batch.size();
      try {
        EvalContext eval = new EvalContext(parameterValues(parameterSets.get(done)), now);
        for (int r = 0; r < values.size(); r++) {
          batch.add(
              put(table, kv, codec, assigned(u, values.row(r, eval)), Mutation.Condition.NONE));
        }
      } catch (RuntimeException e) {
        batch.subList(before, batch.size()).clear();
        failure = e;
        break;
      }
      counts[done] = values.size();
    }
    control.check();
    if (!batch.isEmpty()) {
      session.write(table, kv, batch);
    }
    return new BatchResult(Arrays.copyOf(counts, done), failure);
  }

  /**
   * Turns the rows of an UPSERT that keeps what it does not write of existing rows into puts, in
   * order: each row's existing version (read at the statement's read point, over the transaction's
   * writes and the statement's earlier rows) is kept in the columns not targeted (partial-column
   * UPSERT), or, with ON DUPLICATE KEY, left alone (IGNORE) or updated by the assignments evaluated
   * over it. Absent keys get the new row. Returns the rows written.
   */
  private long mergeWithExisting(
      StatementPlan.Upsert u,
      ExecContext ctx,
      KvTable kv,
      RowCodec codec,
      List<Object[]> rows,
      Mutation.Condition condition,
      boolean checkValues,
      List<Mutation> batch) {
    TableDescriptor table = u.table();
    List<ColumnDescriptor> columns = table.columns();
    List<Bytes> keys = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      keys.add(codec.encodeKey(row));
    }
    // with checkValues, the conditions of the rows read from the store (not the transaction's)
    Map<Bytes, Mutation.Condition> conditions = checkValues ? new HashMap<>() : null;
    Map<Bytes, Object[]> current =
        existingRows(kv, codec, table, new TreeSet<>(keys), ctx, conditions);
    boolean[] targeted = new boolean[columns.size()];
    for (int t : u.targetColumns()) {
      targeted[t] = true;
    }
    StatementPlan.OnDuplicateKey onDuplicate = u.onDuplicateKey().orElse(null);
    List<StatementPlan.OnDuplicateKey.Assignment> assignments =
        onDuplicate == null ? List.of() : onDuplicate.assignments();
    RowExpression[] values = new RowExpression[assignments.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = ExprCompiler.compile(assignments.get(i).value());
    }
    Map<Bytes, Object[]> written = new LinkedHashMap<>();
    long count = 0;
    for (int i = 0; i < rows.size(); i++) {
      Bytes key = keys.get(i);
      Object[] row = rows.get(i);
      Object[] existing = current.get(key);
      if (existing != null) {
        if (onDuplicate == null) {
          for (int c = 0; c < row.length; c++) {
            if (!targeted[c]) {
              row[c] = existing[c];
            }
          }
        } else if (onDuplicate.ignore()) {
          continue;
        } else {
          row = existing.clone();
          for (int a = 0; a < values.length; a++) {
            ColumnDescriptor column = columns.get(assignments.get(a).column());
            row[assignments.get(a).column()] =
                Values.assign(
                    values[a].evaluate(existing, ctx.eval()), column.type(), column.name());
          }
        }
      }
      checkNotNull(table, row);
      current.put(key, row);
      written.put(key, row);
      if (++count % CHECK_INTERVAL == 0) {
        ctx.control().check();
      }
    }
    for (Map.Entry<Bytes, Object[]> e : written.entrySet()) {
      Mutation.Condition c =
          conditions == null ? condition : conditions.getOrDefault(e.getKey(), condition);
      batch.add(new Mutation.Put(e.getKey(), codec.encodeValue(e.getValue()), c));
    }
    return count;
  }

  private static void checkKeyNotNull(TableDescriptor table, Object[] row) {
    for (var k : table.primaryKey()) {
      if (row[k.columnIndex()] == null) {
        throw notNull(table, k.columnIndex());
      }
    }
  }

  private static void checkNotNull(TableDescriptor table, Object[] row) {
    for (int c = 0; c < row.length; c++) {
      if (row[c] == null && !table.columns().get(c).type().nullable()) {
        throw notNull(table, c);
      }
    }
  }

  private static CairnException notNull(TableDescriptor table, int column) {
    return new CairnException(
        ErrorCode.NOT_NULL_VIOLATION,
        "Column ["
            + table.qualifiedName()
            + "."
            + table.columns().get(column).name()
            + "] does not allow NULL: expected a value, found [NULL]");
  }

  /**
   * The rows of {@code keys} that exist at {@code ctx}'s read point, over the transaction's writes,
   * by key. With {@code conditions} (a store without read points) the rows are read as they are now
   * and each read key's condition goes there ({@link ValueChecks#latestRows}).
   */
  private static Map<Bytes, Object[]> existingRows(
      KvTable kv,
      RowCodec codec,
      TableDescriptor table,
      SortedSet<Bytes> keys,
      ExecContext ctx,
      Map<Bytes, Mutation.Condition> conditions) {
    NavigableMap<Bytes, Mutation> pending = ctx.pending().of(table.kvTableName());
    List<Bytes> toRead = new ArrayList<>();
    Map<Bytes, Object[]> written = new HashMap<>();
    for (Bytes key : keys) {
      Mutation m = pending.get(key);
      if (m == null) {
        toRead.add(key);
      } else if (m instanceof Mutation.Put put) {
        written.put(key, codec.decode(put.key(), put.value()));
      }
    }
    Map<Bytes, Object[]> rows =
        conditions != null
            ? ValueChecks.latestRows(kv, codec, toRead, conditions, () -> ctx.control().check())
            : Mutations.storedRows(
                table, kv, toRead, ctx.readPoint(), ctx.eval(), () -> ctx.control().check());
    rows.putAll(written);
    return rows;
  }

  private long delete(
      StatementPlan.Delete d,
      ExecContext ctx,
      Mutation.Condition condition,
      boolean checkValues,
      Set<Bytes> done) {
    TableDescriptor table = d.table();
    KvTable kv = kvTable(table);
    RowCodec codec = new RowCodec(table.layout());
    List<Mutation> batch = new ArrayList<>();
    // the rows deleted as read, by key, when the store checks values (a table with a key: the
    // source's rows are the table's)
    Map<Bytes, Object[]> readRows =
        checkValues && !table.hiddenRowId() ? new LinkedHashMap<>() : null;
    long count = 0;
    try (QueryExecution source = QueryExecution.start(d.source(), ctx)) {
      for (Object[] row = source.next(); row != null; row = source.next()) {
        Bytes key = table.hiddenRowId() ? Bytes.copyOf((byte[]) row[0]) : codec.encodeKey(row);
        batch.add(new Mutation.Delete(key, condition));
        if (readRows != null) {
          if (row.length != table.columns().size()) {
            throw CairnException.internal(
                "DELETE's source: expected the table's ["
                    + table.columns().size()
                    + "] columns, found ["
                    + row.length
                    + "]");
          }
          readRows.put(key, row);
        }
        if (++count % CHECK_INTERVAL == 0) {
          ctx.control().check();
        }
      }
    }
    if (readRows != null) {
      batch = withConditions(batch, table, kv, codec, readRows, done, ctx);
    }
    ctx.control().check();
    return writeAllBut(done, table, kv, batch, count);
  }

  /** Rows held in a list: EXPLAIN's lines, CHECK INDEX's row. */
  private static final class ListCursor implements ResultCursor {
    private final Iterator<Object[]> rows;

    ListCursor(List<Object[]> rows) {
      this.rows = rows.iterator();
    }

    @Override
    public Object[] next() {
      return rows.hasNext() ? rows.next() : null;
    }

    @Override
    public void close() {}
  }
}
