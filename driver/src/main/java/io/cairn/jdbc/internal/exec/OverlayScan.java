package io.cairn.jdbc.internal.exec;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.HashProbe;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.planner.plan.ScanNode;
import io.cairn.store.cell.HeapRowCursor;
import io.cairn.store.coprocessor.ProgramScanner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;

/**
 * A scan of a table that the statement's transaction has written to: the store's rows at the
 * transaction's read point, with the transaction's uncommitted writes laid over them by key (a
 * written key's store row is replaced by the write, or hidden by a delete), run through the scan's
 * own program in the driver, so that filters, projections, aggregates, sorts, offsets and limits
 * see exactly the rows the transaction would commit (TiDB's union scan). The store still does the
 * reading and the decoding; what cannot be pushed to it is the program, since the store does not
 * know the writes. One request in the caller's thread: a transaction's reads of the tables it wrote
 * are not split into parallel chunks.
 */
final class OverlayScan {
  private OverlayScan() {}

  /** Opens the scan of {@code node} over {@code kv} at {@code ctx}'s read point and writes. */
  static RowScanner open(ScanNode node, KvTable kv, ExecContext ctx) {
    return open(node, kv, ctx, null, null);
  }

  /**
   * As {@link #open(ScanNode, KvTable, ExecContext)}, the program probing {@code probe} (null:
   * none) in the table {@code lookup} finds: a broadcast join probed in the driver ({@link
   * BroadcastJoin}).
   */
  static RowScanner open(
      ScanNode node, KvTable kv, ExecContext ctx, HashProbe probe, HashCacheLookup lookup) {
    TableDescriptor table = node.table();
    ScanLayout layout = ScanLayout.singleOf(node, kv, ctx.eval());
    List<KeyRange> ranges = layout.units().get(0).ranges();
    int width = table.columns().size();
    List<Expr> all = new ArrayList<>(table.columnRefs());
    if (table.hiddenRowId()) {
      // the row key of a table without a primary key (see the planner's DELETE)
      all.add(new Expr.ColumnRef(width, DataType.VARBINARY.withNullable(false)));
    }
    ScanProgram raw = new ScanProgram(table.layout(), Optional.empty(), all, ScanProgram.NO_LIMIT);
    NavigableMap<Bytes, Mutation> writes = ctx.pending().of(table.kvTableName());
    RowScanner base =
        kv.scan(new ScanRequest(ranges, raw, ctx.eval(), node.cacheBlocks(), ctx.readPoint()));
    try {
      MergedRows rows = new MergedRows(base, within(writes, ranges), table);
      ScanProgram program = layout.program(node);
      if (probe != null) {
        program = program.withProbe(Optional.of(probe));
      }
      return new ProgramScanner(
          rows, program, ctx.eval(), ctx.aggregateMaxBytes(), ctx.memory(), false, lookup);
    } catch (RuntimeException e) {
      base.close();
      throw e;
    }
  }

  /** The writes whose keys fall in {@code ranges} (sorted, not overlapping), in key order. */
  private static List<Mutation> within(
      NavigableMap<Bytes, Mutation> writes, List<KeyRange> ranges) {
    List<Mutation> out = new ArrayList<>();
    for (KeyRange r : ranges) {
      NavigableMap<Bytes, Mutation> from =
          r.start().isEmpty() ? writes : writes.tailMap(r.start(), true);
      NavigableMap<Bytes, Mutation> part =
          r.stop().isEmpty() ? from : from.headMap(r.stop(), false);
      out.addAll(part.values());
    }
    return out;
  }

  /**
   * The store's rows (decoded, then encoded again) merged with the writes by key, as a row cursor
   * for the program.
   */
  private static final class MergedRows extends HeapRowCursor {
    private final RowScanner base;
    private final Iterator<Mutation> writes;
    private final RowCodec codec;
    private final boolean hiddenRowId;
    private Map.Entry<Bytes, Bytes> stored; // the next store row not yet emitted, or null at end
    private boolean storedDone;
    private Mutation write; // the next write not yet emitted
    private boolean closed;

    MergedRows(RowScanner base, List<Mutation> writes, TableDescriptor table) {
      this.base = base;
      this.writes = writes.iterator();
      this.codec = new RowCodec(table.layout());
      this.hiddenRowId = table.hiddenRowId();
      this.write = this.writes.hasNext() ? this.writes.next() : null;
    }

    private void fillStored() {
      if (stored != null || storedDone) {
        return;
      }
      Object[] row = base.next();
      if (row == null) {
        storedDone = true;
        return;
      }
      Bytes k;
      if (hiddenRowId) {
        // the row key comes last, after the columns (see open)
        k = Bytes.copyOf((byte[]) row[row.length - 1]);
        row = Arrays.copyOf(row, row.length - 1);
      } else {
        k = codec.encodeKey(row);
      }
      stored = Map.entry(k, codec.encodeValue(row));
    }

    @Override
    public boolean next() {
      while (!closed) {
        fillStored();
        int c;
        if (stored == null && write == null) {
          return false;
        } else if (stored == null) {
          c = 1;
        } else if (write == null) {
          c = -1;
        } else {
          c = stored.getKey().compareTo(write.key());
        }
        if (c < 0) {
          setCurrent(stored.getKey(), stored.getValue());
          stored = null;
          return true;
        }
        if (c == 0) {
          stored = null; // the transaction's write replaces the store's row
        }
        Mutation m = write;
        write = writes.hasNext() ? writes.next() : null;
        if (m instanceof Mutation.Put put) {
          setCurrent(put.key(), put.value());
          return true;
        }
      }
      return false;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        base.close();
      }
    }
  }
}
