package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.Expr;
import java.util.List;
import java.util.Optional;

/**
 * One key range of a scan, in SQL terms: the leading primary-key columns equal {@code equalPrefix}
 * (in key order), and the next key column lies within {@code lower}/{@code upper}. Values are
 * literals or parameters, turned into bytes at execution (so cached plans work with any parameter
 * values).
 */
public record KeyBounds(List<Expr> equalPrefix, Optional<Bound> lower, Optional<Bound> upper) {
  /** A bound on the column after the equal prefix. */
  public record Bound(Expr value, boolean inclusive) {
    public Bound {
      requireNonNull(value, "value is null");
    }
  }

  public KeyBounds {
    equalPrefix = List.copyOf(equalPrefix);
    requireNonNull(lower, "lower is null");
    requireNonNull(upper, "upper is null");
  }

  public static KeyBounds all() {
    return new KeyBounds(List.of(), Optional.empty(), Optional.empty());
  }

  public boolean isAll() {
    return equalPrefix.isEmpty() && lower.isEmpty() && upper.isEmpty();
  }
}
