package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.EvalContext;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.kv.KvStore;

/** What operators of one statement execution share. */
public record ExecContext(KvStore store, EvalContext eval, ExecutionControl control) {
  public ExecContext {
    requireNonNull(store, "store is null");
    requireNonNull(eval, "eval is null");
    requireNonNull(control, "control is null");
  }
}
