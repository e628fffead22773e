package io.cairn.server.rpc;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory store whose scans of user tables wait at a gate before each row while the gate is
 * closed: a scan that runs as long as a test wants, stopped only by opening the gate or by closing
 * the scanner from another thread (a cancel), which it notices within a few milliseconds.
 */
final class TestingGatedStore implements KvStore {
  private final KvStore delegate;
  private volatile boolean gateClosed;
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger open = new AtomicInteger();

  TestingGatedStore(String name) {
    this.delegate = Stores.inMemory(name);
  }

  /** An opener of gated in-memory stores, recording each in {@code stores}. */
  static Databases.StoreOpener opener(List<TestingGatedStore> stores) {
    return (name, dir, settings) -> {
      TestingGatedStore store = new TestingGatedStore(name);
      synchronized (stores) {
        stores.add(store);
      }
      return store;
    };
  }

  void closeGate() {
    gateClosed = true;
  }

  void openGate() {
    gateClosed = false;
  }

  /** Scans waiting at the gate now. */
  int waiting() {
    return waiting.get();
  }

  /** Scanners of user tables not closed yet. */
  int openScanners() {
    return open.get();
  }

  @Override
  public KvTable createTable(String name, TableSpec spec) {
    return wrap(delegate.createTable(name, spec));
  }

  @Override
  public io.cairn.kv.KvSnapshot openSnapshot() {
    return delegate.openSnapshot();
  }

  @Override
  public Optional<KvTable> table(String name) {
    return delegate.table(name).map(this::wrap);
  }

  private KvTable wrap(KvTable table) {
    return table.name().equals(Catalog.CATALOG_TABLE) ? table : new GatedTable(table);
  }

  @Override
  public void mutate(List<TableBatch> batches, Durability durability) {
    List<TableBatch> unwrapped = new ArrayList<>();
    for (TableBatch b : batches) {
      KvTable t = b.table() instanceof GatedTable g ? g.delegate : b.table();
      unwrapped.add(new TableBatch(t, b.mutations()));
    }
    delegate.mutate(unwrapped, durability);
  }

  @Override
  public void dropTable(String name) {
    delegate.dropTable(name);
  }

  @Override
  public void close() {
    delegate.close();
  }

  private final class GatedTable implements KvTable {
    final KvTable delegate;

    GatedTable(KvTable delegate) {
      this.delegate = delegate;
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public void mutate(List<Mutation> batch, Durability durability) {
      delegate.mutate(batch, durability);
    }

    @Override
    public RowScanner scan(ScanRequest request) {
      RowScanner rows = delegate.scan(request);
      open.incrementAndGet();
      return new RowScanner() {
        private volatile boolean closed;

        @Override
        public Object[] next() {
          if (gateClosed) {
            waiting.incrementAndGet();
            try {
              while (gateClosed && !closed) {
                TestingAwait.sleep(2);
              }
            } finally {
              waiting.decrementAndGet();
            }
          }
          if (closed) {
            throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner was closed during the scan");
          }
          return rows.next();
        }

        @Override
        public synchronized void close() {
          if (!closed) {
            closed = true;
            open.decrementAndGet();
            rows.close();
          }
        }
      };
    }

    @Override
    public long allocateIds(long count) {
      return delegate.allocateIds(count);
    }

    @Override
    public Map<String, String> options() {
      return delegate.options();
    }

    @Override
    public List<RegionInfo> regions() {
      return delegate.regions();
    }
  }
}
