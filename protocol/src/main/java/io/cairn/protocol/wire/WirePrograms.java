package io.cairn.protocol.wire;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import io.cairn.kv.HashProbe;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Scan programs on the wire: {@link ScanProgram} and its parts (row layout, expressions, aggregate
 * calls, types) to and from their protocol messages. A decoded program equals the one encoded.
 */
public final class WirePrograms {
  /**
   * The deepest expression sent as a tree of messages ({@code Expr.call}): what every version 1
   * server reads (a tree nests two messages per level, and servers let protobuf nest 1,000). Deeper
   * expressions travel flat ({@code Expr.nodes}), which no parser recurses into.
   */
  public static final int MAX_TREE_DEPTH = 250;

  /**
   * The deepest expression a server takes (calls on the longest path from the root to a leaf);
   * deeper is STATEMENT_TOO_COMPLEX, and clients refuse to send one. Above the planner's own limit
   * (1,200 levels of SQL expression, a few more as Cairn expressions), so that whatever plans
   * embedded also runs on a server, and well below what an ordinary thread's stack compiles and
   * evaluates (about 3,000 levels of chained {@code +} or {@code ||} with 1 MB stacks).
   */
  public static final int MAX_EXPR_DEPTH = 2_000;

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
    program.probe().ifPresent(p -> b.setProbe(toProto(p)));
    program.having().ifPresent(h -> b.setHaving(toProto(h)));
    return b.build();
  }

  /** The message of a probe step. */
  public static io.cairn.protocol.HashProbe toProto(HashProbe probe) {
    io.cairn.protocol.HashProbe.Builder b =
        io.cairn.protocol.HashProbe.newBuilder()
            .setCacheId(com.google.protobuf.ByteString.copyFromUtf8(probe.cacheId()))
            .setKind(probe.kind().id())
            .setNullAware(probe.nullAware())
            .setPartitions(probe.partitions() == HashProbe.ALL ? 0 : probe.partitions())
            .setNoKeyFilter(!probe.keyFilter())
            .setMarks(probe.marks());
    for (Expr e : probe.probeKeys()) {
      b.addProbeKeys(toProto(e));
    }
    for (DataType t : probe.buildTypes()) {
      b.addBuildTypes(toProto(t));
    }
    probe.residual().ifPresent(r -> b.setResidual(toProto(r)));
    return b.build();
  }

  private static HashProbe fromProto(io.cairn.protocol.HashProbe message, int columns) {
    List<DataType> buildTypes = new ArrayList<>();
    for (io.cairn.protocol.DataType t : message.getBuildTypesList()) {
      buildTypes.add(fromProto(t));
    }
    List<Expr> keys = new ArrayList<>();
    for (io.cairn.protocol.Expr e : message.getProbeKeysList()) {
      keys.add(fromProto(e, columns));
    }
    int joined = columns + 1 + buildTypes.size();
    Optional<Expr> residual =
        message.hasResidual()
            ? Optional.of(fromProto(message.getResidual(), joined))
            : Optional.empty();
    return rethrowAsProtocolError(
        () ->
            new HashProbe(
                message.getCacheId().toStringUtf8(),
                keys,
                HashProbe.Kind.fromId(message.getKind()),
                buildTypes,
                residual,
                message.getNullAware(),
                message.getPartitions() == 0 ? HashProbe.ALL : message.getPartitions(),
                !message.getNoKeyFilter(),
                message.getMarks()));
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
            ? Optional.of(fromProto(message.getFilter(), columns))
            : Optional.empty();
    Optional<HashProbe> probe =
        message.hasProbe() ? Optional.of(fromProto(message.getProbe(), columns)) : Optional.empty();
    // a probing program's projection reads the joined row (columns, row key, build columns)
    int readable = probe.map(p -> p.joinedWidth(columns)).orElse(columns + 1);
    List<Expr> projection = new ArrayList<>(message.getProjectionCount());
    for (io.cairn.protocol.Expr e : message.getProjectionList()) {
      // a projection may also read the row key pseudo-column, index columnCount (DELETE of a
      // table keyed by hidden row ids projects it; the store's program scanner serves it)
      projection.add(fromProto(e, readable));
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
    Optional<Expr> having =
        message.hasHaving()
            ? Optional.of(
                fromProto(message.getHaving(), message.getGroupByCount() + aggregates.size()))
            : Optional.empty();
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
                orderBy,
                probe,
                having));
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

  /** The message of index {@code index} of a table whose rows are laid out as {@code table}. */
  public static io.cairn.protocol.IndexDefinition toProto(RowLayout table, IndexSpec index) {
    io.cairn.protocol.IndexDefinition.Builder b =
        io.cairn.protocol.IndexDefinition.newBuilder()
            .setTable(toProto(table))
            .setIndexId(index.indexId())
            .addAllInclude(index.include());
    for (int i = 0; i < index.parts().size(); i++) {
      b.addParts(toProto(index.parts().get(i)));
      b.addDescending(index.orders().get(i) == SortOrder.DESC);
    }
    return b.build();
  }

  /** The index of a message (readable), over the table its {@code table} lays out. */
  public static IndexSpec fromProto(io.cairn.protocol.IndexDefinition message) {
    if (!message.hasTable()) {
      throw WireValues.malformed("an index definition without its table's layout");
    }
    int columns = message.getTable().getColumnsCount();
    if (message.getPartsCount() != message.getDescendingCount()) {
      throw WireValues.malformed(
          "an index definition of ["
              + message.getPartsCount()
              + "] parts and ["
              + message.getDescendingCount()
              + "] orders: expected one order per part");
    }
    List<Expr> parts = new ArrayList<>(message.getPartsCount());
    List<SortOrder> orders = new ArrayList<>(message.getPartsCount());
    for (int i = 0; i < message.getPartsCount(); i++) {
      parts.add(fromProto(message.getParts(i), columns));
      orders.add(message.getDescending(i) ? SortOrder.DESC : SortOrder.ASC);
    }
    for (int c : message.getIncludeList()) {
      if (c < 0 || c >= columns) {
        throw WireValues.malformed(
            "an included column index of [" + c + "]: expected 0.." + (columns - 1));
      }
    }
    return rethrowAsProtocolError(
        () -> new IndexSpec(message.getIndexId(), parts, orders, message.getIncludeList(), true));
  }

  /**
   * The message of an expression: a tree of messages when it is at most {@link #MAX_TREE_DEPTH}
   * deep, else its nodes in post-order ({@code Expr.nodes}). Neither recurses deeper than that.
   */
  public static io.cairn.protocol.Expr toProto(Expr expr) {
    return depth(expr, MAX_TREE_DEPTH) <= MAX_TREE_DEPTH ? toTree(expr) : toNodes(expr);
  }

  private static io.cairn.protocol.Expr toTree(Expr expr) {
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
        call.addOperands(toTree(operand));
      }
      b.setCall(call);
    }
    return b.build();
  }

  /** The expression as its nodes in post-order, without recursion. */
  static io.cairn.protocol.Expr toNodes(Expr expr) {
    // pre-order visiting operands right to left, reversed, is post-order left to right
    List<Expr> preOrder = new ArrayList<>();
    ArrayDeque<Expr> stack = new ArrayDeque<>();
    stack.push(expr);
    while (!stack.isEmpty()) {
      Expr e = stack.pop();
      preOrder.add(e);
      if (e instanceof Expr.Call c) {
        for (Expr operand : c.operands()) {
          stack.push(operand);
        }
      }
    }
    io.cairn.protocol.ExprNodes.Builder nodes = io.cairn.protocol.ExprNodes.newBuilder();
    for (int i = preOrder.size() - 1; i >= 0; i--) {
      Expr e = preOrder.get(i);
      io.cairn.protocol.ExprNode.Builder n =
          io.cairn.protocol.ExprNode.newBuilder().setType(toProto(e.type()));
      if (e instanceof Expr.ColumnRef c) {
        n.setColumn(c.index());
      } else if (e instanceof Expr.Literal l) {
        n.setLiteral(WireValues.encode(l.value()));
      } else if (e instanceof Expr.Param p) {
        n.setParam(p.index());
      } else {
        Expr.Call c = (Expr.Call) e;
        n.setOp(c.op().id()).setOperandCount(c.operands().size());
      }
      nodes.addNodes(n);
    }
    return io.cairn.protocol.Expr.newBuilder()
        .setType(toProto(expr.type()))
        .setNodes(nodes)
        .build();
  }

  /**
   * The depth of {@code expr}: calls on its longest path from the root to a leaf (a leaf is 0),
   * found without recursion; once it exceeds {@code cap} the answer is some depth above it.
   */
  public static int depth(Expr expr, int cap) {
    ArrayDeque<Expr> nodes = new ArrayDeque<>();
    ArrayDeque<Integer> depths = new ArrayDeque<>();
    nodes.push(expr);
    depths.push(0);
    int deepest = 0;
    while (!nodes.isEmpty()) {
      Expr e = nodes.pop();
      int above = depths.pop();
      if (e instanceof Expr.Call c) {
        int depth = above + 1;
        deepest = Math.max(deepest, depth);
        if (deepest > cap) {
          return deepest;
        }
        for (Expr operand : c.operands()) {
          nodes.push(operand);
          depths.push(depth);
        }
      }
    }
    return deepest;
  }

  /**
   * The expression of a message, over rows of {@code columns} columns.
   *
   * @throws CairnException PROTOCOL_ERROR when it is not a valid expression, STATEMENT_TOO_COMPLEX
   *     when it is deeper than {@link #MAX_EXPR_DEPTH}
   */
  public static Expr fromProto(io.cairn.protocol.Expr message, int columns) {
    if (message.getKindCase() == io.cairn.protocol.Expr.KindCase.NODES) {
      if (!message.hasType()) {
        throw WireValues.malformed("an expression without a type");
      }
      DataType type = fromProto(message.getType());
      Expr root = fromNodes(message.getNodes(), columns);
      if (!root.type().equals(type)) {
        throw WireValues.malformed(
            "an expression of type ["
                + type
                + "] whose root node is of type ["
                + root.type()
                + "]");
      }
      return root;
    }
    return fromTree(message, columns, 0);
  }

  private static Expr fromTree(io.cairn.protocol.Expr message, int columns, int depth) {
    if (depth > MAX_EXPR_DEPTH) {
      throw tooDeep();
    }
    if (!message.hasType()) {
      throw WireValues.malformed("an expression without a type");
    }
    DataType type = fromProto(message.getType());
    return switch (message.getKindCase()) {
      case COLUMN -> column(message.getColumn(), type, columns);
      case LITERAL -> literal(message.getLiteral(), type);
      case PARAM -> param(message.getParam(), type);
      case CALL -> {
        io.cairn.protocol.Call call = message.getCall();
        Op op = rethrowAsProtocolError(() -> Op.fromId(call.getOp()));
        List<Expr> operands = new ArrayList<>(call.getOperandsCount());
        for (io.cairn.protocol.Expr operand : call.getOperandsList()) {
          if (operand.getKindCase() == io.cairn.protocol.Expr.KindCase.NODES) {
            throw WireValues.malformed("an operand sent as expression nodes (only whole ones are)");
          }
          operands.add(fromTree(operand, columns, depth + 1));
        }
        yield rethrowAsProtocolError(() -> new Expr.Call(op, operands, type));
      }
      case NODES -> throw new IllegalStateException("handled by the caller");
      case KIND_NOT_SET -> throw WireValues.malformed("an expression of no kind");
    };
  }

  /** Rebuilds a post-order list of nodes with an explicit stack. */
  private static Expr fromNodes(io.cairn.protocol.ExprNodes message, int columns) {
    int count = message.getNodesCount();
    List<Expr> stack = new ArrayList<>();
    int[] depths = new int[Math.min(count, 1024)];
    for (int i = 0; i < count; i++) {
      io.cairn.protocol.ExprNode node = message.getNodes(i);
      if (!node.hasType()) {
        throw WireValues.malformed("expression node [" + i + "] without a type");
      }
      DataType type = fromProto(node.getType());
      int operandCount = node.getOperandCount();
      if (node.getKindCase() != io.cairn.protocol.ExprNode.KindCase.OP && operandCount != 0) {
        throw WireValues.malformed(
            "expression node [" + i + "]: a leaf with [" + operandCount + "] operands");
      }
      Expr expr;
      int depth = 0;
      switch (node.getKindCase()) {
        case COLUMN -> expr = column(node.getColumn(), type, columns);
        case LITERAL -> expr = literal(node.getLiteral(), type);
        case PARAM -> expr = param(node.getParam(), type);
        case OP -> {
          Op op = rethrowAsProtocolError(() -> Op.fromId(node.getOp()));
          if (operandCount < 0 || operandCount > stack.size()) {
            throw WireValues.malformed(
                "expression node ["
                    + i
                    + "]: a call of ["
                    + operandCount
                    + "] operands, expected 0.."
                    + stack.size()
                    + " (the nodes before it)");
          }
          int first = stack.size() - operandCount;
          List<Expr> tail = stack.subList(first, stack.size());
          List<Expr> operands = new ArrayList<>(tail);
          tail.clear();
          for (int k = first; k < first + operandCount; k++) {
            depth = Math.max(depth, depths[k]);
          }
          depth++;
          if (depth > MAX_EXPR_DEPTH) {
            throw tooDeep();
          }
          expr = rethrowAsProtocolError(() -> new Expr.Call(op, operands, type));
        }
        default -> throw WireValues.malformed("expression node [" + i + "] of no kind");
      }
      if (stack.size() == depths.length) {
        depths = java.util.Arrays.copyOf(depths, depths.length * 2);
      }
      depths[stack.size()] = depth;
      stack.add(expr);
    }
    if (stack.size() != 1) {
      throw WireValues.malformed(
          "expression nodes that make [" + stack.size() + "] expressions, expected 1");
    }
    return stack.get(0);
  }

  private static Expr column(int index, DataType type, int columns) {
    if (index < 0 || index >= columns) {
      throw WireValues.malformed(
          "a column reference [" + index + "]: expected 0.." + (columns - 1));
    }
    return new Expr.ColumnRef(index, type);
  }

  private static Expr literal(com.google.protobuf.ByteString bytes, DataType type) {
    Object value = WireValues.decode(bytes);
    return rethrowAsProtocolError(() -> new Expr.Literal(value, type));
  }

  private static Expr param(int index, DataType type) {
    if (index < 0) {
      throw WireValues.malformed("a parameter index [" + index + "]");
    }
    return new Expr.Param(index, type);
  }

  private static CairnException tooDeep() {
    return new CairnException(
        ErrorCode.STATEMENT_TOO_COMPLEX,
        "Statement too complex: expression nested deeper than ["
            + MAX_EXPR_DEPTH
            + "] levels; split it or use IN lists, CASE or helper columns");
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
      throw new CairnException(ErrorCode.PROTOCOL_ERROR, "Malformed message: " + e.getMessage(), e);
    }
  }
}
