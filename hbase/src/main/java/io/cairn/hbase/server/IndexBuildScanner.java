package io.cairn.hbase.server;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.kv.IndexSpec;
import io.cairn.store.index.IndexMaintainer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * A region's part of a local index's build, in the region server (the rows never leave it): reads
 * the region's rows with their tokens, makes each row's entry (as {@code
 * io.cairn.hbase.HBaseIndexes} keeps them: the entry key, one cell whose qualifier is the row's
 * token, no value), sorts them in runs of at most {@link #RUN_BYTES} bytes, writes each run as an
 * HFile of the index table's family and bulk-loads the files into the index table (HBase moves them
 * into its regions: no memstore, no write-ahead log, nothing to flush). Files are written under the
 * cluster's temporary directory and removed with the scanner whatever happened.
 *
 * <p>Each call answers one cell of qualifier {@link WireNames#BUILD_QUALIFIER} ({@link #progress}):
 * the rows read so far, and whether the region's part is done (files loaded); a call answers after
 * {@link ProgramRegionScanner#PAGE_MILLIS} of reading, so the client reports progress and the scan
 * keeps its lease.
 */
public final class IndexBuildScanner extends AnsweringRegionScanner {
  /**
   * The region servers' setting of how many bytes of entries a region's build sorts in memory
   * before it writes them as a file (default {@value #DEFAULT_RUN_BYTES}): a region server building
   * for two parts at once holds twice that; a smaller run makes more files, which the index table's
   * compactions merge.
   */
  public static final String RUN_BYTES = "cairn.index.build.run-bytes";

  public static final long DEFAULT_RUN_BYTES = 256L << 20;

  /**
   * Bytes a run counts for an entry besides its cell: its array's header, a reference, a sort key.
   */
  private static final int ENTRY_OVERHEAD = 32;

  /**
   * Entries of a part small enough to go to the index table as puts ({@link #putRun}) rather than
   * as a file: a bulk load opens a connection of its own and takes files apart, about 100 ms more.
   */
  static final int MAX_PUT_ENTRIES = 10_000;

  /** Entries a run holds at most: its sort keeps an entry's place in 24 bits ({@link #order}). */
  static final int MAX_RUN_ENTRIES = 1 << 24;

  /** Parts of builds this JVM's region servers did, and files they wrote (tests, metrics). */
  private static final AtomicLong PARTS = new AtomicLong();

  private static final AtomicLong FILES = new AtomicLong();

  private static final AtomicLong KEPT = new AtomicLong();

  private final Connection connection;
  private final Configuration conf;
  private final TableName indexTable;
  private final IndexMaintainer maintainer;
  private final int indexId;
  private final long runLimit;
  private final long pageNanos;

  /** Whether the part's file, when it makes one, is kept out of minor compactions. */
  private final boolean keep;

  private final long timestamp = System.currentTimeMillis();
  private final List<Cell> cells = new ArrayList<>();

  /** The run being gathered: each entry's cell as {@link #cell} serializes it. */
  private final List<byte[]> run = new ArrayList<>();

  /** How many leading bytes the rows of the run's cells all share. */
  private int common;

  private long runBytes;
  private final List<Path> files = new ArrayList<>();
  private FileSystem fs;
  private Path dir;
  private ColumnFamilyDescriptor family;
  private long rows;

  /** HBase rows read (deleted rows' tombstones too). */
  private long read;

  private boolean more = true;
  private boolean done;

  private IndexBuildScanner(
      RegionScanner region,
      Connection connection,
      Configuration conf,
      TableName indexTable,
      RowLayout layout,
      IndexSpec index,
      boolean keep,
      long pageMillis) {
    super(region);
    this.keep = keep;
    this.connection = connection;
    this.conf = conf;
    this.indexTable = indexTable;
    this.maintainer = new IndexMaintainer(layout, List.of(index));
    this.indexId = index.indexId();
    this.runLimit = Math.max(1, conf.getLong(RUN_BYTES, DEFAULT_RUN_BYTES));
    this.pageNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, pageMillis));
  }

  /**
   * The build of the entries of {@code definition} (a wire {@code IndexDefinition}) for the rows
   * {@code region} reads, into the HBase table of the index ({@link WireNames#indexTable}); with
   * {@code keep} ({@link WireNames#BUILD_KEEP_ATTRIBUTE}) a part that makes one file marks it to be
   * left out of minor compactions.
   *
   * @throws DoNotRetryIOException when the definition is malformed (the same on every server)
   */
  static IndexBuildScanner open(
      RegionScanner region,
      Connection connection,
      Configuration conf,
      byte[] definition,
      boolean keep,
      long pageMillis)
      throws IOException {
    WireIndex wire = WireIndex.parse(definition, region);
    RowLayout layout = wire.layout();
    IndexSpec index = wire.index();
    TableName data = region.getRegionInfo().getTable();
    TableName indexTable =
        TableName.valueOf(
            data.getNamespaceAsString(),
            WireNames.indexTable(data.getQualifierAsString(), index.indexId()));
    return new IndexBuildScanner(
        region, connection, conf, indexTable, layout, index, keep, pageMillis);
  }

  /** How many parts of index builds this JVM's region servers finished. */
  public static long partsBuilt() {
    return PARTS.get();
  }

  /** How many files of entries this JVM's region servers' index builds wrote. */
  public static long filesWritten() {
    return FILES.get();
  }

  /** How many of those files were kept out of minor compactions ({@link #keep}). */
  public static long filesKept() {
    return KEPT.get();
  }

  /** Where the region servers of {@code conf}'s cluster write a build's files. */
  public static Path buildDirectory(Configuration conf) throws IOException {
    return new Path(CommonFSUtils.getRootDir(conf), ".tmp/cairn-index-build");
  }

  @Override
  public boolean nextRaw(List<Cell> out) throws IOException {
    if (done) {
      return false;
    }
    long deadline = System.nanoTime() + pageNanos;
    try {
      while (more) {
        cells.clear();
        more = region.nextRaw(cells);
        add(cells);
        if ((++read & 1023) == 0 && System.nanoTime() - deadline > 0) {
          out.add(progress(answerRow(), rows, false));
          return true;
        }
      }
      if (files.isEmpty() && run.size() <= MAX_PUT_ENTRIES) {
        putRun(); // a small part: a bulk load's own connection and files would cost more
      } else {
        writeRun(true);
        BulkLoadHFiles.create(conf).bulkLoad(indexTable, Map.of(WireNames.FAMILY, files));
      }
    } catch (DoNotRetryIOException e) {
      throw e;
    } catch (IOException e) {
      if (e instanceof org.apache.hadoop.hbase.NotServingRegionException
          || e instanceof org.apache.hadoop.hbase.regionserver.RegionServerStoppedException) {
        throw e; // the region moved or its server stops: HBase's client starts the part again
      }
      // writing or loading files failed: a retry of the whole part would likely fail alike and
      // take HBase's retries times as long; the build fails now, with the cause
      throw new DoNotRetryIOException(
          RemoteErrors.message(
              io.cairn.core.error.ErrorCode.IO_ERROR,
              "Building an index's entries in region "
                  + region.getRegionInfo().getRegionNameAsString()
                  + " failed: "
                  + e),
          e);
    } catch (CairnException e) {
      // an entry that cannot be made (a function failing on a row's value) fails every retry alike
      throw new DoNotRetryIOException(RemoteErrors.message(e), e);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new DoNotRetryIOException(
          RemoteErrors.message(
              io.cairn.core.error.ErrorCode.INTERNAL_ERROR,
              "Building an index's entries failed: " + e.getMessage()),
          e);
    }
    done = true;
    PARTS.incrementAndGet();
    out.add(progress(answerRow(), rows, true));
    return false;
  }

  /** Adds the entry of the row whose cells are {@code row} (none for a tombstone or no row). */
  private void add(List<Cell> row) throws IOException {
    Cell value = null;
    Cell token = null;
    for (Cell cell : row) {
      if (CellUtil.matchingQualifier(cell, WireNames.ROW_QUALIFIER)) {
        value = cell;
      } else if (CellUtil.matchingFamily(cell, WireNames.TOKEN_FAMILY)) {
        token = cell;
      }
    }
    if (value == null || value.getValueLength() == 0) {
      return; // a deleted row's tombstone
    }
    rows++;
    Bytes entry =
        maintainer
            .entryOf(
                indexId,
                Bytes.wrap(CellUtil.cloneRow(value)),
                Bytes.wrap(CellUtil.cloneValue(value)))
            .key();
    byte[] cell = cell(entry, token);
    if (run.isEmpty()) {
      common = entry.length();
    } else {
      int m =
          Arrays.mismatch(
              run.get(0), ROW, ROW + common, cell, ROW, ROW + Math.min(common, entry.length()));
      common = m < 0 ? Math.min(common, entry.length()) : m;
    }
    run.add(cell);
    runBytes += cell.length + ENTRY_OVERHEAD;
    if (runBytes >= runLimit || run.size() == MAX_RUN_ENTRIES) {
      writeRun(false);
    }
  }

  /**
   * Where a cell's row starts in its serialized form (after key length, value length, row length).
   */
  private static final int ROW = 2 * Integer.BYTES + Short.BYTES;

  /**
   * The entry's cell as HBase serializes a KeyValue (which the file writer takes without a copy):
   * key length, value length (0), row length, row = the entry key, family, qualifier = the token
   * (none for a row written before the table had indexes), time stamp, type Put.
   */
  private byte[] cell(Bytes entry, Cell token) throws IOException {
    int rowLength = entry.length();
    if (rowLength > Short.MAX_VALUE) {
      throw new DoNotRetryIOException(
          RemoteErrors.message(
              io.cairn.core.error.ErrorCode.INVALID_ARGUMENT,
              "An index entry key of "
                  + rowLength
                  + " bytes: HBase keeps at most "
                  + Short.MAX_VALUE
                  + " bytes in a row key"));
    }
    int tokenLength = token == null ? 0 : token.getValueLength();
    int keyLength = Short.BYTES + rowLength + 1 + WireNames.FAMILY.length + tokenLength + 9;
    byte[] cell = new byte[2 * Integer.BYTES + keyLength];
    int at = org.apache.hadoop.hbase.util.Bytes.putInt(cell, 0, keyLength);
    at = org.apache.hadoop.hbase.util.Bytes.putInt(cell, at, 0);
    at = org.apache.hadoop.hbase.util.Bytes.putShort(cell, at, (short) rowLength);
    System.arraycopy(entry.peekArray(), 0, cell, at, rowLength);
    at += rowLength;
    cell[at++] = (byte) WireNames.FAMILY.length;
    System.arraycopy(WireNames.FAMILY, 0, cell, at, WireNames.FAMILY.length);
    at += WireNames.FAMILY.length;
    if (token != null) {
      CellUtil.copyValueTo(token, cell, at);
      at += tokenLength;
    }
    at = org.apache.hadoop.hbase.util.Bytes.putLong(cell, at, timestamp);
    cell[at] = KeyValue.Type.Put.getCode();
    return cell;
  }

  private static int rowLength(byte[] cell) {
    return ((cell[ROW - 2] & 0xFF) << 8) | (cell[ROW - 1] & 0xFF);
  }

  /** Orders cells by row (entry key), then qualifier (token). */
  private static int compare(byte[] a, byte[] b) {
    int ra = rowLength(a);
    int rb = rowLength(b);
    int c = Arrays.compareUnsigned(a, ROW, ROW + ra, b, ROW, ROW + rb);
    if (c != 0) {
      return c;
    }
    int qa = ROW + ra + 1 + WireNames.FAMILY.length;
    int qb = ROW + rb + 1 + WireNames.FAMILY.length;
    return Arrays.compareUnsigned(a, qa, a.length - 9, b, qb, b.length - 9);
  }

  /**
   * The run's cells in order, as indexes into the run: sorted first as primitives by the 5 bytes of
   * their rows that follow the run's common prefix (with the index in the low 24 bits), so that
   * most comparisons touch no cell; cells tied on those bytes then by {@link #compare}.
   */
  private int[] order() {
    int n = run.size();
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      byte[] cell = run.get(i);
      int length = rowLength(cell);
      long prefix = 0;
      for (int b = 0; b < 5; b++) {
        int at = common + b;
        prefix = (prefix << 8) | (at < length ? cell[ROW + at] & 0xFF : 0);
      }
      keys[i] = ((prefix << 24) | i) ^ Long.MIN_VALUE; // signed order = unsigned order
    }
    Arrays.sort(keys);
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = (int) (keys[i] & (MAX_RUN_ENTRIES - 1));
    }
    for (int from = 0, i = 1; i <= n; i++) {
      if (i == n || keys[i] >>> 24 != keys[from] >>> 24) {
        if (i - from > 1) {
          Integer[] tied = new Integer[i - from];
          for (int t = 0; t < tied.length; t++) {
            tied[t] = order[from + t];
          }
          Arrays.sort(tied, (x, y) -> compare(run.get(x), run.get(y)));
          for (int t = 0; t < tied.length; t++) {
            order[from + t] = tied[t];
          }
        }
        from = i;
      }
    }
    return order;
  }

  /**
   * Writes the run's entries as puts into the index table, with the table's durability (the whole
   * part fitted in a run of at most {@link #MAX_PUT_ENTRIES}).
   */
  private void putRun() throws IOException {
    if (run.isEmpty()) {
      return;
    }
    List<org.apache.hadoop.hbase.client.Put> puts = new ArrayList<>(run.size());
    for (byte[] cell : run) {
      KeyValue kv = new KeyValue(cell, 0, cell.length);
      puts.add(new org.apache.hadoop.hbase.client.Put(CellUtil.cloneRow(kv)).add(kv));
    }
    try (org.apache.hadoop.hbase.client.Table table = connection.getTable(indexTable)) {
      table.put(puts);
    }
    run.clear();
    runBytes = 0;
  }

  /**
   * Sorts the run and writes it as an HFile of the index table's family (nothing when empty); the
   * {@code last} run of a part that wrote no other is kept out of minor compactions when asked
   * ({@link #keep}).
   */
  private void writeRun(boolean last) throws IOException {
    if (run.isEmpty()) {
      return;
    }
    int[] order = order();
    if (dir == null) {
      try (org.apache.hadoop.hbase.client.Admin admin = connection.getAdmin()) {
        family = admin.getDescriptor(indexTable).getColumnFamily(WireNames.FAMILY);
      }
      Path builds = buildDirectory(conf);
      fs = builds.getFileSystem(conf);
      dir =
          new Path(
              new Path(builds, UUID.randomUUID().toString()),
              org.apache.hadoop.hbase.util.Bytes.toString(WireNames.FAMILY));
    }
    StoreFileWriter writer =
        new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
            .withOutputDir(dir)
            .withBloomType(family.getBloomFilterType())
            .withMaxKeyCount(run.size())
            .withFileContext(
                new HFileContextBuilder()
                    .withCompression(family.getCompressionType())
                    .withDataBlockEncoding(family.getDataBlockEncoding())
                    .withBlockSize(family.getBlocksize())
                    .withChecksumType(StoreUtils.getChecksumType(conf))
                    .withBytesPerCheckSum(StoreUtils.getBytesPerChecksum(conf))
                    .withIncludesTags(false)
                    .withColumnFamily(WireNames.FAMILY)
                    .withTableName(indexTable.getName())
                    .withCreateTime(timestamp)
                    .build())
            .build();
    boolean written = false;
    try {
      for (int i : order) {
        byte[] cell = run.get(i);
        writer.append(new KeyValue(cell, 0, cell.length));
      }
      if (keep && last && files.isEmpty()) {
        writer.appendFileInfo(
            HStoreFile.EXCLUDE_FROM_MINOR_COMPACTION_KEY,
            org.apache.hadoop.hbase.util.Bytes.toBytes(true));
        KEPT.incrementAndGet();
      }
      writer.appendFileInfo(
          HStoreFile.BULKLOAD_TIME_KEY,
          org.apache.hadoop.hbase.util.Bytes.toBytes(System.currentTimeMillis()));
      writer.appendTrackedTimestampsToMetadata();
      written = true;
    } finally {
      writer.close();
      if (!written) {
        fs.delete(writer.getPath(), false);
      }
    }
    files.add(writer.getPath());
    FILES.incrementAndGet();
    run.clear();
    runBytes = 0;
  }

  /**
   * A build's answer: {@code rows} read so far (8 bytes), then 1 when the region's part is done
   * (its entries loaded into the index table), else 0.
   */
  static Cell progress(byte[] row, long rows, boolean done) {
    byte[] value = new byte[Long.BYTES + 1];
    org.apache.hadoop.hbase.util.Bytes.putLong(value, 0, rows);
    value[Long.BYTES] = (byte) (done ? 1 : 0);
    return new KeyValue(row, WireNames.FAMILY, WireNames.BUILD_QUALIFIER, value);
  }

  @Override
  public void close() throws IOException {
    done = true;
    run.clear();
    try {
      region.close();
    } finally {
      if (dir != null) {
        fs.delete(dir.getParent(), true); // the files a load moved are gone: what is left
      }
    }
  }
}
