package io.cairn.core.wire;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Scan programs on the wire: {@link ScanProgram} and its parts (row layout, expressions, aggregate
 * calls, types) to and from their protocol messages. A decoded program equals the one encoded.
 */
public final class WirePrograms {
  /**
   * Deeper expressions are refused: the server parses requests on its network threads, whose stacks
   * are ordinary (it lets protobuf nest 1,000 messages, two per expression level); clients refuse
   * to send deeper ones with STATEMENT_TOO_COMPLEX.
   */
  public static final int MAX_EXPR_DEPTH = 250;

  private WirePrograms() {}

  public static io.cairn.protocol.ScanProgram toProto(ScanProgram program) {
    io.cairn.protocol.ScanProgram.Builder b =
        io.cairn.protocol.ScanProgram.newBuilder()
            .setLayout(toProto(program.layout()))
            .setLimit(program.limit())
            .setOffset(program.offset())
            .addAllGroupBy(program.groupBy());
    program.filter().ifPresent(f -> b.setFilter(toProto(f)));
    for (Expr e : program.projection()) {
      b.addProjection(toProto(e));
    }
    for (AggregateCall call : program.aggregates()) {
      b.addAggregates(toProto(call));
    }
    for (SortKey k : program.orderBy()) {
      b.addOrderBy(
          io.cairn.protocol.SortKey.newBuilder()
              .setColumn(k.column())
              .setDescending(k.descending())
              .setNullsFirst(k.nullsFirst()));
    }
    return b.build();
  }

  /**
   * The program of a message.
   *
   * @throws CairnException PROTOCOL_ERROR when the message is not a valid program
   */
  public static ScanProgram fromProto(io.cairn.protocol.ScanProgram message) {
    if (!message.hasLayout()) {
      throw WireValues.malformed("a scan program without a row layout");
    }
    RowLayout layout = fromProto(message.getLayout());
    int columns = layout.columnCount();
    Optional<Expr> filter =
        message.hasFilter()
            ? Optional.of(fromProto(message.getFilter(), columns, 0))
            : Optional.empty();
    List<Expr> projection = new ArrayList<>(message.getProjectionCount());
    for (io.cairn.protocol.Expr e : message.getProjectionList()) {
      // a projection may also read the row key pseudo-column, index columnCount (DELETE of a
      // table keyed by hidden row ids projects it; the store's program scanner serves it)
      projection.add(fromProto(e, columns + 1, 0));
    }
    List<AggregateCall> aggregates = new ArrayList<>(message.getAggregatesCount());
    for (io.cairn.protocol.AggregateCall call : message.getAggregatesList()) {
      aggregates.add(fromProto(call));
    }
    if (message.getLimit() < ScanProgram.NO_LIMIT) {
      throw WireValues.malformed("a scan limit of [" + message.getLimit() + "]");
    }
    if (message.getOffset() < 0) {
      throw WireValues.malformed("a scan offset of [" + message.getOffset() + "]");
    }
    List<SortKey> orderBy = new ArrayList<>(message.getOrderByCount());
    for (io.cairn.protocol.SortKey k : message.getOrderByList()) {
      orderBy.add(
          rethrowAsProtocolError(
              () -> new SortKey(k.getColumn(), k.getDescending(), k.getNullsFirst())));
    }
    // the program checks the rest (indexes in range, no order or limit with aggregates, ...)
    return rethrowAsProtocolError(
        () ->
            new ScanProgram(
                layout,
                filter,
                projection,
                message.getLimit(),
                message.getOffset(),
                message.getGroupByList(),
                aggregates,
                orderBy));
  }

  public static io.cairn.protocol.DataType toProto(DataType type) {
    return io.cairn.protocol.DataType.newBuilder()
        .setName(type.name().id())
        .setPrecision(type.precision())
        .setScale(type.scale())
        .setNullable(type.nullable())
        .build();
  }

  public static DataType fromProto(io.cairn.protocol.DataType message) {
    return rethrowAsProtocolError(
        () ->
            new DataType(
                TypeName.fromId(message.getName()),
                message.getPrecision(),
                message.getScale(),
                message.getNullable()));
  }

  public static io.cairn.protocol.RowLayout toProto(RowLayout layout) {
    io.cairn.protocol.RowLayout.Builder b =
        io.cairn.protocol.RowLayout.newBuilder()
            .setHiddenRowId(layout.hiddenRowId())
            .setSchemaVersion(layout.schemaVersion());
    for (RowLayout.ColumnLayout c : layout.columns()) {
      b.addColumns(
          io.cairn.protocol.RowLayout.Column.newBuilder()
              .setColumnId(c.columnId())
              .setType(toProto(c.type())));
    }
    for (RowLayout.KeyColumn k : layout.keyColumns()) {
      b.addKeyColumns(
          io.cairn.protocol.RowLayout.KeyColumn.newBuilder()
              .setColumnIndex(k.columnIndex())
              .setDescending(k.order() == SortOrder.DESC));
    }
    return b.build();
  }

  public static RowLayout fromProto(io.cairn.protocol.RowLayout message) {
    List<RowLayout.ColumnLayout> columns = new ArrayList<>(message.getColumnsCount());
    for (io.cairn.protocol.RowLayout.Column c : message.getColumnsList()) {
      if (!c.hasType()) {
        throw WireValues.malformed("a layout column without a type");
      }
      columns.add(new RowLayout.ColumnLayout(c.getColumnId(), fromProto(c.getType())));
    }
    List<RowLayout.KeyColumn> keys = new ArrayList<>(message.getKeyColumnsCount());
    for (io.cairn.protocol.RowLayout.KeyColumn k : message.getKeyColumnsList()) {
      if (k.getColumnIndex() < 0 || k.getColumnIndex() >= columns.size()) {
        throw WireValues.malformed(
            "a key column index of ["
                + k.getColumnIndex()
                + "]: expected 0.."
                + (columns.size() - 1));
      }
      keys.add(
          new RowLayout.KeyColumn(
              k.getColumnIndex(), k.getDescending() ? SortOrder.DESC : SortOrder.ASC));
    }
    return rethrowAsProtocolError(
        () -> new RowLayout(columns, keys, message.getHiddenRowId(), message.getSchemaVersion()));
  }

  public static io.cairn.protocol.Expr toProto(Expr expr) {
    io.cairn.protocol.Expr.Builder b =
        io.cairn.protocol.Expr.newBuilder().setType(toProto(expr.type()));
    if (expr instanceof Expr.ColumnRef c) {
      b.setColumn(c.index());
    } else if (expr instanceof Expr.Literal l) {
      b.setLiteral(WireValues.encode(l.value()));
    } else if (expr instanceof Expr.Param p) {
      b.setParam(p.index());
    } else {
      Expr.Call c = (Expr.Call) expr;
      io.cairn.protocol.Call.Builder call = io.cairn.protocol.Call.newBuilder().setOp(c.op().id());
      for (Expr operand : c.operands()) {
        call.addOperands(toProto(operand));
      }
      b.setCall(call);
    }
    return b.build();
  }

  /**
   * The expression of a message, over rows of {@code columns} columns.
   *
   * @throws CairnException PROTOCOL_ERROR when it is not a valid expression
   */
  public static Expr fromProto(io.cairn.protocol.Expr message, int columns) {
    return fromProto(message, columns, 0);
  }

  private static Expr fromProto(io.cairn.protocol.Expr message, int columns, int depth) {
    if (depth > MAX_EXPR_DEPTH) {
      throw WireValues.malformed("an expression nested deeper than " + MAX_EXPR_DEPTH + " levels");
    }
    if (!message.hasType()) {
      throw WireValues.malformed("an expression without a type");
    }
    DataType type = fromProto(message.getType());
    return switch (message.getKindCase()) {
      case COLUMN -> {
        int index = message.getColumn();
        if (index < 0 || index >= columns) {
          throw WireValues.malformed(
              "a column reference [" + index + "]: expected 0.." + (columns - 1));
        }
        yield new Expr.ColumnRef(index, type);
      }
      case LITERAL -> {
        Object value = WireValues.decode(message.getLiteral());
        yield rethrowAsProtocolError(() -> new Expr.Literal(value, type));
      }
      case PARAM -> {
        if (message.getParam() < 0) {
          throw WireValues.malformed("a parameter index [" + message.getParam() + "]");
        }
        yield new Expr.Param(message.getParam(), type);
      }
      case CALL -> {
        io.cairn.protocol.Call call = message.getCall();
        Op op = rethrowAsProtocolError(() -> Op.fromId(call.getOp()));
        List<Expr> operands = new ArrayList<>(call.getOperandsCount());
        for (io.cairn.protocol.Expr operand : call.getOperandsList()) {
          operands.add(fromProto(operand, columns, depth + 1));
        }
        yield rethrowAsProtocolError(() -> new Expr.Call(op, operands, type));
      }
      case KIND_NOT_SET -> throw WireValues.malformed("an expression of no kind");
    };
  }

  public static io.cairn.protocol.AggregateCall toProto(AggregateCall call) {
    return io.cairn.protocol.AggregateCall.newBuilder()
        .setKind(call.kind().id())
        .addAllArguments(call.arguments())
        .setDistinct(call.distinct())
        .setResultType(toProto(call.resultType()))
        .build();
  }

  public static AggregateCall fromProto(io.cairn.protocol.AggregateCall message) {
    if (!message.hasResultType()) {
      throw WireValues.malformed("an aggregate call without a result type");
    }
    DataType resultType = fromProto(message.getResultType());
    return rethrowAsProtocolError(
        () ->
            new AggregateCall(
                AggregateKind.fromId(message.getKind()),
                message.getArgumentsList(),
                message.getDistinct(),
                resultType));
  }

  /** Runs a constructor that validates, turning its complaints into PROTOCOL_ERROR. */
  static <T> T rethrowAsProtocolError(java.util.function.Supplier<T> constructor) {
    try {
      return constructor.get();
    } catch (CairnException | IllegalArgumentException | NullPointerException e) {
      throw new CairnException(
          io.cairn.core.error.ErrorCode.PROTOCOL_ERROR, "Malformed message: " + e.getMessage(), e);
    }
  }
}
