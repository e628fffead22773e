package io.cairn.hbase;

import static io.cairn.jdbc.TestingDatabase.execute;
import static io.cairn.jdbc.TestingDatabase.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.hbase.server.CairnIndexObserver;
import io.cairn.hbase.server.IndexBuildScanner;
import io.cairn.hbase.server.WireNames;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Local indexes on HBase ({@link HBaseIndexes}): each index a table of its own, kept by the writes
 * and checked by the reads. What the contract suite's index tests cannot show: entries that no
 * longer match their rows (left by a write that failed between its steps) are never read, rows
 * written before the index are found, racing writes of the same rows leave no row unfound, and the
 * index tables go with DROP INDEX and DROP TABLE.
 */
@ExtendWith(MiniHBase.class)
class TestHBaseIndexes {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  private HBaseTestingUtility hbase;
  private String namespace;
  private String url;

  @BeforeEach
  void url(HBaseTestingUtility cluster) {
    hbase = cluster;
    namespace = "ix" + NAMESPACES.incrementAndGet();
    url =
        "jdbc:cairn:hbase:127.0.0.1:"
            + cluster.getConfiguration().get("hbase.zookeeper.property.clientPort")
            + ";cairn.hbase.namespace="
            + namespace;
  }

  /** The index tables of the namespace (names ending in _idx and an id). */
  private List<String> indexTables() throws Exception {
    List<String> names = new ArrayList<>();
    try (Admin admin = hbase.getConnection().getAdmin()) {
      for (TableName t : admin.listTableNamesByNamespace(namespace)) {
        if (t.getQualifierAsString().matches(".*_idx\\d+")) {
          names.add(t.getQualifierAsString());
        }
      }
    }
    names.sort(null);
    return names;
  }

  /** The one index table of the namespace. */
  private TableName indexTable() throws Exception {
    List<String> tables = indexTables();
    assertThat(tables).hasSize(1);
    return TableName.valueOf(namespace, tables.get(0));
  }

  /** Each cell of {@code table}: its row (hex) and qualifier (hex). */
  private List<String[]> cells(TableName table) throws Exception {
    List<String[]> cells = new ArrayList<>();
    try (Table t = hbase.getConnection().getTable(table);
        ResultScanner scanner = t.getScanner(new Scan())) {
      for (Result r : scanner) {
        for (Cell cell : r.rawCells()) {
          cells.add(
              new String[] {hex(CellUtil.cloneRow(cell)), hex(CellUtil.cloneQualifier(cell))});
        }
      }
    }
    return cells;
  }

  private static String hex(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(bytes);
  }

  @Test
  void entriesThatNoLongerMatchTheirRowsAreNeverRead() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      execute(
          c,
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER, NOTE VARCHAR(10))",
          "CREATE INDEX T_Q ON T (Q)",
          "UPSERT INTO T VALUES (1, 5, 'a'), (2, 7, 'b'), (3, 7, 'c')");
      assertThat(rows(c, "CHECK INDEX T_Q ON T")).containsExactly("T_Q,PUBLIC.T,3,3,0,0,true,");
      TableName index = indexTable();
      byte[] entry1 = null; // row 1's entry (Q = 5) and its token
      byte[] token1 = null;
      byte[] entry2 = null; // row 2's (Q = 7)
      try (Table t = hbase.getConnection().getTable(index);
          ResultScanner scanner = t.getScanner(new Scan())) {
        for (Result r : scanner) {
          assertThat(r.rawCells()).hasSize(1);
          if (entry1 == null) {
            entry1 = r.getRow();
            token1 = CellUtil.cloneQualifier(r.rawCells()[0]);
          } else if (entry2 == null) {
            entry2 = r.getRow();
          }
        }
      }
      assertThat(token1).hasSize(HBaseIndexes.TOKEN_BYTES);
      // a write that failed after writing its entry: row 1's entry under a token it never got
      // and an entry of row 1 with Q = 7 under its current token (row 2's parts, row 1's key)
      int rowKeyAt =
          entry1.length
              - 2
              - (((entry1[entry1.length - 2] & 0xFF) << 8) | (entry1[entry1.length - 1] & 0xFF));
      int rowKeyAt2 = entry2.length - 2 - (entry1.length - 2 - rowKeyAt);
      byte[] stale = new byte[rowKeyAt2 + entry1.length - rowKeyAt];
      System.arraycopy(entry2, 0, stale, 0, rowKeyAt2);
      System.arraycopy(entry1, rowKeyAt, stale, rowKeyAt2, entry1.length - rowKeyAt);
      try (Table t = hbase.getConnection().getTable(index)) {
        t.put(
            new Put(entry1)
                .addColumn(HBaseKvStore.FAMILY, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, new byte[0]));
        t.put(new Put(stale).addColumn(HBaseKvStore.FAMILY, token1, new byte[0]));
      }
      long lookups = CairnIndexObserver.lookupsStarted();
      readAroundTheBadEntries(c);
      assertThat(CairnIndexObserver.lookupsStarted() - lookups)
          .as("reads checked in the region server")
          .isEqualTo(4);
      // an index table made before its region servers checked entries: the client checks them
      try (Admin admin = hbase.getConnection().getAdmin()) {
        assertThat(admin.getDescriptor(index).hasCoprocessor(WireNames.INDEX_OBSERVER)).isTrue();
        admin.modifyTable(
            TableDescriptorBuilder.newBuilder(admin.getDescriptor(index))
                .removeCoprocessor(WireNames.INDEX_OBSERVER)
                .build());
      }
      lookups = CairnIndexObserver.lookupsStarted();
      readAroundTheBadEntries(c);
      assertThat(CairnIndexObserver.lookupsStarted() - lookups).as("checked here").isZero();
      List<String> check = rows(c, "CHECK INDEX T_Q ON T");
      assertThat(check).hasSize(1);
      assertThat(check.get(0)).startsWith("T_Q,PUBLIC.T,3,5,0,2,false,").contains("extra entry");
      // row 1 written again: its old entry goes (the stale ones stay, never read)
      execute(c, "UPDATE T SET Q = 6 WHERE ID = 1");
      assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q = 6")).containsExactly("1");
      assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q = 5")).isEmpty();
      assertThat(rows(c, "CHECK INDEX T_Q ON T").get(0)).startsWith("T_Q,PUBLIC.T,3,5,0,2,false,");
    }
  }

  /** The reads of {@link #entriesThatNoLongerMatchTheirRowsAreNeverRead}: 4 index reads. */
  private static void readAroundTheBadEntries(Connection c) throws SQLException {
    assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q = 7 ORDER BY ID"))
        .containsExactly("2", "3");
    assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ COUNT(*) FROM T WHERE Q = 7"))
        .containsExactly("2");
    assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID, NOTE FROM T WHERE Q = 5"))
        .containsExactly("1,a");
    assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ COUNT(*) FROM T")).containsExactly("3");
  }

  @Test
  void rowsWrittenBeforeTheIndexAreFoundAndTheirEntriesReplaced() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      execute(
          c,
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER)",
          "UPSERT INTO T VALUES (1, 10), (2, 20), (3, 10)",
          "CREATE INDEX T_Q ON T (Q)");
      // built from rows without tokens: entries of the empty qualifier
      assertThat(cells(indexTable())).extracting(cell -> cell[1]).containsOnly("");
      assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q = 10 ORDER BY ID"))
          .containsExactly("1", "3");
      execute(c, "UPDATE T SET Q = 20 WHERE ID = 1", "DELETE FROM T WHERE ID = 3");
      assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q = 20 ORDER BY ID"))
          .containsExactly("1", "2");
      assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q = 10")).isEmpty();
      assertThat(rows(c, "CHECK INDEX T_Q ON T")).containsExactly("T_Q,PUBLIC.T,2,2,0,0,true,");
      List<String[]> cells = cells(indexTable());
      assertThat(cells).hasSize(2);
      assertThat(cells).extracting(cell -> cell[1].length()).containsExactlyInAnyOrder(0, 16);
    }
  }

  @Test
  void racingWritesOfTheSameRowsLeaveNoRowUnfound() throws Exception {
    int rows = 20;
    try (Connection c = DriverManager.getConnection(url)) {
      execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER, V INTEGER)");
      StringBuilder values = new StringBuilder("UPSERT INTO T VALUES ");
      for (int id = 0; id < rows; id++) {
        values.append(id == 0 ? "" : ", ").append("(").append(id).append(", 0, 0)");
      }
      execute(c, values.toString(), "CREATE INDEX T_Q ON T (Q)");
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int seed = w;
        writers.add(
            pool.submit(
                () -> {
                  Random random = new Random(seed);
                  try (Connection c = DriverManager.getConnection(url);
                      PreparedStatement upsert =
                          c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)");
                      PreparedStatement update =
                          c.prepareStatement("UPDATE T SET Q = ?, V = V + 1 WHERE ID = ?")) {
                    for (int i = 0; i < 150; i++) {
                      int id = random.nextInt(rows);
                      int q = random.nextInt(4);
                      if (random.nextBoolean()) {
                        upsert.setInt(1, id);
                        upsert.setInt(2, q);
                        upsert.setInt(3, -1);
                        upsert.executeUpdate();
                      } else {
                        update.setInt(1, q);
                        update.setInt(2, id);
                        update.executeUpdate();
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : writers) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = DriverManager.getConnection(url)) {
      for (int q = 0; q < 4; q++) {
        String where = " FROM T WHERE Q = " + q + " ORDER BY ID";
        assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ ID, V" + where))
            .as("Q = " + q)
            .isEqualTo(rows(c, "SELECT /*+ NO_INDEX */ ID, V" + where));
      }
      assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ COUNT(*) FROM T"))
          .containsExactly(String.valueOf(rows));
      for (int q = 0; q < 4; q++) { // covered: verified entries taken without their rows
        String where = " FROM T WHERE Q = " + q;
        assertThat(rows(c, "SELECT /*+ INDEX(T T_Q) */ COUNT(*)" + where))
            .as("count of Q = " + q)
            .isEqualTo(rows(c, "SELECT /*+ NO_INDEX */ COUNT(*)" + where));
      }
      List<String> check = rows(c, "CHECK INDEX T_Q ON T");
      // entries left by writes that raced may be extra; none may be missing
      assertThat(check.get(0)).matches("T_Q,PUBLIC\\.T," + rows + ",\\d+,0,\\d+,.*");
    }
  }

  /**
   * Two databases in this JVM on one namespace (the URLs name the quorum differently), each with
   * its own catalog: as two clients in two JVMs. b reads the catalog again when a statement names a
   * table its copy lacks, when its copy is older than the store's refresh interval, and when the
   * region servers refuse a write of its out-of-date copy (55000, once): it sees a's tables and
   * indexes, and its writes keep the indexes.
   */
  @Test
  void anotherClientsTablesAndIndexesShowAndItsWritesKeepThem() throws Exception {
    String other = url.replace("127.0.0.1", "localhost");
    try (Connection a = DriverManager.getConnection(url);
        Connection b = DriverManager.getConnection(other)) {
      assertThat(rows(b, "SELECT COUNT(*) FROM SYSTEM.INDEXES")).containsExactly("0");
      execute(
          a, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER)", "UPSERT INTO T VALUES (1, 1)");
      assertThat(rows(b, "SELECT ID, Q FROM T")).containsExactly("1,1"); // named: read at once
      execute(a, "CREATE INDEX T_Q ON T (Q)");
      // the index change took longer than b's refresh interval: b's next statement reads it
      for (String write :
          List.of(
              "UPSERT INTO T VALUES (2, 5)",
              "UPDATE T SET Q = 6 WHERE ID = 1",
              "INSERT INTO T VALUES (3, 7)",
              "DELETE FROM T WHERE ID = 3")) {
        execute(b, write);
      }
      assertThat(rows(b, "EXPLAIN SELECT ID FROM T WHERE Q = 5")).anyMatch(l -> l.contains("T_Q"));
      assertThat(rows(b, "SELECT ID FROM T WHERE Q = 5")).containsExactly("2");
      assertThat(rows(a, "CHECK INDEX T_Q ON T")).containsExactly("T_Q,PUBLIC.T,2,2,0,0,true,");

      // a commit with no statement since the change: refused, nothing written, the copy read again
      b.setAutoCommit(false);
      execute(b, "UPSERT INTO T VALUES (4, 8)");
      execute(a, "DROP INDEX T_Q", "CREATE INDEX T_Q2 ON T (Q)");
      SQLException refused =
          org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, b::commit);
      assertThat(refused.getSQLState()).isEqualTo("55000");
      assertThat(refused.getMessage()).contains("run the statement again");
      b.setAutoCommit(true);
      assertThat(rows(b, "SELECT COUNT(*) FROM T WHERE ID = 4")).containsExactly("0");
      execute(b, "UPSERT INTO T VALUES (4, 8)");
      assertThat(rows(a, "CHECK INDEX T_Q2 ON T")).containsExactly("T_Q2,PUBLIC.T,3,3,0,0,true,");
      assertThat(rows(b, "SELECT /*+ INDEX(T T_Q2) */ ID FROM T WHERE Q >= 5 ORDER BY ID"))
          .containsExactly("1", "2", "4");
      assertThat(rows(b, "SELECT INDEX_NAME, STATE FROM SYSTEM.INDEXES"))
          .containsExactly("T_Q2,ACTIVE");

      execute(a, "DROP TABLE T");
      SQLException gone =
          org.junit.jupiter.api.Assertions.assertThrows(
              SQLException.class, () -> rows(b, "SELECT * FROM T"));
      assertThat(gone.getSQLState()).isEqualTo("42S02");
    }
  }

  /**
   * A client that died between recording an index change in the catalog and switching the table's
   * index fence leaves the fence behind (here: set by hand); the next client to open the catalog
   * sets it to the catalog's set (a check-and-put on the value it read, whether a value or none),
   * but leaves alone a fence in the middle of another client's switch.
   */
  @Test
  void aFenceLeftBehindIsRepairedAtOpenAndASwitchIsLeftAlone() throws Exception {
    String other = url.replace("127.0.0.1", "localhost");
    try (Connection a = DriverManager.getConnection(url)) {
      execute(a, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER)", "CREATE INDEX T_Q ON T (Q)");
    } // its database closed with its last connection
    try (Table ids = hbase.getConnection().getTable(TableName.valueOf(namespace, "_ids"))) {
      byte[] row = null;
      try (ResultScanner scanner = ids.getScanner(new Scan())) {
        for (Result r : scanner) {
          if (r.getRow()[0] == (byte) 0xFF) { // a fence row: 0xFF, then the HBase table's name
            assertThat(row).as("one table has a fence").isNull();
            row = r.getRow();
          }
        }
      }
      assertThat(row).isNotNull();
      byte[] fenceRow = row;
      java.util.function.Supplier<String> fence =
          () -> {
            try {
              byte[] v =
                  ids.get(new org.apache.hadoop.hbase.client.Get(fenceRow))
                      .getValue(HBaseKvStore.FAMILY, WireNames.FENCE_QUALIFIER);
              return v == null ? null : new String(v, java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          };
      String kept = fence.get();
      assertThat(kept).matches("\\d+");
      for (String leftBehind : java.util.Arrays.asList("", null)) {
        if (leftBehind == null) {
          ids.delete(
              new org.apache.hadoop.hbase.client.Delete(fenceRow)
                  .addColumns(HBaseKvStore.FAMILY, WireNames.FENCE_QUALIFIER));
        } else {
          ids.put(
              new Put(fenceRow)
                  .addColumn(
                      HBaseKvStore.FAMILY,
                      WireNames.FENCE_QUALIFIER,
                      leftBehind.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        try (Connection b = DriverManager.getConnection(other)) {
          assertThat(fence.get()).as("repaired from [%s]", leftBehind).isEqualTo(kept);
          execute(b, "UPSERT INTO T VALUES (1, 5)");
        }
      }
      String switching = "999;" + kept;
      ids.put(
          new Put(fenceRow)
              .addColumn(
                  HBaseKvStore.FAMILY,
                  WireNames.FENCE_QUALIFIER,
                  switching.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      try (Connection b = DriverManager.getConnection(other)) {
        execute(b, "UPSERT INTO T VALUES (2, 6)"); // either set may write during a switch
        assertThat(fence.get()).isEqualTo(switching);
      }
    }
    try (Connection a = DriverManager.getConnection(url)) {
      assertThat(rows(a, "CHECK INDEX T_Q ON T")).containsExactly("T_Q,PUBLIC.T,2,2,0,0,true,");
    }
  }

  /**
   * A client that opens the catalog while another builds an index (here: from inside the build, as
   * a part answers) takes the index as BUILDING, not as a build that died: its writes keep the
   * index, which the build finishes with every row. (It took it FAILED before, wrote the fence of
   * its own set, and its rows written during the build had no entries.)
   */
  @Test
  void aClientThatOpensDuringABuildKeepsTheIndex() throws Exception {
    String other = url.replace("127.0.0.1", "localhost");
    try (Connection a = DriverManager.getConnection(url)) {
      execute(a, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER)");
      try (PreparedStatement p = a.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
        for (int id = 0; id < 2_000; id++) {
          p.setInt(1, id);
          p.setInt(2, id % 10);
          p.addBatch();
        }
        p.executeBatch();
      }
      List<String> seen = new ArrayList<>();
      List<Throwable> failures = new ArrayList<>();
      AtomicInteger answers = new AtomicInteger();
      HBaseIndexes.afterBuildAnswer =
          () -> {
            if (answers.incrementAndGet() != 1) {
              return;
            }
            try (Connection c = DriverManager.getConnection(other)) {
              seen.addAll(rows(c, "SELECT INDEX_NAME, STATE FROM SYSTEM.INDEXES"));
              execute(c, "UPSERT INTO T VALUES (5000, 3)", "UPDATE T SET Q = 4 WHERE ID = 13");
            } catch (SQLException | RuntimeException e) {
              failures.add(e);
            }
          };
      try {
        execute(a, "CREATE INDEX T_Q ON T (Q)");
      } finally {
        HBaseIndexes.afterBuildAnswer = null;
      }
      assertThat(failures).isEmpty();
      assertThat(seen).containsExactly("T_Q,BUILDING");
      assertThat(rows(a, "CHECK INDEX T_Q ON T").get(0)).startsWith("T_Q,PUBLIC.T,2001,2001,0,0,");
      assertThat(rows(a, "SELECT /*+ INDEX(T T_Q) */ COUNT(*) FROM T WHERE Q = 3"))
          .containsExactly("200"); // 199 loaded (13 became 4), and 5000
      assertThat(rows(a, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q = 4 AND ID < 20"))
          .containsExactly("4", "13", "14");
    }
  }

  @Test
  void indexTablesGoWithDropIndexAndDropTable() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      execute(
          c,
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, A INTEGER, B INTEGER)",
          "UPSERT INTO T VALUES (1, 2, 3)",
          "CREATE INDEX T_A ON T (A)",
          "CREATE INDEX T_B ON T (B)");
      assertThat(indexTables()).hasSize(2);
      execute(c, "DROP INDEX T_A");
      assertThat(indexTables()).hasSize(1);
      execute(c, "ALTER INDEX T_B ON T REBUILD"); // a new id: a new table, the old one dropped
      assertThat(indexTables()).hasSize(1);
      assertThat(rows(c, "SELECT /*+ INDEX(T T_B) */ ID FROM T WHERE B = 3")).containsExactly("1");
      execute(c, "DROP TABLE T");
      assertThat(indexTables()).isEmpty();
    }
  }

  /** What is left where the region servers write a build's files ({@link IndexBuildScanner}). */
  private List<String> buildFilesLeft() throws Exception {
    org.apache.hadoop.fs.Path dir = IndexBuildScanner.buildDirectory(hbase.getConfiguration());
    org.apache.hadoop.fs.FileSystem fs = dir.getFileSystem(hbase.getConfiguration());
    List<String> left = new ArrayList<>();
    if (fs.exists(dir)) {
      for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(dir)) {
        left.add(f.getPath().toString());
      }
    }
    return left;
  }

  /**
   * Makes the region server's builds sort runs of 8 KiB (a file each) until the returned handle is
   * closed.
   */
  private AutoCloseable smallRuns() {
    org.apache.hadoop.conf.Configuration server =
        hbase.getMiniHBaseCluster().getRegionServer(0).getConfiguration();
    server.setLong(IndexBuildScanner.RUN_BYTES, 8192);
    return () -> server.setLong(IndexBuildScanner.RUN_BYTES, IndexBuildScanner.DEFAULT_RUN_BYTES);
  }

  /**
   * A build runs in the region servers: a table of three regions with guide posts is built in
   * several parts, each sorting its entries in several runs (a run of 8 KiB here: one file each),
   * on values that share long prefixes (ties of the sort's first bytes) in descending order; the
   * index answers as the table does, CHECK INDEX finds nothing missing or extra, and no file of the
   * build is left.
   */
  @Test
  void aBuildInTheRegionServersInPartsAndRunsMatchesTheRows() throws Exception {
    AutoCloseable runs = smallRuns();
    long parts = IndexBuildScanner.partsBuilt();
    long files = IndexBuildScanner.filesWritten();
    int rows = 1500;
    try (Connection c = DriverManager.getConnection(url)) {
      execute(
          c,
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, S VARCHAR(60), Q INTEGER)"
              + " GUIDE_POSTS_WIDTH=4000 SPLIT ON (500, 1000)");
      try (PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)")) {
        for (int id = 0; id < rows; id++) {
          upsert.setInt(1, id);
          // one prefix for all, then few values of several lengths: most entries tie on the
          // first bytes after the common prefix, and some values are prefixes of others
          upsert.setString(2, "a shared prefix of every value " + (id % 23) + "x".repeat(id % 3));
          upsert.setInt(3, id % 7);
          upsert.addBatch();
        }
        upsert.executeBatch();
      }
      execute(c, "UPDATE STATISTICS T", "CREATE INDEX T_S ON T (S DESC, Q)");
      assertThat(IndexBuildScanner.partsBuilt() - parts).as("parts").isGreaterThan(3);
      assertThat(IndexBuildScanner.filesWritten() - files)
          .as("files")
          .isGreaterThan(IndexBuildScanner.partsBuilt() - parts);
      for (String where :
          List.of(
              "",
              " WHERE S = 'a shared prefix of every value 7x'",
              " WHERE S > 'a shared prefix of every value 2' AND Q = 3",
              " WHERE S <= 'a shared prefix of every value 15'")) {
        assertThat(rows(c, "SELECT /*+ INDEX(T T_S) */ S, Q, ID FROM T" + where))
            .as(where)
            .isEqualTo(
                rows(
                    c,
                    "SELECT /*+ NO_INDEX */ S, Q, ID FROM T" + where + " ORDER BY S DESC, Q, ID"));
      }
      List<String> check = rows(c, "CHECK INDEX T_S ON T");
      assertThat(check.get(0)).startsWith("T_S,PUBLIC.T," + rows + "," + rows + ",0,0,");
      // read by ranges, never by row: no Bloom filter; not split at 256 MiB right after a build
      try (Admin admin = hbase.getConnection().getAdmin()) {
        var index = admin.getDescriptor(indexTable());
        assertThat(index.getRegionSplitPolicyClassName())
            .endsWith(".ConstantSizeRegionSplitPolicy");
        assertThat(index.getColumnFamily(new byte[] {'c'}).getBloomFilterType())
            .isEqualTo(org.apache.hadoop.hbase.regionserver.BloomType.NONE);
      }
    } finally {
      runs.close();
    }
    assertThat(buildFilesLeft()).isEmpty();
  }

  /** The store files of {@code table}'s regions in this cluster. */
  private List<org.apache.hadoop.hbase.regionserver.HStoreFile> storeFiles(TableName table) {
    List<org.apache.hadoop.hbase.regionserver.HStoreFile> files = new ArrayList<>();
    for (org.apache.hadoop.hbase.regionserver.HRegion r :
        hbase.getMiniHBaseCluster().getRegions(table)) {
      files.addAll(r.getStore(new byte[] {'c'}).getStorefiles());
    }
    return files;
  }

  /**
   * A build of few parts, each one file, leaves its files to major compactions: the index table's
   * minor compactions would rewrite the whole new index right after its build, taking a core from
   * its first reads. COMPACT TABLE (minor) leaves them; MAJOR_COMPACT TABLE takes the table's index
   * tables too, and merges them into one; the index answers as the table throughout.
   */
  @Test
  void aBuildOfFewPartsLeavesItsFilesToMajorCompactions() throws Exception {
    long kept = IndexBuildScanner.filesKept();
    int rows = 3 * 10_500; // three regions, a part each, more entries than a part puts
    try (Connection c = DriverManager.getConnection(url)) {
      execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER) SPLIT ON (10500, 21000)");
      try (PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
        for (int id = 0; id < rows; id++) {
          upsert.setInt(1, id);
          upsert.setInt(2, id % 1000);
          upsert.addBatch();
        }
        upsert.executeBatch();
      }
      execute(c, "UPDATE STATISTICS T", "CREATE INDEX T_Q ON T (Q)");
      assertThat(IndexBuildScanner.filesKept() - kept).as("files kept").isEqualTo(3);
      TableName index = indexTable();
      assertThat(storeFiles(index))
          .hasSize(3)
          .allMatch(org.apache.hadoop.hbase.regionserver.HStoreFile::excludeFromMinorCompaction);
      String read = "SELECT COUNT(*), MIN(ID), MAX(ID) FROM T WHERE Q = 417";
      assertThat(rows(c, read)).containsExactly("32,417,31417");

      execute(c, "COMPACT TABLE T");
      assertThat(storeFiles(index)).as("after a minor compaction").hasSize(3);
      execute(c, "MAJOR_COMPACT TABLE T");
      assertThat(storeFiles(index)).as("after a major compaction").hasSize(1);
      assertThat(rows(c, read)).containsExactly("32,417,31417");
      assertThat(rows(c, "CHECK INDEX T_Q ON T").get(0))
          .startsWith("T_Q,PUBLIC.T," + rows + "," + rows + ",0,0,");
    }
  }

  /**
   * UPDATE STATISTICS counts an index in the regions of its own table: after a split of the index's
   * table, SYSTEM.INDEX_STATS has each region's chunks, which together cover the index's key range
   * in order (the first from the index's first key, not the table's), all entries counted once, and
   * the distinct values of the first key part of each region.
   */
  @Test
  void indexStatisticsCoverEachRegionOfTheIndexTable() throws Exception {
    int rows = 600;
    try (Connection c = DriverManager.getConnection(url)) {
      execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER) GUIDE_POSTS_WIDTH=200");
      try (PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
        for (int id = 0; id < rows; id++) {
          upsert.setInt(1, id);
          upsert.setInt(2, id % 50);
          upsert.addBatch();
        }
        upsert.executeBatch();
      }
      execute(c, "CREATE INDEX T_Q ON T (Q)");
      TableName index = indexTable();
      try (Admin admin = hbase.getConnection().getAdmin()) {
        admin.flush(index);
        byte[] middle;
        try (Table t = hbase.getConnection().getTable(index);
            ResultScanner scanner = t.getScanner(new Scan().setLimit(rows / 2 + 1))) {
          Result last = null;
          for (Result r : scanner) {
            last = r;
          }
          middle = last.getRow();
        }
        admin
            .splitRegionAsync(admin.getRegions(index).get(0).getRegionName(), middle)
            .get(60, TimeUnit.SECONDS);
        assertThat(admin.getRegions(index)).hasSize(2);
      }
      execute(c, "UPDATE STATISTICS T");
      List<String> chunks =
          rows(
              c,
              "SELECT REGION_ID, START_KEY, STOP_KEY, ROW_COUNT, DISTINCT_COUNT"
                  + " FROM SYSTEM.INDEX_STATS WHERE INDEX_NAME = 'T_Q' ORDER BY START_KEY");
      assertThat(chunks.size()).as("chunks of 200 bytes").isGreaterThan(10);
      String first = chunks.get(0).split(",")[1];
      assertThat(first).as("the index's first key").hasSize(10).startsWith("80");
      assertThat(chunks.get(chunks.size() - 1).split(",")[2])
          .as("the index's last key")
          .isEqualTo(
              io.cairn.kv.IndexKeys.range(Integer.parseInt(first.substring(2), 16))
                  .stop()
                  .toString());
      long counted = 0;
      java.util.Set<String> regions = new java.util.HashSet<>();
      for (int i = 0; i < chunks.size(); i++) {
        String[] chunk = chunks.get(i).split(",");
        if (i > 0) {
          assertThat(chunk[1]).isEqualTo(chunks.get(i - 1).split(",")[2]);
        }
        regions.add(chunk[0]);
        counted += Long.parseLong(chunk[3]);
        assertThat(Long.parseLong(chunk[4])).isBetween(24L, 27L); // about half of the 50 values
      }
      assertThat(regions).hasSize(2);
      assertThat(counted).isEqualTo(rows);
    }
  }

  /**
   * A build whose region server cannot make a row's entry (a division by zero in the index's
   * expression, after files of earlier rows were written) fails at once with the row's error, as on
   * Cairn's own store, and leaves no file behind.
   */
  @Test
  void aBuildThatCannotMakeAnEntryFailsWithItsErrorAndLeavesNoFile() throws Exception {
    AutoCloseable runs = smallRuns();
    long files = IndexBuildScanner.filesWritten();
    try (Connection c = DriverManager.getConnection(url)) {
      execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER)");
      try (PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
        for (int id = 1; id <= 800; id++) {
          upsert.setInt(1, id);
          upsert.setInt(2, id == 800 ? 0 : id);
          upsert.addBatch();
        }
        upsert.executeBatch();
      }
      assertThatThrownBy(() -> execute(c, "CREATE INDEX T_D ON T (100 / Q)"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22012"));
    } finally {
      runs.close();
    }
    assertThat(IndexBuildScanner.filesWritten() - files).as("files written").isPositive();
    assertThat(buildFilesLeft()).isEmpty();
  }

  /**
   * A build whose region splits under it (its region server answering every 1,024 rows, the split
   * after the first answer) starts the cut-off part again: HBase's client resumes the scan past its
   * last answer, which the region server refuses for a build; the index then matches the table.
   */
  @Test
  void aBuildWhoseRegionSplitsUnderItStartsThePartAgain() throws Exception {
    org.apache.hadoop.conf.Configuration server =
        hbase.getMiniHBaseCluster().getRegionServer(0).getConfiguration();
    server.setLong("cairn.region.page-millis", 0);
    long restarted = HBaseIndexes.partsRestarted();
    int rows = 30_000;
    try (Connection c = DriverManager.getConnection(url)) {
      execute(c, "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER)");
      try (PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
        for (int id = 0; id < rows; id++) {
          upsert.setInt(1, id);
          upsert.setInt(2, id % 997);
          upsert.addBatch();
        }
        upsert.executeBatch();
      }
      TableName data = null;
      try (Admin admin = hbase.getConnection().getAdmin()) {
        for (TableName t : admin.listTableNamesByNamespace(namespace)) {
          if (t.getQualifierAsString().matches("T\\d+")) { // the table's KV name
            data = t;
          }
        }
      }
      TableName table = data;
      assertThat(table).isNotNull();
      AtomicInteger answers = new AtomicInteger();
      HBaseIndexes.afterBuildAnswer =
          () -> {
            if (answers.incrementAndGet() != 1) {
              return;
            }
            try (Admin admin = hbase.getConnection().getAdmin()) {
              byte[] middle;
              try (Table t = hbase.getConnection().getTable(table);
                  ResultScanner scanner = t.getScanner(new Scan().setLimit(rows / 2))) {
                Result last = null;
                for (Result r : scanner) {
                  last = r;
                }
                middle = last.getRow();
              }
              admin
                  .splitRegionAsync(admin.getRegions(table).get(0).getRegionName(), middle)
                  .get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          };
      try {
        execute(c, "CREATE INDEX T_Q ON T (Q)");
      } finally {
        HBaseIndexes.afterBuildAnswer = null;
      }
      try (Admin admin = hbase.getConnection().getAdmin()) {
        assertThat(admin.getRegions(table)).as("the table's regions after the split").hasSize(2);
      }
      assertThat(answers.get()).as("answers of the build").isGreaterThan(2);
      assertThat(HBaseIndexes.partsRestarted() - restarted).as("parts restarted").isEqualTo(1);
      assertThat(rows(c, "SELECT COUNT(*), MIN(ID), MAX(ID) FROM T WHERE Q = 996"))
          .containsExactly("30,996,29909");
      assertThat(rows(c, "CHECK INDEX T_Q ON T").get(0))
          .startsWith("T_Q,PUBLIC.T," + rows + "," + rows + ",0,0,");
    } finally {
      server.setLong("cairn.region.page-millis", 200);
    }
    assertThat(buildFilesLeft()).isEmpty();
  }

  /**
   * A region server refuses, without HBase's retries, a build's scan that starts past the row its
   * client asked for (HBase's client resuming a scan after a failure: the rows before it would get
   * no entry) and a definition that does not parse.
   */
  @Test
  void aRegionServerRefusesAResumedBuildAndAMalformedDefinition() throws Exception {
    try (Connection c = DriverManager.getConnection(url)) {
      execute(
          c,
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER)",
          "UPSERT INTO T VALUES (1, 2), (3, 4)",
          "CREATE INDEX T_Q ON T (Q)");
    }
    String index = indexTable().getQualifierAsString();
    TableName data = TableName.valueOf(namespace, index.substring(0, index.lastIndexOf("_idx")));
    try (Table t = hbase.getConnection().getTable(data)) {
      Scan resumed =
          new Scan()
              .withStartRow(new byte[] {5})
              .setAttribute(WireNames.BUILD_ATTRIBUTE, new byte[] {1})
              .setAttribute(WireNames.BUILD_START_ATTRIBUTE, new byte[] {4});
      assertThatThrownBy(() -> firstAnswer(t, resumed))
          .hasStackTraceContaining("An index build cannot resume in the middle of region");
      Scan malformed =
          new Scan()
              .setAttribute(WireNames.BUILD_ATTRIBUTE, new byte[] {(byte) 0xFF, 1, 2})
              .setAttribute(WireNames.BUILD_START_ATTRIBUTE, new byte[0]);
      assertThatThrownBy(() -> firstAnswer(t, malformed))
          .hasStackTraceContaining("Not a valid Cairn index definition");
    }
  }

  private static Result firstAnswer(Table table, Scan scan) throws Exception {
    try (ResultScanner scanner = table.getScanner(scan)) {
      return scanner.next();
    }
  }
}
