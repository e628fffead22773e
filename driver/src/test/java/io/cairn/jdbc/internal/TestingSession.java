package io.cairn.jdbc.internal;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import io.cairn.jdbc.internal.engine.CommandResult;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.engine.ParameterInfo;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import io.cairn.jdbc.internal.engine.ResultCursor;
import io.cairn.jdbc.internal.engine.Session;
import io.cairn.jdbc.internal.engine.SessionFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * A hand-written engine session for driver tests: statements are registered by their exact text and
 * serve rows from lists (or from a function). Records what the driver did with it.
 */
public final class TestingSession implements Session {
  private final Map<String, PreparedCommand> commands = new HashMap<>();
  private final List<TableDescriptor> tables = new ArrayList<>();
  public final List<TestingCursor> cursors = new CopyOnWriteArrayList<>();
  public final List<List<Object>> executions = new CopyOnWriteArrayList<>();
  public final List<ExecutionControl> controls = new CopyOnWriteArrayList<>();
  public String storeName = "mem:test";
  public Properties openedWith;
  public boolean autoCommit = true;
  public boolean readOnly;
  public int commits;
  public int rollbacks;
  public int closes;

  /** A factory that hands out this session. */
  public SessionFactory factory() {
    return (name, info) -> {
      storeName = name;
      openedWith = info;
      return this;
    };
  }

  /** A query with no parameters serving {@code rows}. */
  public TestingSession query(String sql, List<ColumnInfo> columns, List<Object[]> rows) {
    return query(sql, columns, List.of(), rows);
  }

  public TestingSession query(
      String sql, List<ColumnInfo> columns, List<ParameterInfo> parameters, List<Object[]> rows) {
    return command(
        sql,
        PreparedCommand.Kind.QUERY,
        columns,
        parameters,
        (params, control) -> new CommandResult.Rows(cursor(rows, control)));
  }

  /** DML returning {@code count}; fails with {@code failure} when a parameter equals "FAIL". */
  public TestingSession update(String sql, List<ParameterInfo> parameters, long count) {
    return command(
        sql,
        PreparedCommand.Kind.DML,
        List.of(),
        parameters,
        (params, control) -> {
          control.check();
          if (params.contains("FAIL")) {
            throw new CairnException(ErrorCode.DUPLICATE_KEY, "Duplicate key [FAIL]");
          }
          return new CommandResult.UpdateCount(count);
        });
  }

  public TestingSession ddl(String sql) {
    return command(
        sql,
        PreparedCommand.Kind.DDL,
        List.of(),
        List.of(),
        (params, control) -> new CommandResult.UpdateCount(0));
  }

  public TestingSession command(
      String sql,
      PreparedCommand.Kind kind,
      List<ColumnInfo> columns,
      List<ParameterInfo> parameters,
      BiFunction<List<Object>, ExecutionControl, CommandResult> body) {
    commands.put(
        sql,
        new PreparedCommand() {
          @Override
          public Kind kind() {
            return kind;
          }

          @Override
          public List<ColumnInfo> columns() {
            return columns;
          }

          @Override
          public List<ParameterInfo> parameters() {
            return parameters;
          }

          @Override
          public CommandResult execute(List<Object> params, ExecutionControl control) {
            executions.add(Collections.unmodifiableList(new ArrayList<>(params)));
            controls.add(control);
            return body.apply(params, control);
          }
        });
    return this;
  }

  public TestingCursor cursor(List<Object[]> rows, ExecutionControl control) {
    TestingCursor cursor = new TestingCursor(rows, control);
    cursors.add(cursor);
    return cursor;
  }

  public TestingSession table(TableDescriptor table) {
    tables.add(table);
    return this;
  }

  @Override
  public PreparedCommand prepare(String sql) {
    PreparedCommand command = commands.get(sql);
    if (command == null) {
      throw new CairnException(ErrorCode.SYNTAX_ERROR, "Unknown statement [" + sql + "]");
    }
    return command;
  }

  @Override
  public boolean autoCommit() {
    return autoCommit;
  }

  @Override
  public void setAutoCommit(boolean autoCommit) {
    if (!this.autoCommit && autoCommit) {
      commits++;
    }
    this.autoCommit = autoCommit;
  }

  @Override
  public void setReadOnly(boolean readOnly) {
    this.readOnly = readOnly;
  }

  @Override
  public void commit() {
    commits++;
  }

  @Override
  public void rollback() {
    rollbacks++;
  }

  @Override
  public List<TableDescriptor> tables() {
    return List.copyOf(tables);
  }

  @Override
  public String storeName() {
    return storeName;
  }

  @Override
  public void close() {
    closes++;
  }

  /** Serves rows from a list, checking the control before each, as the engine does. */
  public static final class TestingCursor implements ResultCursor {
    private final List<Object[]> rows;
    private final ExecutionControl control;
    private int position;
    public volatile boolean closed;
    public int closeCalls;

    TestingCursor(List<Object[]> rows, ExecutionControl control) {
      this.rows = rows;
      this.control = control;
    }

    @Override
    public Object[] next() {
      control.check();
      return position < rows.size() ? rows.get(position++) : null;
    }

    @Override
    public void close() {
      closed = true;
      closeCalls++;
    }
  }

  /** A cursor whose first next() blocks, checking the control, until cancelled or timed out. */
  public static ResultCursor blockingCursor(ExecutionControl control, List<Boolean> closed) {
    return new ResultCursor() {
      @Override
      public Object[] next() {
        while (true) {
          control.check();
          try {
            Thread.sleep(1);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CairnException(ErrorCode.QUERY_CANCELED, "Interrupted");
          }
        }
      }

      @Override
      public void close() {
        closed.add(true);
      }
    };
  }
}
