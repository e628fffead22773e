package io.cairn.store;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import io.cairn.kv.TableStatistics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;

/**
 * A hand-written fake for catalog tests: a real store whose tables record the index calls the
 * catalog makes ({@link KvTable#defineIndexes}, {@link KvTable#buildIndex}, {@link
 * KvTable#verifyIndex}) and answer them as a test says (a build that waits, fails, or writes a
 * number of entries), so that the catalog's side is tested apart from the store's index code.
 */
final class IndexRecordingStore implements KvStore {
  /** What a build does: returns the entries written, or throws. */
  interface Build {
    long run(String table, int indexId, LongConsumer progress);
  }

  /** One defineIndexes call. */
  record Definition(String table, List<IndexSpec> indexes) {}

  private final KvStore store;
  final List<Definition> definitions = new CopyOnWriteArrayList<>();
  final Map<String, List<IndexSpec>> defined = new ConcurrentHashMap<>();
  volatile Build build = (table, id, progress) -> 0;
  volatile boolean refuseIndexes;

  IndexRecordingStore(KvStore store) {
    this.store = store;
  }

  @Override
  public KvTable createTable(String name, TableSpec spec) {
    return new Table(store.createTable(name, spec));
  }

  @Override
  public Optional<KvTable> table(String name) {
    return store.table(name).map(Table::new);
  }

  @Override
  public KvSnapshot openSnapshot() {
    return store.openSnapshot();
  }

  @Override
  public void dropTable(String name) {
    store.dropTable(name);
  }

  @Override
  public void close() {
    store.close();
  }

  private final class Table implements KvTable {
    private final KvTable table;

    Table(KvTable table) {
      this.table = table;
    }

    @Override
    public String name() {
      return table.name();
    }

    @Override
    public void mutate(List<Mutation> batch, Durability durability) {
      table.mutate(batch, durability);
    }

    @Override
    public RowScanner scan(ScanRequest request) {
      return table.scan(request);
    }

    @Override
    public long allocateIds(long count) {
      return table.allocateIds(count);
    }

    @Override
    public Map<String, String> options() {
      return table.options();
    }

    @Override
    public void alter(Map<String, String> options) {
      table.alter(options);
    }

    @Override
    public void flush() {
      table.flush();
    }

    @Override
    public List<RegionInfo> regions() {
      return table.regions();
    }

    @Override
    public TableStatistics statistics() {
      return table.statistics();
    }

    @Override
    public void defineIndexes(RowLayout layout, List<IndexSpec> indexes) {
      if (refuseIndexes && !indexes.isEmpty()) {
        throw new CairnException(ErrorCode.NOT_SUPPORTED, "refused by the test");
      }
      definitions.add(new Definition(name(), List.copyOf(indexes)));
      defined.put(name(), List.copyOf(indexes));
    }

    @Override
    public long buildIndex(int indexId, LongConsumer progress) {
      return build.run(name(), indexId, progress);
    }

    @Override
    public IndexCheck verifyIndex(int indexId) {
      return new IndexCheck(indexId, indexId, 0, 0, List.of());
    }
  }
}
