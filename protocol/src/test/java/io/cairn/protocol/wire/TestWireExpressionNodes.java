package io.cairn.protocol.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.cairn.core.encoding.TestingRows;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.Op;
import io.cairn.core.expr.TestRowFilterProperties;
import io.cairn.core.type.DataType;
import io.cairn.protocol.ExprNode;
import io.cairn.protocol.ExprNodes;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Expressions on the wire at any depth: shallow ones as a tree of messages (what every version 1
 * server reads), deeper ones as a flat post-order list of nodes that neither side recurses into;
 * beyond {@link WirePrograms#MAX_EXPR_DEPTH} they are STATEMENT_TOO_COMPLEX, and broken node lists
 * are PROTOCOL_ERROR naming the node.
 */
class TestWireExpressionNodes {
  private static final DataType VARCHAR = DataType.varchar(100_000);

  /** {@code depth} nested CONCATs over column 0: {@code c0 || 'x' || 'x' ...}. */
  private static Expr concatChain(int depth) {
    Expr e = new Expr.ColumnRef(0, VARCHAR);
    for (int i = 0; i < depth; i++) {
      e = new Expr.Call(Op.CONCAT, List.of(e, new Expr.Literal("x", VARCHAR)), VARCHAR);
    }
    return e;
  }

  private static Expr notChain(int depth) {
    Expr e = new Expr.ColumnRef(0, DataType.BOOLEAN);
    for (int i = 0; i < depth; i++) {
      e = new Expr.Call(Op.NOT, List.of(e), DataType.BOOLEAN);
    }
    return e;
  }

  /** A tree message of {@code depth} nested NOTs, built by hand (as a hostile client could). */
  private static io.cairn.protocol.Expr notTree(int depth) {
    io.cairn.protocol.DataType bool = WirePrograms.toProto(DataType.BOOLEAN);
    io.cairn.protocol.Expr e =
        io.cairn.protocol.Expr.newBuilder().setType(bool).setColumn(0).build();
    for (int i = 0; i < depth; i++) {
      e =
          io.cairn.protocol.Expr.newBuilder()
              .setType(bool)
              .setCall(io.cairn.protocol.Call.newBuilder().setOp(Op.NOT.id()).addOperands(e))
              .build();
    }
    return e;
  }

  @Example
  void depthIsTheCallsOnTheLongestPath() {
    assertThat(WirePrograms.depth(new Expr.ColumnRef(0, VARCHAR), 10)).isZero();
    assertThat(WirePrograms.depth(concatChain(1), 10)).isEqualTo(1);
    assertThat(WirePrograms.depth(concatChain(7), 10)).isEqualTo(7);
    Expr lopsided =
        new Expr.Call(Op.CONCAT, List.of(new Expr.Literal("a", VARCHAR), concatChain(5)), VARCHAR);
    assertThat(WirePrograms.depth(lopsided, 10)).isEqualTo(6);
    assertThat(WirePrograms.depth(concatChain(50), 10)).as("stops past the cap").isGreaterThan(10);
  }

  @Example
  void shallowExpressionsTravelAsTreesDeeperOnesAsNodes() {
    assertThat(WirePrograms.toProto(concatChain(WirePrograms.MAX_TREE_DEPTH)).getKindCase())
        .isEqualTo(io.cairn.protocol.Expr.KindCase.CALL);
    io.cairn.protocol.Expr flat =
        WirePrograms.toProto(concatChain(WirePrograms.MAX_TREE_DEPTH + 1));
    assertThat(flat.getKindCase()).isEqualTo(io.cairn.protocol.Expr.KindCase.NODES);
    // post-order: the column, then per level the literal and the call of two operands
    ExprNodes nodes = flat.getNodes();
    assertThat(nodes.getNodesCount()).isEqualTo(1 + 2 * (WirePrograms.MAX_TREE_DEPTH + 1));
    assertThat(nodes.getNodes(0).getColumn()).isZero();
    assertThat(nodes.getNodes(1).hasLiteral()).isTrue();
    assertThat(nodes.getNodes(2).getOp()).isEqualTo(Op.CONCAT.id());
    assertThat(nodes.getNodes(2).getOperandCount()).isEqualTo(2);
    assertThat(flat.getType()).isEqualTo(WirePrograms.toProto(VARCHAR));
  }

  /**
   * Every depth up to the limit round-trips; those sent as nodes are parsed and decoded on a thread
   * with a 256k stack, which overflows in a recursive reader of a 250-level tree.
   */
  @Example
  void deepExpressionsRoundTripWithoutRecursion() throws Exception {
    for (int depth : new int[] {0, 1, 50, 250, 251, 1_000, 1_200, WirePrograms.MAX_EXPR_DEPTH}) {
      Expr expr = concatChain(depth);
      byte[] bytes = WirePrograms.toProto(expr).toByteArray();
      AtomicReference<Object> decoded = new AtomicReference<>();
      Thread reader =
          new Thread(
              null,
              () -> {
                try {
                  // as the server parses: messages may nest 1,000 deep (a tree of 250 levels)
                  CodedInputStream in = CodedInputStream.newInstance(bytes);
                  in.setRecursionLimit(1_000);
                  decoded.set(WirePrograms.fromProto(io.cairn.protocol.Expr.parseFrom(in), 1));
                } catch (Throwable t) {
                  decoded.set(t);
                }
              },
              "reader",
              // a tree recurses as deep as it nests (an ordinary stack); nodes do not
              depth <= WirePrograms.MAX_TREE_DEPTH ? 0 : 256 * 1024);
      reader.start();
      reader.join();
      assertThat(decoded.get()).as("depth %s", depth).isInstanceOf(Expr.class);
      Expr back = (Expr) decoded.get();
      // compared as messages: a flat message has no nesting to recurse through
      assertThat(WirePrograms.toProto(back).toByteArray()).isEqualTo(bytes);
      assertThat(WirePrograms.depth(back, Integer.MAX_VALUE)).isEqualTo(depth);
      if (depth <= 1_200) {
        assertThat(ExprCompiler.compile(back).evaluate(new Object[] {"s"}, EvalContext.EMPTY))
            .isEqualTo("s" + "x".repeat(depth));
      }
    }
  }

  @Example
  void deeperThanTheLimitIsSTATEMENT_TOO_COMPLEXFlatOrTree() {
    io.cairn.protocol.Expr flat = WirePrograms.toProto(notChain(WirePrograms.MAX_EXPR_DEPTH + 1));
    assertThat(flat.hasNodes()).isTrue();
    assertTooComplex(() -> WirePrograms.fromProto(flat, 1));
    assertThat(WirePrograms.fromProto(WirePrograms.toProto(notChain(3)), 1)).isEqualTo(notChain(3));
    assertTooComplex(() -> WirePrograms.fromProto(notTree(WirePrograms.MAX_EXPR_DEPTH + 1), 1));
    assertThat(WirePrograms.fromProto(notTree(WirePrograms.MAX_TREE_DEPTH), 1))
        .isEqualTo(notChain(WirePrograms.MAX_TREE_DEPTH));
  }

  @Example
  void brokenNodeListsArePROTOCOL_ERRORNamingTheNode() {
    io.cairn.protocol.DataType bool = WirePrograms.toProto(DataType.BOOLEAN);
    ExprNode column = ExprNode.newBuilder().setType(bool).setColumn(0).build();
    ExprNode not =
        ExprNode.newBuilder().setType(bool).setOp(Op.NOT.id()).setOperandCount(1).build();
    assertThat(decode(bool, column, not, not)).isEqualTo(notChain(2));

    assertProtocolError(() -> decode(bool), "[0] expressions, expected 1");
    assertProtocolError(() -> decode(bool, column, column), "[2] expressions, expected 1");
    assertProtocolError(() -> decode(bool, not), "node [0]: a call of [1] operands, expected 0..0");
    assertProtocolError(
        () -> decode(bool, column, not.toBuilder().setOperandCount(-1).build()), "node [1]");
    assertProtocolError(
        () -> decode(bool, column, not.toBuilder().setOp(9999).build()), "Malformed");
    assertProtocolError(
        () -> decode(bool, column.toBuilder().setOperandCount(1).build()),
        "node [0]: a leaf with [1] operands");
    assertProtocolError(
        () -> decode(bool, column, ExprNode.newBuilder().setType(bool).build()),
        "node [1] of no kind");
    assertProtocolError(() -> decode(bool, column.toBuilder().clearType().build()), "node [0]");
    assertProtocolError(
        () -> decode(bool, column.toBuilder().setColumn(5).build()), "column reference [5]");
    assertProtocolError(
        () -> decode(WirePrograms.toProto(DataType.BIGINT), column), "whose root node");
    // nodes only as a whole expression, never as an operand of a tree
    io.cairn.protocol.Expr nested =
        io.cairn.protocol.Expr.newBuilder()
            .setType(bool)
            .setCall(
                io.cairn.protocol.Call.newBuilder()
                    .setOp(Op.NOT.id())
                    .addOperands(
                        io.cairn.protocol.Expr.newBuilder()
                            .setType(bool)
                            .setNodes(ExprNodes.newBuilder().addNodes(column))))
            .build();
    assertProtocolError(() -> WirePrograms.fromProto(nested, 1), "operand");
  }

  @Example
  void aStackExhaustedByARequestIsSTATEMENT_TOO_COMPLEX() {
    io.cairn.protocol.Error e = WireMessages.toProto(new StackOverflowError());
    assertThat(ErrorCode.fromCode(e.getCode())).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
    assertThat(e.getSqlState()).isEqualTo("54001");
    assertThat(e.getMessage()).contains("stack").hasSizeLessThan(300);
  }

  record FilterCase(long seed, List<Object[]> rows, io.cairn.core.encoding.RowLayout layout) {}

  @Provide
  Arbitrary<FilterCase> filterCases() {
    return TestingRows.layouts()
        .flatMap(
            layout ->
                Combinators.combine(
                        Arbitraries.longs(),
                        TestingRows.rows(layout).list().ofMinSize(1).ofMaxSize(3))
                    .as((seed, rows) -> new FilterCase(seed, rows, layout)));
  }

  /** Random filters (every operator, type and literal of the filter tests) round-trip as nodes. */
  @Property(tries = 300)
  void randomExpressionsRoundTripAsNodes(@ForAll("filterCases") FilterCase c)
      throws InvalidProtocolBufferException {
    Expr filter =
        new TestRowFilterProperties.Filters(new Random(c.seed()), c.layout(), c.rows()).filter(4);
    io.cairn.protocol.Expr flat =
        io.cairn.protocol.Expr.parseFrom(WirePrograms.toNodes(filter).toByteArray());
    int columns = c.layout().columnCount();
    // compared as messages: literals of arrays are equal by content only there
    Expr fromNodes = WirePrograms.fromProto(flat, columns);
    assertThat(WirePrograms.toNodes(fromNodes)).isEqualTo(flat);
    io.cairn.protocol.Expr tree = WirePrograms.toProto(filter);
    assertThat(tree.hasNodes()).isFalse();
    assertThat(WirePrograms.toProto(fromNodes)).isEqualTo(tree);
    assertThat(WirePrograms.depth(fromNodes, 100)).isEqualTo(WirePrograms.depth(filter, 100));
  }

  private static Expr decode(io.cairn.protocol.DataType type, ExprNode... nodes) {
    return WirePrograms.fromProto(
        io.cairn.protocol.Expr.newBuilder()
            .setType(type)
            .setNodes(ExprNodes.newBuilder().addAllNodes(List.of(nodes)))
            .build(),
        1);
  }

  private static void assertTooComplex(Runnable action) {
    assertThatThrownBy(action::run)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
              assertThat(e.getMessage())
                  .contains("[" + WirePrograms.MAX_EXPR_DEPTH + "]")
                  .hasSizeLessThan(300);
            });
  }

  private static void assertProtocolError(Runnable action, String messagePart) {
    assertThatThrownBy(action::run)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.PROTOCOL_ERROR);
              assertThat(e.getMessage()).contains(messagePart);
            });
  }
}
