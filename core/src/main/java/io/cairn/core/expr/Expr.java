package io.cairn.core.expr;

import io.cairn.core.type.DataType;

/**
 * Cairn's expression IR: what the planner produces from Calcite's RexNode and what both the
 * server-side scan program and the client executor evaluate. A tree of immutable records; no
 * Calcite types. Evaluated by {@link ExprCompiler}.
 */
public sealed interface Expr permits Expr.ColumnRef, Expr.Literal, Expr.Param, Expr.Call {
  /** Result type. Evaluation results are Java values as documented on TypeName. */
  DataType type();

  /** The {@code index}-th value of the input row. */
  record ColumnRef(int index, DataType type) implements Expr {
    public ColumnRef {
      java.util.Objects.requireNonNull(type, "type is null");
    }
  }

  /** A constant; {@code value} is null for SQL NULL. */
  record Literal(Object value, DataType type) implements Expr {
    public Literal {
      java.util.Objects.requireNonNull(type, "type is null");
    }
  }

  /** The {@code index}-th (0-based) statement parameter, bound at execution. */
  record Param(int index, DataType type) implements Expr {
    public Param {
      java.util.Objects.requireNonNull(type, "type is null");
    }
  }

  /** An operator or function applied to operands. See {@link Op} for each operator's operands. */
  record Call(Op op, java.util.List<Expr> operands, DataType type) implements Expr {
    public Call {
      java.util.Objects.requireNonNull(op, "op is null");
      operands = java.util.List.copyOf(operands);
      java.util.Objects.requireNonNull(type, "type is null");
    }
  }
}
