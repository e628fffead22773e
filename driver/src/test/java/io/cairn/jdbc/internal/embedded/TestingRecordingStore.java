package io.cairn.jdbc.internal.embedded;

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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An in-memory store that records what the driver asks of it: table specs, option changes, flushes,
 * compactions, the durability of each batch and whether it was closed.
 */
final class TestingRecordingStore implements KvStore {
  /** One call on a table, e.g. {@code T1 flush} or {@code T1 mutate SYNC}. */
  final List<String> calls = Collections.synchronizedList(new ArrayList<>());

  final Map<String, TableSpec> specs = Collections.synchronizedMap(new TreeMap<>());
  int closes;

  /**
   * How many of the next batches with an UNCHANGED_SINCE condition fail as if another commit had
   * changed their first conditional row since its read point (nothing of them is applied).
   */
  final java.util.concurrent.atomic.AtomicInteger conflicts =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Runs at each conflict {@link #conflicts} makes, before it is thrown. */
  volatile Runnable onConflict = () -> {};

  private final KvStore delegate;

  TestingRecordingStore(String name) {
    this.delegate = Stores.inMemory(name);
  }

  @Override
  public KvTable createTable(String name, TableSpec spec) {
    specs.put(name, spec);
    return new RecordingTable(delegate.createTable(name, spec));
  }

  @Override
  public io.cairn.kv.KvSnapshot openSnapshot() {
    return delegate.openSnapshot();
  }

  @Override
  public Optional<KvTable> table(String name) {
    return delegate.table(name).map(RecordingTable::new);
  }

  @Override
  public void dropTable(String name) {
    delegate.dropTable(name);
  }

  @Override
  public void close() {
    closes++;
    delegate.close();
  }

  /** Lets the in-memory store behind it name its tables (SYSTEM.STATS, SYSTEM.INDEXES). */
  void useSqlNames(
      java.util.function.Supplier<
              ? extends java.util.Collection<io.cairn.core.catalog.TableDescriptor>>
          sqlTables) {
    Stores.useSqlNames(delegate, sqlTables);
  }

  /** The calls on one KV table, without the table name. */
  List<String> callsOn(String kvTable) {
    List<String> result = new ArrayList<>();
    synchronized (calls) {
      for (String call : calls) {
        if (call.startsWith(kvTable + " ")) {
          result.add(call.substring(kvTable.length() + 1));
        }
      }
    }
    return result;
  }

  private final class RecordingTable implements KvTable {
    private final KvTable table;

    RecordingTable(KvTable table) {
      this.table = table;
    }

    @Override
    public String name() {
      return table.name();
    }

    @Override
    public void mutate(List<Mutation> batch, Durability durability) {
      calls.add(table.name() + " mutate " + durability);
      for (int i = 0; i < batch.size(); i++) {
        Mutation m = batch.get(i);
        if (m.condition().kind() == Mutation.Condition.Kind.UNCHANGED_SINCE) {
          if (conflicts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            onConflict.run();
            throw new io.cairn.kv.ConditionFailedException(
                0, i, m.key(), Mutation.Condition.Kind.UNCHANGED_SINCE);
          }
          break;
        }
      }
      table.mutate(batch, durability);
    }

    @Override
    public RowScanner scan(ScanRequest request) {
      return table.scan(request);
    }

    @Override
    public long approximateRowCount() {
      return table.approximateRowCount();
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
      calls.add(table.name() + " alter " + new TreeMap<>(options));
      table.alter(options);
    }

    @Override
    public void flush() {
      calls.add(table.name() + " flush");
      table.flush();
    }

    @Override
    public void compact(boolean major) {
      calls.add(table.name() + (major ? " compact major" : " compact minor"));
      table.compact(major);
    }

    @Override
    public List<RegionInfo> regions() {
      return table.regions();
    }

    @Override
    public io.cairn.kv.TableStatistics statistics() {
      return table.statistics();
    }

    /** Recorded, e.g. {@code T1 defineIndexes [3 building, 5 readable]}; no entries are kept. */
    @Override
    public void defineIndexes(
        io.cairn.core.encoding.RowLayout layout, List<io.cairn.kv.IndexSpec> indexes) {
      List<String> specs = new ArrayList<>();
      for (io.cairn.kv.IndexSpec spec : indexes) {
        specs.add(spec.indexId() + (spec.readable() ? " readable" : " building"));
      }
      calls.add(table.name() + " defineIndexes " + specs);
    }

    @Override
    public long buildIndex(int indexId, java.util.function.LongConsumer progress) {
      calls.add(table.name() + " buildIndex " + indexId);
      return 0;
    }

    @Override
    public io.cairn.kv.IndexCheck verifyIndex(int indexId) {
      calls.add(table.name() + " verifyIndex " + indexId);
      return new io.cairn.kv.IndexCheck(0, 0, 0, 0, List.of());
    }
  }
}
