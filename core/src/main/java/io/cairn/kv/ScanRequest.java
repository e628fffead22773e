package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.EvalContext;
import io.cairn.core.memory.MemoryPool;
import java.util.List;

/**
 * A scan of one KV table: sorted, non-overlapping key ranges, the program to run over the rows, the
 * statement's parameters for the program's expressions, whether data read may be cached, and the
 * read point to read at: {@link #LATEST} (a snapshot taken when the scan opens) or a {@link
 * KvSnapshot}'s, so that every chunk and page of a statement reads the same committed state.
 *
 * <p>{@code memory} is the budget the scan's state (a grouped aggregation's groups, a sort's rows)
 * counts against, never sent over the wire: the network server sets it to the connection's pool
 * (under its database's and the server's); null means the store's own pool.
 *
 * <p>{@code index} reads a local index instead of the table's rows ({@link IndexRead}); null: the
 * rows.
 *
 * <p>{@code hashCaches} finds the hash tables a program's {@link HashProbe} names; like {@code
 * memory} it is never sent: the embedded driver hands its own tables here (no copy), a network
 * server sets its connection's. Null: none.
 */
public record ScanRequest(
    List<KeyRange> ranges,
    ScanProgram program,
    EvalContext context,
    boolean cacheBlocks,
    long readPoint,
    MemoryPool memory,
    IndexRead index,
    HashCacheLookup hashCaches) {
  /** Read at a snapshot taken when the scan opens. */
  public static final long LATEST = 0;

  public ScanRequest {
    ranges = List.copyOf(ranges);
    requireNonNull(program, "program is null");
    requireNonNull(context, "context is null");
    if (readPoint < 0) {
      throw new IllegalArgumentException(
          "A scan's read point: expected >= 0, found [" + readPoint + "]");
    }
  }

  /** A scan without hash caches. */
  public ScanRequest(
      List<KeyRange> ranges,
      ScanProgram program,
      EvalContext context,
      boolean cacheBlocks,
      long readPoint,
      MemoryPool memory,
      IndexRead index) {
    this(ranges, program, context, cacheBlocks, readPoint, memory, index, null);
  }

  /** A scan of the table's rows. */
  public ScanRequest(
      List<KeyRange> ranges,
      ScanProgram program,
      EvalContext context,
      boolean cacheBlocks,
      long readPoint,
      MemoryPool memory) {
    this(ranges, program, context, cacheBlocks, readPoint, memory, null);
  }

  /** A scan at {@code readPoint} counting against the store's own memory pool. */
  public ScanRequest(
      List<KeyRange> ranges,
      ScanProgram program,
      EvalContext context,
      boolean cacheBlocks,
      long readPoint) {
    this(ranges, program, context, cacheBlocks, readPoint, null);
  }

  /** A scan at a snapshot taken when it opens. */
  public ScanRequest(
      List<KeyRange> ranges, ScanProgram program, EvalContext context, boolean cacheBlocks) {
    this(ranges, program, context, cacheBlocks, LATEST);
  }

  /** The same scan at {@code readPoint}. */
  public ScanRequest atReadPoint(long readPoint) {
    return new ScanRequest(
        ranges, program, context, cacheBlocks, readPoint, memory, index, hashCaches);
  }

  /** The same scan counting its state against {@code pool} (null: the store's own pool). */
  public ScanRequest withMemory(MemoryPool pool) {
    return new ScanRequest(
        ranges, program, context, cacheBlocks, readPoint, pool, index, hashCaches);
  }

  /** The same scan reading {@code read} (null: the table's rows). */
  public ScanRequest withIndex(IndexRead read) {
    return new ScanRequest(
        ranges, program, context, cacheBlocks, readPoint, memory, read, hashCaches);
  }

  /** The same scan finding its hash caches in {@code lookup} (null: none). */
  public ScanRequest withHashCaches(HashCacheLookup lookup) {
    return new ScanRequest(ranges, program, context, cacheBlocks, readPoint, memory, index, lookup);
  }
}
