package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Expr;
import java.util.List;
import java.util.Optional;

/**
 * What a region runs over the rows of a scan ("coprocessor"): decode each row with {@code layout},
 * keep it when {@code filter} is TRUE, emit {@code projection} evaluated over it, stop after {@code
 * limit} emitted rows. Expressions see the decoded row (one value per layout column). Later issues
 * add partial aggregates, top-N, hash-join probes and index lookups.
 */
public record ScanProgram(
    RowLayout layout, Optional<Expr> filter, List<Expr> projection, long limit) {
  public static final long NO_LIMIT = -1;

  public ScanProgram {
    requireNonNull(layout, "layout is null");
    requireNonNull(filter, "filter is null");
    projection = List.copyOf(projection);
  }
}
