package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.hbase.server.CairnRegionObserver;
import io.cairn.hbase.server.ProgramRegionScanner;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.SortKey;
import io.cairn.kv.TableSpec;
import io.cairn.kv.TableStatistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The KV SPI over HBase: tables, batches, conditions, scan programs, ids and regions. */
@ExtendWith(MiniHBase.class)
class TestHBaseKvStore {
  /** K BIGINT primary key, V INTEGER. */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.INTEGER)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);
  private static final Expr K = new Expr.ColumnRef(0, DataType.BIGINT);
  private static final Expr V = new Expr.ColumnRef(1, DataType.INTEGER);
  private static final AtomicInteger TABLES = new AtomicInteger();

  private HBaseKvStore store;

  @BeforeEach
  void open(HBaseTestingUtility hbase) {
    store = HBaseKvStore.open(hbase.getConfiguration(), "cairn_test");
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void tablesAreCreatedFoundAndDroppedByTheirCairnNames(HBaseTestingUtility hbase) {
    String name = "db.T x/" + TABLES.incrementAndGet(); // characters HBase does not take
    KvTable table = store.createTable(name);
    assertThat(table.name()).isEqualTo(name);
    assertThat(store.table(name)).containsSame(table);
    assertThat(store.table(name + "y")).isEmpty();
    assertThatThrownBy(() -> store.createTable(name))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_ALREADY_EXISTS));
    table.mutate(List.of(put(1, 10)));
    try (HBaseKvStore other = HBaseKvStore.open(hbase.getConfiguration(), "cairn_test")) {
      KvTable seen = other.table(name).orElseThrow();
      assertThat(rows(seen, scan(KeyRange.ALL, Optional.empty()))).containsExactly(row(1, 10));
    }
    store.dropTable(name);
    store.dropTable(name); // nothing to drop
    assertThat(store.table(name)).isEmpty();
    assertThatThrownBy(() -> table.mutate(List.of(put(2, 20))))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
    KvTable again = store.createTable(name);
    assertThat(rows(again, scan(KeyRange.ALL, Optional.empty()))).isEmpty();
    store.dropTable(name);
  }

  /**
   * A scan that finds its one row at the end of a long region answers in slices of time (1 ms in
   * these tests' region server, {@link ProgramRegionScanner#PAGE_MILLIS}), most of them without a
   * row, between which HBase checks the RPC's time limit and sends the client heartbeats; the
   * answer is whole all the same, and so is a count.
   */
  @Test
  void aLongSelectiveScanAnswersInSlicesOfTime() {
    KvTable table = store.createTable(newName());
    for (long from = 0; from < 60_000; from += 10_000) {
      List<Mutation> batch = new ArrayList<>();
      for (long k = from; k < from + 10_000; k++) {
        batch.add(put(k, (int) (k % 1000)));
      }
      table.mutate(batch);
    }
    long before = ProgramRegionScanner.emptyAnswers();
    Expr lastRow =
        new Expr.Call(Op.EQUALS, List.of(K, new Expr.Literal(59_999L, bigint())), DataType.BOOLEAN);
    assertThat(rows(table, scan(KeyRange.ALL, Optional.of(lastRow))))
        .containsExactly(row(59_999, 999));
    assertThat(ProgramRegionScanner.emptyAnswers() - before)
        .as("answers without rows")
        .isPositive();
    assertThat(table.updateStatistics().rows()).isEqualTo(60_000);
  }

  @Test
  void programsFilterProjectAndAggregateTheRowsOfTheirRanges() {
    KvTable table = store.createTable(newName());
    List<Mutation> batch = new ArrayList<>();
    for (long k = 100; k > 0; k--) { // out of key order: HBase sorts
      batch.add(put(k, (int) (k % 10)));
    }
    table.mutate(batch);

    List<List<Object>> all = rows(table, scan(KeyRange.ALL, Optional.empty()));
    assertThat(all).hasSize(100);
    assertThat(all.get(0)).isEqualTo(row(1, 1));
    assertThat(all.get(99)).isEqualTo(row(100, 0));

    KeyRange tens = new KeyRange(key(10), key(20));
    Expr sevens = new Expr.Call(Op.EQUALS, List.of(V, literal(7)), DataType.BOOLEAN);
    assertThat(rows(table, scan(tens, Optional.of(sevens)))).containsExactly(row(17, 7));

    AggregateCall count = new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, bigint());
    AggregateCall sum = new AggregateCall(AggregateKind.SUM, List.of(1), false, bigint());
    ScanRequest totals =
        new ScanRequest(
            List.of(new KeyRange(key(1), key(51))),
            new ScanProgram(LAYOUT, Optional.empty(), List.of(K, V), -1, List.of(count, sum)),
            EvalContext.EMPTY,
            true);
    List<List<Object>> partial = rows(table, totals);
    assertThat(partial).hasSize(1);
    assertThat(partial.get(0)).containsExactly(50L, 225L); // five of each digit 0..9 in 1..50
  }

  @Test
  void programsWhoseRegionsMakeTheWholeRunInTheRegionServers() {
    KvTable table =
        store.createTable(newName(), new TableSpec(Map.of(), List.of(key(100), key(200))));
    List<Mutation> batch = new ArrayList<>();
    for (long k = 1; k <= 300; k++) {
      batch.add(put(k, (int) (k % 10)));
    }
    table.mutate(batch);
    assertThat(table.regions()).hasSize(3);

    long before = CairnRegionObserver.programsStarted();
    Expr sevens = new Expr.Call(Op.EQUALS, List.of(V, literal(7)), DataType.BOOLEAN);
    List<List<Object>> kept = rows(table, scan(KeyRange.ALL, Optional.of(sevens)));
    assertThat(kept).hasSize(30).allMatch(r -> r.get(1).equals(7));
    assertThat(kept.get(0)).isEqualTo(row(7, 7));
    assertThat(kept.get(29)).isEqualTo(row(297, 7));
    assertThat(CairnRegionObserver.programsStarted() - before).as("one per region").isEqualTo(3);

    ScanRequest five =
        new ScanRequest(
            List.of(new KeyRange(key(98), key(250))),
            new ScanProgram(LAYOUT, Optional.empty(), List.of(K, V), 5),
            EvalContext.EMPTY,
            true);
    assertThat(rows(table, five))
        .containsExactly(row(98, 8), row(99, 9), row(100, 0), row(101, 1), row(102, 2));

    AggregateCall count = new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, bigint());
    AggregateCall sum = new AggregateCall(AggregateKind.SUM, List.of(1), false, bigint());
    ScanRequest totals =
        new ScanRequest(
            List.of(KeyRange.ALL),
            new ScanProgram(
                LAYOUT, Optional.empty(), List.of(K, V), ScanProgram.NO_LIMIT, List.of(count, sum)),
            EvalContext.EMPTY,
            true);
    assertThat(rows(table, totals)).containsExactly(Arrays.asList(300L, 1350L));
    ScanRequest none =
        new ScanRequest(
            List.of(new KeyRange(key(400), key(500))), totals.program(), EvalContext.EMPTY, true);
    assertThat(rows(table, none)).containsExactly(Arrays.asList(0L, null));

    // GROUP BY V: each region answers its groups; the driver merges a group's pieces
    ScanRequest byDigit =
        new ScanRequest(
            List.of(KeyRange.ALL),
            new ScanProgram(
                LAYOUT,
                Optional.empty(),
                List.of(V),
                ScanProgram.NO_LIMIT,
                0,
                List.of(0),
                List.of(count),
                List.of()),
            EvalContext.EMPTY,
            true);
    Map<Object, Long> counts = new java.util.TreeMap<>();
    for (List<Object> group : rows(table, byDigit)) {
      counts.merge(group.get(0), (Long) group.get(1), Long::sum);
    }
    assertThat(counts).hasSize(10).allSatisfy((digit, n) -> assertThat(n).isEqualTo(30L));

    // OFFSET: each region answers offset + limit rows, the client skips and cuts
    long before2 = CairnRegionObserver.programsStarted();
    assertThat(rows(table, sorted(new KeyRange(key(98), key(250)), List.of(), 5, 3)))
        .containsExactly(row(101, 1), row(102, 2), row(103, 3), row(104, 4), row(105, 5));
    // a top-N: each region its own top offset + limit, the client sorts those
    List<SortKey> byDigitThenKey =
        List.of(new SortKey(1, true, false), new SortKey(0, false, false));
    assertThat(rows(table, sorted(KeyRange.ALL, byDigitThenKey, 2, 1)))
        .containsExactly(row(19, 9), row(29, 9));
    assertThat(rows(table, sorted(new KeyRange(key(150), key(260)), byDigitThenKey, 3, 0)))
        .containsExactly(row(159, 9), row(169, 9), row(179, 9));
    // the top rows in the last region: the client's sort puts them first
    assertThat(rows(table, sorted(KeyRange.ALL, List.of(new SortKey(0, true, false)), 2, 1)))
        .containsExactly(row(299, 9), row(298, 8));
    assertThat(CairnRegionObserver.programsStarted() - before2).as("pushed").isPositive();
    // a whole sort (no LIMIT) stays in the client
    long whole = CairnRegionObserver.programsStarted();
    List<List<Object>> all =
        rows(table, sorted(KeyRange.ALL, byDigitThenKey, ScanProgram.NO_LIMIT, 0));
    assertThat(all).hasSize(300);
    assertThat(all.get(0)).isEqualTo(row(9, 9));
    assertThat(all.get(299)).isEqualTo(row(300, 0));
    assertThat(CairnRegionObserver.programsStarted()).isEqualTo(whole);
  }

  @Test
  void aProgramRefusesToResumeMidRegionOrToRunGarbage(HBaseTestingUtility hbase) throws Exception {
    String name = newName();
    KvTable table = store.createTable(name);
    table.mutate(List.of(put(1, 1), put(2, 2)));
    byte[] spec =
        io.cairn.protocol.wire.WireMessages.toProto(name, scan(KeyRange.ALL, Optional.empty()))
            .toByteArray();
    try (org.apache.hadoop.hbase.client.Connection c =
            org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(
                hbase.getConfiguration());
        org.apache.hadoop.hbase.client.Table t = c.getTable(HBaseNames.table("cairn_test", name))) {
      org.apache.hadoop.hbase.client.Scan resumed =
          new org.apache.hadoop.hbase.client.Scan()
              .withStartRow(key(1).toByteArray(), false) // as the client resumes after a failure
              .setAttribute(CairnRegionObserver.SCAN_ATTRIBUTE, spec);
      assertThatThrownBy(
              () -> {
                try (org.apache.hadoop.hbase.client.ResultScanner rs = t.getScanner(resumed)) {
                  rs.next();
                }
              })
          .hasStackTraceContaining("cannot resume in the middle of region");
      org.apache.hadoop.hbase.client.Scan garbage =
          new org.apache.hadoop.hbase.client.Scan()
              .setAttribute(CairnRegionObserver.SCAN_ATTRIBUTE, new byte[] {1, 2, 3});
      assertThatThrownBy(
              () -> {
                try (org.apache.hadoop.hbase.client.ResultScanner rs = t.getScanner(garbage)) {
                  rs.next();
                }
              })
          .hasStackTraceContaining("Not a valid Cairn scan");
      // a valid program with a join's hash table that is not one
      org.apache.hadoop.hbase.client.Scan badTable =
          new org.apache.hadoop.hbase.client.Scan()
              .setAttribute(CairnRegionObserver.SCAN_ATTRIBUTE, spec)
              .setAttribute(WireNames.HASH_ATTRIBUTE, new byte[] {1, 2, 3});
      assertThatThrownBy(
              () -> {
                try (org.apache.hadoop.hbase.client.ResultScanner rs = t.getScanner(badTable)) {
                  rs.next();
                }
              })
          .hasStackTraceContaining("Not a valid Cairn hash table");
    }
  }

  @Test
  void aRegionSplitDuringAPushedScanGivesTheWholeAnswerOrAClearError(HBaseTestingUtility hbase)
      throws Exception {
    String name = newName();
    KvTable table = store.createTable(name);
    int rows = 3 * io.cairn.hbase.server.ProgramRegionScanner.PAGE_ROWS;
    List<Mutation> batch = new ArrayList<>();
    for (long k = 1; k <= rows; k++) {
      batch.add(put(k, (int) (k % 10)));
    }
    table.mutate(batch);
    table.flush();
    TableName hbaseName = HBaseNames.table("cairn_test", name);
    List<List<Object>> read = new ArrayList<>();
    CairnException failed = null;
    try (RowScanner scanner = table.scan(scan(KeyRange.ALL, Optional.empty()))) {
      read.add(Arrays.asList(scanner.next())); // the first page is in
      hbase.getAdmin().split(hbaseName, key(rows / 2).toByteArray());
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (hbase.getAdmin().getRegions(hbaseName).size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(hbase.getAdmin().getRegions(hbaseName)).as("regions after the split").hasSize(2);
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        read.add(Arrays.asList(row));
      }
    } catch (CairnException e) {
      failed = e;
    }
    if (failed != null) {
      assertThat(failed).hasStackTraceContaining("cannot resume in the middle of region");
    } else {
      assertThat(read).hasSize(rows);
      for (int i = 0; i < rows; i++) {
        assertThat(read.get(i)).isEqualTo(row(i + 1, (i + 1) % 10));
      }
    }
    assertThat(table.regions()).hasSize(2);
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty()))).hasSize(rows);
  }

  /**
   * Deletes hide their rows: HBase's family delete markers (a whole-row Delete, or one of the
   * family) hid nothing in a family with the new version behaviour (every row stayed); a delete of
   * the row's one column does.
   */
  @Test
  void deletedRowsAreGone() {
    KvTable table = store.createTable(newName());
    table.mutate(List.of(put(1, 1), put(2, 2), put(3, 3), put(4, 4)));
    table.mutate(List.of(new Mutation.Delete(key(2)), new Mutation.Delete(key(4))));
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty())))
        .containsExactly(row(1, 1), row(3, 3));
    table.mutate(List.of(new Mutation.Delete(key(1))));
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty()))).containsExactly(row(3, 3));
  }

  @Test
  void aPutRightAfterADeleteOfItsRowIsSeen() {
    // HBase's classic behaviour: a delete hides puts of its millisecond, even later ones
    KvTable table = store.createTable(newName());
    for (int i = 0; i < 40; i++) {
      table.mutate(List.of(put(1, i)));
      table.mutate(List.of(new Mutation.Delete(key(1))));
      table.mutate(List.of(put(1, i + 1000)));
      assertThat(rows(table, scan(KeyRange.ALL, Optional.empty())))
          .as("round %d", i)
          .containsExactly(row(1, i + 1000));
    }
  }

  /**
   * A delete is a tombstone (the row's cell with an empty value): reads skip it, an INSERT of the
   * key sees no row, a put right after it wins also once flushed, and a major compaction leaves it
   * out (the region observer), so no cell of a deleted row stays behind.
   */
  @Test
  void deletesAreTombstonesThatAMajorCompactionDrops(HBaseTestingUtility hbase) throws Exception {
    String name = newName();
    KvTable table = store.createTable(name);
    table.mutate(List.of(put(1, 1), put(2, 2), put(3, 3)));
    table.flush();
    table.mutate(List.of(new Mutation.Delete(key(1)), new Mutation.Delete(key(2))));
    table.mutate(List.of(put(2, 20))); // right after its delete, maybe in the same millisecond
    table.flush();
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty())))
        .containsExactly(row(2, 20), row(3, 3));
    table.mutate(List.of(insert(1, 10))); // the tombstone is no row
    table.mutate(List.of(new Mutation.Delete(key(3))));
    TableName hbaseName = HBaseNames.table("cairn_test", name);
    assertThat(cellsOf(hbase, hbaseName)).as("two rows and a tombstone").isEqualTo(3);

    table.flush(); // a third file: HBase may compact them all by itself, which drops it too
    table.compact(true);
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty())))
        .containsExactly(row(1, 10), row(2, 20));
    assertThat(cellsOf(hbase, hbaseName)).as("no tombstone after it").isEqualTo(2);
    assertThat(
            hbase
                .getAdmin()
                .getDescriptor(hbaseName)
                .getColumnFamily(HBaseKvStore.FAMILY)
                .isNewVersionBehavior())
        .isFalse();
  }

  /** The cells HBase holds for the table, as a plain (not a Cairn) scan reads them. */
  private static int cellsOf(HBaseTestingUtility hbase, TableName name) throws Exception {
    int cells = 0;
    try (org.apache.hadoop.hbase.client.Table t = hbase.getConnection().getTable(name);
        org.apache.hadoop.hbase.client.ResultScanner s =
            t.getScanner(new org.apache.hadoop.hbase.client.Scan())) {
      for (org.apache.hadoop.hbase.client.Result r : s) {
        cells += r.rawCells().length;
      }
    }
    return cells;
  }

  @Test
  void theLastMutationOfARowInABatchWins() {
    KvTable table = store.createTable(newName());
    table.mutate(
        List.of(
            put(1, 1),
            new Mutation.Delete(key(1)),
            put(1, 3),
            put(2, 2),
            new Mutation.Delete(key(2)),
            put(3, 3)));
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty())))
        .containsExactly(row(1, 3), row(3, 3));
  }

  @Test
  void aRowThatMustNotExistIsCheckedAtomicallyAndOnlyAlone() {
    KvTable table = store.createTable(newName());
    table.mutate(List.of(insert(1, 1)));
    assertThatThrownBy(() -> table.mutate(List.of(insert(1, 2))))
        .isInstanceOfSatisfying(
            ConditionFailedException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.DUPLICATE_KEY);
              assertThat(e.key()).isEqualTo(key(1));
            });
    // several rows with conditions: each row on its own; the failure names the first failing
    // mutation and says that the other rows were written
    table.mutate(List.of(put(5, 5), insert(6, 6)));
    assertThatThrownBy(() -> table.mutate(List.of(insert(10, 10), insert(6, 7), insert(1, 2))))
        .isInstanceOfSatisfying(
            ConditionFailedException.class,
            e -> {
              assertThat(e.mutationIndex()).isEqualTo(1);
              assertThat(e.othersWritten()).isTrue();
              assertThat(e.getMessage()).contains("other rows were written");
            });
    table.mutate(List.of(new Mutation.Delete(key(5)), new Mutation.Delete(key(6))));
    table.mutate(List.of(new Mutation.Delete(key(10))));
    assertThatThrownBy(
            () ->
                table.mutate(
                    List.of(
                        new Mutation.Put(
                            key(7), value(7, 7), Mutation.Condition.unchangedSince(3)))))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED));
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty()))).containsExactly(row(1, 1));

    // racing inserts of one row: exactly one wins
    AtomicInteger won = new AtomicInteger();
    race(
        4,
        racer -> {
          try {
            table.mutate(List.of(insert(9, racer)));
            won.incrementAndGet();
          } catch (ConditionFailedException lost) {
            // another racer inserted it
          }
        });
    assertThat(won.get()).isEqualTo(1);
  }

  @Test
  void aRowWrittenOnConditionOfItsValueIsCheckedAtomically() {
    KvTable table = store.createTable(newName());
    table.mutate(List.of(put(1, 1), put(2, 2), put(3, 3)));
    table.mutate(List.of(new Mutation.Delete(key(3))));
    // what a read-modify-write reads: the stored values, tombstones and absent keys left out
    Map<Bytes, Bytes> latest = table.latestValues(List.of(key(1), key(2), key(3), key(4)));
    assertThat(latest).containsOnly(Map.entry(key(1), value(1, 1)), Map.entry(key(2), value(2, 2)));

    // the value read: written; another value: a conflict, nothing of that row written
    table.mutate(
        List.of(new Mutation.Put(key(1), value(1, 10), Mutation.Condition.valueIs(value(1, 1)))));
    assertThatThrownBy(
            () ->
                table.mutate(
                    List.of(
                        new Mutation.Put(
                            key(1), value(1, 11), Mutation.Condition.valueIs(value(1, 1))))))
        .isInstanceOfSatisfying(
            ConditionFailedException.class,
            e -> {
              assertThat(e.isConflict()).isTrue();
              assertThat(e.errorCode()).isEqualTo(ErrorCode.WRITE_CONFLICT);
              assertThat(e.kind()).isEqualTo(Mutation.Condition.Kind.VALUE_IS);
            });
    // no row expected: holds for a deleted row (a tombstone) and a key never written, not for a row
    table.mutate(List.of(new Mutation.Put(key(3), value(3, 30), Mutation.Condition.valueIs(null))));
    table.mutate(List.of(new Mutation.Put(key(4), value(4, 40), Mutation.Condition.valueIs(null))));
    assertThatThrownBy(
            () ->
                table.mutate(
                    List.of(new Mutation.Delete(key(2), Mutation.Condition.valueIs(null)))))
        .isInstanceOf(ConditionFailedException.class);
    table.mutate(List.of(new Mutation.Delete(key(2), Mutation.Condition.valueIs(value(2, 2)))));
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty())))
        .containsExactly(row(1, 10), row(3, 30), row(4, 40));

    // racing increments, each a read and a conditional write retried on conflict: none lost
    int threads = 4;
    int each = 25;
    race(
        threads,
        racer -> {
          for (int i = 0; i < each; i++) {
            while (true) {
              Bytes read = table.latestValues(List.of(key(4))).get(key(4));
              int n = (Integer) CODEC.decode(key(4), read)[1];
              try {
                table.mutate(
                    List.of(
                        new Mutation.Put(
                            key(4), value(4, n + 1), Mutation.Condition.valueIs(read))));
                break;
              } catch (ConditionFailedException conflict) {
                // another racer wrote it first: read again
              }
            }
          }
        });
    assertThat(rows(table, scan(KeyRange.point(key(4)), Optional.empty())))
        .containsExactly(row(4, 40 + threads * each));
  }

  @Test
  void idsAreConsecutiveAndNeverHandedOutTwice() throws Exception {
    KvTable table = store.createTable(newName());
    assertThat(table.allocateIds(10)).isEqualTo(1);
    assertThat(table.allocateIds(5)).isEqualTo(11);
    assertThatThrownBy(() -> table.allocateIds(0))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    Set<Long> firsts = new HashSet<>();
    try {
      List<Future<Long>> grants = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        grants.add(pool.submit(() -> table.allocateIds(3)));
      }
      for (Future<Long> g : grants) {
        firsts.add(g.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(firsts).hasSize(40);
    assertThat(firsts).allMatch(first -> first >= 16 && (first - 16) % 3 == 0);
  }

  @Test
  void regionsFollowTheSplitPointsAndReportTheirFiles() {
    KvTable table = store.createTable(newName(), new TableSpec(Map.of(), List.of(key(50))));
    List<Mutation> batch = new ArrayList<>();
    for (long k = 1; k <= 100; k++) {
      batch.add(put(k, 1));
    }
    table.mutate(batch);
    table.flush();
    List<RegionInfo> regions = table.regions();
    assertThat(regions)
        .extracting(RegionInfo::range)
        .containsExactly(new KeyRange(Bytes.EMPTY, key(50)), new KeyRange(key(50), Bytes.EMPTY));
    assertThat(regions).allMatch(r -> r.fileBytes() > 0 && r.fileCount() == 1);
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty()))).hasSize(100);

    // a second file in each region; MAJOR_COMPACT returns once HBase has merged them (HBase's own
    // call returns when the request is queued)
    table.mutate(batch);
    table.flush();
    assertThat(table.regions()).allMatch(r -> r.fileCount() == 2);
    table.compact(true);
    assertThat(table.regions()).allMatch(r -> r.fileCount() == 1);
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty()))).hasSize(100);
  }

  /**
   * UPDATE STATISTICS cuts each region into chunks at guide posts (GUIDE_POSTS_WIDTH bytes of rows)
   * counted in the region servers: the chunks cover the table in key order, each region's chunks
   * its own range, and each chunk holds exactly the rows a scan of its range finds. Another client
   * reads them back from HBase; a region split since has one chunk of unknown rows.
   */
  @Test
  void guidePostsCutEachRegionIntoChunks(HBaseTestingUtility hbase) throws Exception {
    String name = newName();
    KvTable table =
        store.createTable(
            name, new TableSpec(Map.of("GUIDE_POSTS_WIDTH", "20000"), List.of(key(6_000))));
    for (long from = 0; from < 10_000; from += 5_000) {
      List<Mutation> batch = new ArrayList<>();
      for (long k = from; k < from + 5_000; k++) {
        batch.add(put(k, (int) k));
      }
      table.mutate(batch);
    }
    TableStatistics stats = table.updateStatistics();
    List<TableStatistics.Chunk> chunks = stats.chunks();
    assertThat(stats.guidePostWidth()).isEqualTo(20_000);
    assertThat(chunks.size()).as("chunks of about 20,000 bytes").isBetween(4, 100);
    assertThat(stats.rows()).isEqualTo(10_000);
    assertThat(chunks.get(0).start()).isEqualTo(Bytes.EMPTY);
    assertThat(chunks.get(chunks.size() - 1).stop()).isEqualTo(Bytes.EMPTY);
    assertThat(chunks).anyMatch(c -> c.stop().equals(key(6_000))); // the region boundary
    for (int i = 0; i < chunks.size(); i++) {
      TableStatistics.Chunk c = chunks.get(i);
      if (i > 0) {
        assertThat(c.start()).isEqualTo(chunks.get(i - 1).stop());
      }
      assertThat(c.bytes()).isPositive();
      assertThat((long) rows(table, scan(c.range(), Optional.empty())).size())
          .as("rows of chunk %s", i)
          .isEqualTo(c.rows());
    }

    try (KvStore other = HBaseKvStore.open(hbase.getConfiguration(), "cairn_test")) {
      KvTable again = other.table(name).orElseThrow();
      assertThat(again.statistics().chunks()).isEqualTo(chunks);
      assertThat(again.approximateRowCount()).isEqualTo(10_000);
    }

    TableName hbaseName = HBaseNames.table("cairn_test", name);
    hbase.getAdmin().split(hbaseName, key(3_000).toByteArray());
    hbase.waitFor(60_000, () -> hbase.getAdmin().getRegions(hbaseName).size() == 3);
    List<TableStatistics.Chunk> after = table.statistics().chunks();
    assertThat(after).filteredOn(c -> c.rows() < 0).hasSize(2); // the split region's daughters
    assertThat(
            after.stream().filter(c -> c.rows() >= 0).mapToLong(TableStatistics.Chunk::rows).sum())
        .isEqualTo(4_000); // the region from 6,000 on kept its chunks
  }

  /**
   * Before the first UPDATE STATISTICS a table's rows are estimated from its regions' bytes and a
   * sample of its cells (the planner needs relative sizes to order joins); after it, they are the
   * counted rows.
   */
  @Test
  void rowCountsAreEstimatedBeforeTheFirstUpdateStatistics(HBaseTestingUtility hbase)
      throws Exception {
    String name = newName();
    KvTable table = store.createTable(name);
    assertThat(table.approximateRowCount()).as("an empty table").isEqualTo(-1);
    for (long from = 0; from < 20_000; from += 5_000) {
      List<Mutation> batch = new ArrayList<>();
      for (long k = from; k < from + 5_000; k++) {
        batch.add(put(k, (int) k));
      }
      table.mutate(batch);
    }
    table.flush();
    try (KvStore other = HBaseKvStore.open(hbase.getConfiguration(), "cairn_test")) {
      assertThat(other.table(name).orElseThrow().approximateRowCount())
          .as("estimated")
          .isBetween(5_000L, 80_000L);
    }
    table.updateStatistics();
    assertThat(table.approximateRowCount()).isEqualTo(20_000);
  }

  @Test
  void tableOptionsBecomeHBaseSettingsAndTakeEffect(HBaseTestingUtility hbase) throws Exception {
    String name = newName();
    KvTable table =
        store.createTable(
            name,
            new TableSpec(
                Map.of(
                    "compression", "gzip",
                    "DATA_BLOCK_ENCODING", "FAST_DIFF",
                    "BLOOMFILTER", "ROW",
                    "BLOCKSIZE", "16384",
                    "IN_MEMORY", "TRUE",
                    "DURABILITY", "ASYNC",
                    "TTL", "2"),
                List.of()));
    assertThat(table.options())
        .containsEntry("COMPRESSION", "GZIP")
        .containsEntry("DATA_BLOCK_ENCODING", "FAST_DIFF")
        .containsEntry("TTL", "2")
        .hasSize(7);
    org.apache.hadoop.hbase.client.TableDescriptor descriptor =
        hbase.getAdmin().getDescriptor(HBaseNames.table("cairn_test", name));
    org.apache.hadoop.hbase.client.ColumnFamilyDescriptor family =
        descriptor.getColumnFamily(HBaseKvStore.FAMILY);
    assertThat(family.getCompressionType())
        .isEqualTo(org.apache.hadoop.hbase.io.compress.Compression.Algorithm.GZ);
    assertThat(family.getDataBlockEncoding())
        .isEqualTo(org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.FAST_DIFF);
    assertThat(family.getBloomFilterType())
        .isEqualTo(org.apache.hadoop.hbase.regionserver.BloomType.ROW);
    assertThat(family.getBlocksize()).isEqualTo(16384);
    assertThat(family.isInMemory()).isTrue();
    assertThat(family.getTimeToLive()).isEqualTo(2);
    assertThat(family.isNewVersionBehavior()).isFalse(); // deletes are tombstones
    assertThat(descriptor.getDurability())
        .isEqualTo(org.apache.hadoop.hbase.client.Durability.ASYNC_WAL);

    // the data goes through gzip'd FAST_DIFF files, and rows older than the TTL are gone
    table.mutate(List.of(put(1, 1), put(2, 2)));
    table.flush();
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty()))).hasSize(2);
    Thread.sleep(3_000);
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty()))).isEmpty();

    table.alter(Map.of("BLOCKSIZE", "65536", "TTL", "3600"));
    assertThat(table.options()).containsEntry("BLOCKSIZE", "65536").containsEntry("TTL", "3600");
    assertThat(
            hbase
                .getAdmin()
                .getDescriptor(HBaseNames.table("cairn_test", name))
                .getColumnFamily(HBaseKvStore.FAMILY)
                .getTimeToLive())
        .isEqualTo(3600);
    table.mutate(List.of(put(3, 3)));
    // a longer TTL shows again the expired rows not yet purged, as Cairn's own store does
    assertThat(rows(table, scan(KeyRange.ALL, Optional.empty())))
        .containsExactly(row(1, 1), row(2, 2), row(3, 3));

    for (Map<String, String> refused :
        List.of(Map.of("COMPRESSION", "LZ4"), Map.of("COMPRESSION", "SNAPPY"))) {
      assertThatThrownBy(() -> table.alter(refused))
          .as("%s", refused)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED));
    }
    assertThatThrownBy(() -> table.alter(Map.of("NO_SUCH", "1")))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN_TABLE_OPTION));
  }

  @Test
  void aCallHBaseNeverAnswersEndsAfterTwiceTheOperationTimeout(HBaseTestingUtility hbase) {
    org.apache.hadoop.conf.Configuration conf =
        new org.apache.hadoop.conf.Configuration(hbase.getConfiguration());
    conf.setLong(HBaseStoreProvider.OPERATION_TIMEOUT, 1_000);
    HBaseKvStore bounded = HBaseKvStore.open(conf, "cairn_test");
    try {
      // as HBase's client waits for a master procedure of a cluster that died: no end of its own
      java.util.concurrent.CompletableFuture<Void> never =
          new java.util.concurrent.CompletableFuture<>();
      long started = System.nanoTime();
      assertThatThrownBy(() -> bounded.await(never, "a table being created"))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR);
                assertThat(e.getMessage())
                    .contains("a table being created", "[2000] ms", "is the cluster up?");
              });
      assertThat(java.time.Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThanOrEqualTo(java.time.Duration.ofMillis(2_000));
      assertThat(never).isCancelled();
    } finally {
      bounded.close();
    }
  }

  @Test
  void whatHBaseCannotDoIsRefused() {
    String name = newName();
    assertThatThrownBy(
            () -> store.createTable(name, new TableSpec(Map.of("COMPRESSION", "ZSTD"), List.of())))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED);
              assertThat(e.getMessage()).contains("COMPRESSION", "NONE or GZIP", "found [ZSTD]");
            });
    assertThat(store.table(name)).isEmpty();
    // no read point to pin: a snapshot reads the latest versions, and the store says so
    assertThat(store.guarantees()).isEqualTo(KvStore.Guarantees.LATEST_PER_ROW);
    try (KvSnapshot snapshot = store.openSnapshot()) {
      assertThat(snapshot.readPoint()).isEqualTo(ScanRequest.LATEST);
    }
    KvTable table = store.createTable(name);
    assertThatThrownBy(() -> table.scan(scan(KeyRange.ALL, Optional.empty()).atReadPoint(5)))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED));
  }

  /** Runs {@code racer} (given its number) on {@code threads} threads at once; fails on a throw. */
  private static void race(int threads, java.util.function.IntConsumer racer) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> racers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int number = t;
        racers.add(pool.submit(() -> racer.accept(number)));
      }
      for (Future<?> f : racers) {
        f.get();
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    } finally {
      pool.shutdownNow();
    }
  }

  private static ScanRequest sorted(KeyRange range, List<SortKey> order, long limit, long offset) {
    return new ScanRequest(
        List.of(range),
        new ScanProgram(
            LAYOUT, Optional.empty(), List.of(K, V), limit, offset, List.of(), List.of(), order),
        EvalContext.EMPTY,
        true);
  }

  private static String newName() {
    return "T" + TABLES.incrementAndGet();
  }

  private static DataType bigint() {
    return DataType.BIGINT;
  }

  private static Expr literal(int v) {
    return new Expr.Literal(v, DataType.INTEGER);
  }

  private static Bytes key(long k) {
    return CODEC.encodeKey(new Object[] {k, null});
  }

  private static Bytes value(long k, Integer v) {
    return CODEC.encodeValue(new Object[] {k, v});
  }

  private static Mutation put(long k, Integer v) {
    return new Mutation.Put(key(k), value(k, v));
  }

  private static Mutation insert(long k, Integer v) {
    return new Mutation.Put(key(k), value(k, v), Mutation.Condition.MUST_NOT_EXIST);
  }

  private static List<Object> row(long k, Integer v) {
    return Arrays.asList(k, v);
  }

  private static ScanRequest scan(KeyRange range, Optional<Expr> filter) {
    return new ScanRequest(
        List.of(range),
        new ScanProgram(LAYOUT, filter, List.of(K, V), ScanProgram.NO_LIMIT),
        EvalContext.EMPTY,
        true);
  }

  private static List<List<Object>> rows(KvTable table, ScanRequest request) {
    List<List<Object>> rows = new ArrayList<>();
    try (RowScanner scanner = table.scan(request)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        rows.add(Arrays.asList(row));
      }
    }
    return rows;
  }
}
