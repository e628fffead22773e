package io.cairn.hbase.server;

/**
 * The names the client and the region servers agree on, in a class of its own so that the client
 * (which has HBase's client but not its server) can use them without loading the region-server
 * classes ({@link CairnRegionObserver} implements HBase's {@code RegionObserver}, which a client
 * JVM does not have).
 */
public final class WireNames {
  private WireNames() {}

  /** The region observer's class, set on every Cairn table ({@link CairnRegionObserver}). */
  public static final String OBSERVER = "io.cairn.hbase.server.CairnRegionObserver";

  /** The attribute of an HBase {@code Scan} that holds a Cairn scan (the wire ScanSpec). */
  public static final String SCAN_ATTRIBUTE = "cairn.scan";

  /**
   * The qualifier of a Cairn row's one cell (family {@code c}): with an empty qualifier, HBase
   * 2.6's new version behaviour failed scans after a delete of the cell.
   */
  public static final byte[] ROW_QUALIFIER = {'r'};
}
