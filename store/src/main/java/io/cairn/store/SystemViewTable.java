package io.cairn.store;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableStatistics;
import io.cairn.store.cell.HeapRowCursor;
import io.cairn.store.coprocessor.ProgramScanner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * A system view ({@link io.cairn.core.catalog.SystemViews}) served as a read-only KV table: its
 * rows are computed at each scan, encoded with the view's layout and run through the scan program
 * like any table's, so that SQL filters, projections and aggregates work on them. Public for other
 * stores' views (the HBase store's SYSTEM.STATS).
 */
public final class SystemViewTable implements KvTable {
  private final TableDescriptor view;
  private final Supplier<List<Object[]>> rows;

  /**
   * @param rows computes the view's rows (values in the view's column order) when scanned
   */
  public SystemViewTable(TableDescriptor view, Supplier<List<Object[]>> rows) {
    this.view = requireNonNull(view, "view is null");
    this.rows = requireNonNull(rows, "rows is null");
  }

  @Override
  public String name() {
    return view.kvTableName();
  }

  @Override
  public void mutate(List<Mutation> batch, Durability durability) {
    throw readOnly("written");
  }

  @Override
  public RowScanner scan(ScanRequest request) {
    RowCodec codec = new RowCodec(view.layout());
    List<Bytes[]> encoded = new ArrayList<>();
    for (Object[] row : rows.get()) {
      Bytes key = codec.encodeKey(row);
      if (inRanges(key, request.ranges())) {
        encoded.add(new Bytes[] {key, codec.encodeValue(row)});
      }
    }
    encoded.sort(Comparator.comparing(kv -> kv[0]));
    return new ProgramScanner(new ListCursor(encoded), request.program(), request.context());
  }

  private static boolean inRanges(Bytes key, List<KeyRange> ranges) {
    for (KeyRange r : ranges) {
      if (r.contains(key)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long approximateRowCount() {
    return rows.get().size();
  }

  @Override
  public long allocateIds(long count) {
    throw readOnly("written");
  }

  @Override
  public void alter(java.util.Map<String, String> options) {
    throw readOnly("altered");
  }

  @Override
  public List<RegionInfo> regions() {
    return List.of();
  }

  /** One chunk over all keys, counts unknown: a view's rows are computed when scanned. */
  @Override
  public TableStatistics statistics() {
    return new TableStatistics(
        -1, List.of(new TableStatistics.Chunk(0, Bytes.EMPTY, Bytes.EMPTY, -1, -1)), 0);
  }

  private CairnException readOnly(String what) {
    return new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "[" + view.qualifiedName() + "] is a read-only system view: it cannot be " + what);
  }

  /** Rows from a sorted list of encoded (key, value) pairs. */
  private static final class ListCursor extends HeapRowCursor {
    private final List<Bytes[]> rows;
    private int index = -1;

    ListCursor(List<Bytes[]> rows) {
      this.rows = rows;
    }

    @Override
    public boolean next() {
      if (index + 1 >= rows.size()) {
        index = rows.size();
        return false;
      }
      index++;
      setCurrent(rows.get(index)[0], rows.get(index)[1]);
      return true;
    }

    @Override
    public void close() {
      index = rows.size();
    }
  }
}
