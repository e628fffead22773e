package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.EvalContext;
import java.util.List;

/**
 * A scan of one KV table: sorted, non-overlapping key ranges, the program to run over the rows, the
 * statement's parameters for the program's expressions, and whether data read may be cached.
 */
public record ScanRequest(
    List<KeyRange> ranges, ScanProgram program, EvalContext context, boolean cacheBlocks) {
  public ScanRequest {
    ranges = List.copyOf(ranges);
    requireNonNull(program, "program is null");
    requireNonNull(context, "context is null");
  }
}
