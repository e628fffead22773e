package io.cairn.hbase.server;

import io.cairn.core.error.CairnException;
import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.KeyRange;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.PutHashCache;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.wire.WireHashTables;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.relocated.protobuf.CodedInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The region-server side of Cairn over HBase: a scan whose {@link #SCAN_ATTRIBUTE} holds a Cairn
 * scan (a {@code ScanSpec} of the wire protocol: program, parameters, statement time) runs its
 * program over the region's rows inside the region server ({@link ProgramRegionScanner}), which
 * returns pages of result rows instead of the rows. Other scans pass untouched. Set on each Cairn
 * table's descriptor; the class, Cairn's store and protocol and protobuf-java 3.25 must be on the
 * region servers' class path.
 */
public final class CairnRegionObserver implements RegionCoprocessor, RegionObserver {
  /** The Scan attribute that carries the serialized Cairn scan. */
  public static final String SCAN_ATTRIBUTE = WireNames.SCAN_ATTRIBUTE;

  /** Programs started in this JVM's region servers (for tests and metrics). */
  private static final AtomicLong PROGRAMS = new AtomicLong();

  private static final AtomicLong PROBES = new AtomicLong();

  /**
   * Message nesting a scan may have, as the network server's requests: an expression tree nests two
   * messages per level and the driver sends trees up to 250 levels deep (deeper ones flat), beyond
   * protobuf's default of 100 (which refused a chain of a thousand '+').
   */
  static final int MAX_NESTING = 1_000;

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  private final IndexFence fence = new IndexFence();

  /**
   * Refuses writes whose client keeps other local indexes than the table has ({@link IndexFence}):
   * a client that read the catalog before an index change.
   */
  @Override
  public void preBatchMutate(
      ObserverContext<RegionCoprocessorEnvironment> context,
      org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress<
              org.apache.hadoop.hbase.client.Mutation>
          batch)
      throws IOException {
    fence.check(context.getEnvironment(), batch);
  }

  /**
   * A compaction that rewrites all of a store's files leaves out deleted rows' tombstones (a row's
   * cell with an empty value, {@code HBaseKvTable.tombstone}): with one version per cell, the
   * compaction keeps only each row's newest cell, so once that is a tombstone nothing older is left
   * for it to hide (newer writes are in the memstore or in newer files). A compaction of some files
   * only keeps them: an older put may be in a file it leaves out. The same compaction counts the
   * region's rows into its table's statistics when the table has some ({@link
   * CompactionStatistics}).
   */
  @Override
  public InternalScanner preCompact(
      ObserverContext<RegionCoprocessorEnvironment> context,
      Store store,
      InternalScanner scanner,
      ScanType scanType,
      CompactionLifeCycleTracker tracker,
      CompactionRequest request) {
    if (!request.isAllFiles()) {
      return scanner;
    }
    RegionCoprocessorEnvironment env = context.getEnvironment();
    CompactionStatistics statistics =
        new CompactionStatistics(
            env.getRegionInfo(), guidePostWidth(env.getRegion().getTableDescriptor()));
    return new InternalScanner() {
      private boolean read;

      @Override
      public boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
        int from = result.size();
        boolean more = scanner.next(result, scannerContext);
        List<Cell> added = result.subList(from, result.size());
        added.removeIf(
            cell ->
                cell.getValueLength() == 0
                    && CellUtil.matchingQualifier(cell, WireNames.ROW_QUALIFIER));
        for (Cell cell : added) {
          statistics.add(cell);
        }
        read |= !more;
        return more;
      }

      @Override
      public void close() throws IOException {
        scanner.close();
        if (read) {
          statistics.publish(env.getConnection()); // the region's rows all read: a whole count
        }
      }
    };
  }

  /** The table's GUIDE_POSTS_WIDTH option ({@link WireNames#GUIDE_POSTS_WIDTH}), or the default. */
  static long guidePostWidth(TableDescriptor table) {
    String width = table.getValue(WireNames.GUIDE_POSTS_WIDTH);
    try {
      return width == null ? WireNames.DEFAULT_GUIDE_POSTS_WIDTH : Long.parseLong(width);
    } catch (NumberFormatException e) {
      return WireNames.DEFAULT_GUIDE_POSTS_WIDTH; // the client validates it: not reached
    }
  }

  @Override
  public RegionScanner postScannerOpen(
      ObserverContext<RegionCoprocessorEnvironment> context, Scan scan, RegionScanner scanner)
      throws IOException {
    byte[] spec = scan.getAttribute(SCAN_ATTRIBUTE);
    byte[] build = scan.getAttribute(WireNames.BUILD_ATTRIBUTE);
    if (build != null) {
      byte[] start = scan.getAttribute(WireNames.BUILD_START_ATTRIBUTE);
      if (!scan.includeStartRow()
          || !(Arrays.equals(scan.getStartRow(), scanner.getRegionInfo().getStartKey())
              || Arrays.equals(scan.getStartRow(), start))) {
        scanner.close(); // resumed past rows the build did not read: as a program, it cannot
        throw new DoNotRetryIOException(
            WireNames.BUILD_RESUME_REFUSED
                + scanner.getRegionInfo().getRegionNameAsString()
                + " after a failure: its client starts the part again");
      }
      RegionCoprocessorEnvironment env = context.getEnvironment();
      return IndexBuildScanner.open(
          scanner,
          env.getConnection(),
          env.getConfiguration(),
          build,
          scan.getAttribute(WireNames.BUILD_KEEP_ATTRIBUTE) != null,
          pageMillis(context));
    }
    if (spec == null) {
      byte[] count = scan.getAttribute(WireNames.COUNT_ATTRIBUTE);
      if (count != null) {
        long guidePostWidth = count.length == Long.BYTES ? Bytes.toLong(count) : 0;
        return ProgramRegionScanner.counting(scanner, guidePostWidth, pageMillis(context));
      }
      return scanner;
    }
    ScanRequest request;
    try {
      CodedInputStream in = CodedInputStream.newInstance(spec);
      in.setRecursionLimit(MAX_NESTING);
      request = WireMessages.fromProto(ScanSpec.parseFrom(in));
    } catch (IOException | CairnException e) {
      scanner.close();
      // a malformed program fails the same way on every server: no retry
      throw new DoNotRetryIOException("Not a valid Cairn scan: " + e.getMessage(), e);
    }
    if (!startsARangeOrTheRegion(scan, request, scanner.getRegionInfo().getStartKey())) {
      // HBase's client resumes a scan after a failure past the last row it returned, which for
      // a program is a page, not a row read: the program's state (counts, groups, a LIMIT's
      // count) would start over mid-region and the answer be wrong
      scanner.close();
      throw new DoNotRetryIOException(
          "A Cairn scan program cannot resume in the middle of region "
              + scanner.getRegionInfo().getRegionNameAsString()
              + " after a failure: run the statement again");
    }
    HashCacheLookup hashCaches = null;
    byte[] hashTable = scan.getAttribute(WireNames.HASH_ATTRIBUTE);
    if (hashTable != null) {
      try {
        PutHashCache put = PutHashCache.parseFrom(hashTable);
        String cacheId = put.getCacheId().toStringUtf8();
        JoinHashTable table = WireHashTables.fromProto(put);
        hashCaches = id -> id.equals(cacheId) ? table : null;
        PROBES.incrementAndGet();
      } catch (IOException | CairnException e) {
        scanner.close();
        throw new DoNotRetryIOException("Not a valid Cairn hash table: " + e.getMessage(), e);
      }
    }
    PROGRAMS.incrementAndGet();
    return new ProgramRegionScanner(scanner, request, hashCaches, pageMillis(context));
  }

  /** The region server's {@link ProgramRegionScanner#PAGE_MILLIS}. */
  private static long pageMillis(ObserverContext<RegionCoprocessorEnvironment> context) {
    return context
        .getEnvironment()
        .getConfiguration()
        .getLong(ProgramRegionScanner.PAGE_MILLIS, ProgramRegionScanner.DEFAULT_PAGE_MILLIS);
  }

  /**
   * Whether the scan starts where a program may: at the start of one of the request's ranges (the
   * region that holds it) or at the region's start (the range began in an earlier region), row
   * included; not past a row the client saw (a resumed scan).
   */
  private static boolean startsARangeOrTheRegion(
      Scan scan, ScanRequest request, byte[] regionStart) {
    byte[] start = scan.getStartRow();
    if (!scan.includeStartRow()) {
      return false;
    }
    if (Arrays.equals(start, regionStart)) {
      return true;
    }
    for (KeyRange range : request.ranges()) {
      if (Arrays.equals(range.start().toByteArray(), start)) {
        return true;
      }
    }
    return false;
  }

  /** How many scan programs with a join's hash table this JVM's region servers started. */
  public static long probesStarted() {
    return PROBES.get();
  }

  /** How many scan programs this JVM's region servers started. */
  public static long programsStarted() {
    return PROGRAMS.get();
  }
}
