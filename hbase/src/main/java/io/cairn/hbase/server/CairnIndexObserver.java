package io.cairn.hbase.server;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * The region-server side of the tables of Cairn's local indexes on HBase: a scan with {@link
 * WireNames#LOOKUP_ATTRIBUTE} is answered by an {@link IndexLookupScanner} (the entries checked
 * against their rows in the region server), one with {@link WireNames#INDEX_COUNT_ATTRIBUTE} by an
 * {@link IndexCountScanner} (UPDATE STATISTICS); other scans pass untouched. Set on each index
 * table's descriptor. Not {@link CairnRegionObserver}: an index table's cells are entries, not
 * rows, which that observer's compactions would count and drop as rows.
 */
public final class CairnIndexObserver implements RegionCoprocessor, RegionObserver {
  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public RegionScanner postScannerOpen(
      ObserverContext<RegionCoprocessorEnvironment> context, Scan scan, RegionScanner scanner)
      throws IOException {
    byte[] counted = scan.getAttribute(WireNames.INDEX_COUNT_ATTRIBUTE);
    if (counted != null) {
      byte[] width = scan.getAttribute(WireNames.COUNT_ATTRIBUTE);
      return IndexCountScanner.open(
          scanner,
          counted,
          width != null && width.length == Long.BYTES
              ? org.apache.hadoop.hbase.util.Bytes.toLong(width)
              : 0,
          context
              .getEnvironment()
              .getConfiguration()
              .getLong(ProgramRegionScanner.PAGE_MILLIS, ProgramRegionScanner.DEFAULT_PAGE_MILLIS));
    }
    byte[] definition = scan.getAttribute(WireNames.LOOKUP_ATTRIBUTE);
    if (definition == null) {
      return scanner;
    }
    return IndexLookupScanner.open(
        scanner,
        context.getEnvironment().getConnection(),
        context.getEnvironment().getOnlineRegions(),
        definition,
        scan.getAttribute(WireNames.LOOKUP_ROWS_ATTRIBUTE) != null,
        scan.getLimit());
  }

  /** How many index lookups this JVM's region servers started (for tests and metrics). */
  public static long lookupsStarted() {
    return IndexLookupScanner.lookupsStarted();
  }

  /**
   * How many rows this JVM's index lookups read from other region servers (the rest were read in
   * process), for tests and metrics.
   */
  public static long remoteRowsRead() {
    return IndexLookupScanner.remoteRowsRead();
  }
}
