package io.cairn.jdbc.internal.session;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import io.cairn.jdbc.internal.engine.CommandResult;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.engine.ParameterInfo;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import io.cairn.jdbc.internal.engine.RowCursor;
import io.cairn.jdbc.internal.exec.ExecContext;
import io.cairn.jdbc.internal.exec.QueryExecution;
import io.cairn.kv.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableStatistics;
import io.cairn.planner.Explainer;
import io.cairn.planner.PlannedStatement;
import io.cairn.planner.plan.StatementPlan;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/** A planned statement bound to a session; executes queries, DML and DDL. */
final class DatabaseCommand implements PreparedCommand {
  private static final int CHECK_INTERVAL = 1024;

  private final DatabaseSession session;
  private final StatementPlan plan;
  private final List<String> warnings;

  /** What the plan depends on (catalog version, tables, row counts); null: nothing. */
  private final PlannedStatement planned;

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
  public boolean isCurrent() {
    return planned == null || session.database().planner().isCurrent(planned);
  }

  @Override
  public List<String> warnings() {
    return warnings;
  }

  @Override
  public Kind kind() {
    if (plan instanceof StatementPlan.Query || plan instanceof StatementPlan.Explain) {
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
    return List.of();
  }

  @Override
  public List<ParameterInfo> parameters() {
    return plan.parameterTypes().stream().map(ParameterInfo::new).toList();
  }

  @Override
  public CommandResult execute(List<Object> parameters, ExecutionControl control) {
    if (plan instanceof StatementPlan.Explain e) {
      return new CommandResult.Rows(new ListCursor(explain(e, control)));
    }
    ExecContext ctx = context(parameters, control);
    if (plan instanceof StatementPlan.Query q) {
      return new CommandResult.Rows(QueryExecution.start(q.root(), ctx));
    }
    if (plan instanceof StatementPlan.Upsert u) {
      return new CommandResult.UpdateCount(upsert(u, ctx));
    }
    if (plan instanceof StatementPlan.Delete d) {
      return new CommandResult.UpdateCount(delete(d, ctx));
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
    throw CairnException.internal("Unknown plan " + plan.getClass().getSimpleName());
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

  private ExecContext context(List<Object> parameters, ExecutionControl control) {
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
      values[i] = v == null ? null : Values.cast(v, types.get(i));
    }
    EvalContext eval = new EvalContext(values, LocalDateTime.now(ZoneId.systemDefault()));
    return new ExecContext(
        session.database().store(),
        eval,
        control,
        session.parallelism(),
        session.aggregateMaxBytes());
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

  private long upsert(StatementPlan.Upsert u, ExecContext ctx) {
    TableDescriptor table = u.table();
    KvTable kv = kvTable(table);
    RowCodec codec = new RowCodec(table.layout());
    List<ColumnDescriptor> columns = table.columns();
    List<Mutation> batch = new ArrayList<>();
    boolean merge = !u.targetsAllColumns() && !u.insert() && !table.hiddenRowId();
    boolean[] targeted = new boolean[columns.size()];
    for (int t : u.targetColumns()) {
      targeted[t] = true;
    }
    long count = 0;
    try (QueryExecution source = QueryExecution.start(u.source(), ctx)) {
      for (Object[] row = source.next(); row != null; row = source.next()) {
        Object[] full = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
          int c = u.targetColumns().get(i);
          ColumnDescriptor column = columns.get(c);
          full[c] = Values.assign(row[i], column.type(), column.name());
        }
        checkKeyNotNull(table, full);
        if (merge) {
          Object[] existing = lookup(kv, codec, table, full);
          if (existing != null) {
            for (int c = 0; c < full.length; c++) {
              if (!targeted[c]) {
                full[c] = existing[c];
              }
            }
          }
        }
        checkNotNull(table, full);
        Bytes key =
            table.hiddenRowId() ? RowCodec.encodeRowId(kv.allocateIds(1)) : codec.encodeKey(full);
        batch.add(
            new Mutation.Put(
                key,
                codec.encodeValue(full),
                u.insert() ? Mutation.Condition.MUST_NOT_EXIST : Mutation.Condition.NONE));
        if (++count % CHECK_INTERVAL == 0) {
          ctx.control().check();
        }
      }
    }
    ctx.control().check();
    session.write(table, kv, batch);
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

  private static Object[] lookup(KvTable kv, RowCodec codec, TableDescriptor table, Object[] row) {
    List<Expr> all = new ArrayList<>();
    for (int i = 0; i < table.columns().size(); i++) {
      all.add(new Expr.ColumnRef(i, table.columns().get(i).type()));
    }
    ScanRequest request =
        new ScanRequest(
            List.of(KeyRange.point(codec.encodeKey(row))),
            new ScanProgram(table.layout(), Optional.empty(), all, 1),
            EvalContext.EMPTY,
            true);
    try (RowScanner scanner = kv.scan(request)) {
      return scanner.next();
    }
  }

  private long delete(StatementPlan.Delete d, ExecContext ctx) {
    TableDescriptor table = d.table();
    KvTable kv = kvTable(table);
    RowCodec codec = new RowCodec(table.layout());
    List<Mutation> batch = new ArrayList<>();
    long count = 0;
    try (QueryExecution source = QueryExecution.start(d.source(), ctx)) {
      for (Object[] row = source.next(); row != null; row = source.next()) {
        Bytes key = table.hiddenRowId() ? Bytes.copyOf((byte[]) row[0]) : codec.encodeKey(row);
        batch.add(new Mutation.Delete(key));
        if (++count % CHECK_INTERVAL == 0) {
          ctx.control().check();
        }
      }
    }
    ctx.control().check();
    session.write(table, kv, batch);
    return count;
  }

  /** Rows of EXPLAIN: one line each. */
  private static final class ListCursor implements RowCursor {
    private final Iterator<String> lines;

    ListCursor(List<String> lines) {
      this.lines = lines.iterator();
    }

    @Override
    public Object[] next() {
      return lines.hasNext() ? new Object[] {lines.next()} : null;
    }

    @Override
    public void close() {}
  }
}
