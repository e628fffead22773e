package io.cairn.hbase.server;

/**
 * The names the client and the region servers agree on, in a class of its own so that the client
 * (which has HBase's client but not its server) can use them without loading the region-server
 * classes ({@link CairnRegionObserver} implements HBase's {@code RegionObserver}, which a client
 * JVM does not have).
 */
public final class WireNames {
  private WireNames() {}

  /**
   * The attribute of every write of a row that names the local indexes its writer maintains (their
   * ids, ascending, separated by ','; empty for none), checked against the table's index fence
   * ({@link IndexFence}).
   */
  public static final String INDEXES_ATTRIBUTE = "cairn.indexes";

  /** The namespace's table of id counters, which also holds the tables' index fences. */
  public static final String IDS_TABLE = "_ids";

  /** The family of Cairn's cells. */
  public static final byte[] FAMILY = {'c'};

  /** How long a region server keeps a table's index fence before reading it again. */
  public static final long FENCE_CACHE_MILLIS = 200;

  /**
   * How long a client that changed an index fence waits before relying on it: the region servers'
   * cache, and a write's time between its check and its application, with room to spare.
   */
  public static final long FENCE_SETTLE_MILLIS = 3 * FENCE_CACHE_MILLIS;

  /** The qualifier of a table's index fence in {@link #IDS_TABLE}. */
  public static final byte[] FENCE_QUALIFIER = {'x'};

  /**
   * The row of the index fence of the HBase table of qualifier {@code table} in {@link #IDS_TABLE}:
   * 0xFF, which no UTF-8 text (a Cairn table's name, the row of its id counter) holds, then the
   * qualifier.
   */
  public static byte[] fenceRow(String table) {
    byte[] name = table.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] row = new byte[name.length + 1];
    row[0] = (byte) 0xFF;
    System.arraycopy(name, 0, row, 1, name.length);
    return row;
  }

  /** The region observer's class, set on every Cairn table ({@link CairnRegionObserver}). */
  public static final String OBSERVER = "io.cairn.hbase.server.CairnRegionObserver";

  /** The attribute of an HBase {@code Scan} that holds a Cairn scan (the wire ScanSpec). */
  public static final String SCAN_ATTRIBUTE = "cairn.scan";

  /**
   * The attribute of an HBase {@code Scan} that asks the region server for the number of Cairn rows
   * in the scan's range of the region: one cell of qualifier {@link #COUNT_QUALIFIER}, the count
   * and the region's chunks as {@link RegionCount} encodes them (UPDATE STATISTICS); the
   * attribute's value is the guide post width, 8 bytes (none: no guide posts).
   */
  public static final String COUNT_ATTRIBUTE = "cairn.count";

  /**
   * The attribute of an HBase {@code Scan} that holds the hash table a Cairn scan's join probe
   * reads (a wire {@code PutHashCache}, its rows uncompressed), so that the probe runs in the
   * region server.
   */
  public static final String HASH_ATTRIBUTE = "cairn.hash";

  /**
   * The attribute of an HBase {@code Scan} of a table's rows that asks the region server to build a
   * local index's entries of the rows it reads (the index's {@code IndexDefinition} of the wire
   * protocol): the region server writes them as files and loads them into the index's table ({@link
   * IndexBuildScanner}), and answers cells of qualifier {@link #BUILD_QUALIFIER}.
   */
  public static final String BUILD_ATTRIBUTE = "cairn.build";

  /**
   * The attribute of a {@link #BUILD_ATTRIBUTE} scan that holds the first row the client asked for:
   * a region server refuses a scan that starts elsewhere (HBase's client resuming a scan after a
   * failure, past rows the build has not read).
   */
  public static final String BUILD_START_ATTRIBUTE = "cairn.build.start";

  /**
   * How a region server's refusal of a resumed {@link #BUILD_ATTRIBUTE} scan starts (see {@link
   * #BUILD_START_ATTRIBUTE}): the client starts the part again from its first row.
   */
  public static final String BUILD_RESUME_REFUSED =
      "An index build cannot resume in the middle of region ";

  /**
   * The attribute of a {@link #BUILD_ATTRIBUTE} scan that asks the region server to keep the part's
   * file out of minor compactions when the part makes one file (the build has few parts): the index
   * table's minor compactions would otherwise rewrite the whole new index at once, right after its
   * build, taking a core from its first reads; its files are merged by major compactions.
   */
  public static final String BUILD_KEEP_ATTRIBUTE = "cairn.build.keep";

  /**
   * The attribute of an HBase {@code Scan} of a local index's table that asks its region server to
   * check the entries it reads against their rows and answer the valid ones ({@link
   * IndexLookupScanner}): the index's {@code IndexDefinition} of the wire protocol. Index tables
   * made before carry no {@link #INDEX_OBSERVER}: their region servers answer the plain entries,
   * which the client checks itself.
   */
  public static final String LOOKUP_ATTRIBUTE = "cairn.lookup";

  /**
   * The attribute of a {@link #LOOKUP_ATTRIBUTE} scan that asks for the rows' values (a lookup of
   * the rows); without it, the entries' values (a covered read).
   */
  public static final String LOOKUP_ROWS_ATTRIBUTE = "cairn.lookup.rows";

  /**
   * The qualifier of a {@link #LOOKUP_ATTRIBUTE} scan's answer (a valid entry): one byte, where an
   * entry's own cells have a token's 8 or none.
   */
  public static final byte[] LOOKUP_QUALIFIER = {'k'};

  /**
   * The region observer's class of the tables of local indexes, which answers {@link
   * #LOOKUP_ATTRIBUTE} scans ({@link CairnIndexObserver}).
   */
  public static final String INDEX_OBSERVER = "io.cairn.hbase.server.CairnIndexObserver";

  /** The qualifier of a build's answer: {@link IndexBuildScanner#progress}. */
  public static final byte[] BUILD_QUALIFIER = {'b'};

  /** The family of a row's token (Cairn's local indexes on HBase, io.cairn.hbase.HBaseIndexes). */
  public static final byte[] TOKEN_FAMILY = {'t'};

  /** The qualifier of a row's token. */
  public static final byte[] TOKEN_QUALIFIER = {'t'};

  /** How the name of an index's HBase table ends before the index's id. */
  public static final String INDEX_TABLE_SUFFIX = "_idx";

  /**
   * The qualifier of the HBase table of index {@code indexId} of the table whose HBase qualifier is
   * {@code table} (same namespace): '_' is never followed by a letter in an encoded name.
   */
  public static String indexTable(String table, int indexId) {
    return table + INDEX_TABLE_SUFFIX + indexId;
  }

  /**
   * The attribute of an HBase {@code Scan} of a local index's table that asks the region server to
   * count the region's entries ({@link IndexCountScanner}): the index's wire {@code
   * IndexDefinition}, with {@link #COUNT_ATTRIBUTE} the guide post width. Answered by one cell of
   * qualifier {@link #INDEX_COUNT_QUALIFIER}.
   */
  public static final String INDEX_COUNT_ATTRIBUTE = "cairn.index.count";

  /**
   * The qualifier of an {@link #INDEX_COUNT_ATTRIBUTE} scan's answer: the distinct values of the
   * index's first key part (long, -1 when unknown), then the entries as {@link RegionCount} encodes
   * a count.
   */
  public static final byte[] INDEX_COUNT_QUALIFIER = {'i'};

  /** The qualifier of the cell that answers a {@link #COUNT_ATTRIBUTE} scan. */
  public static final byte[] COUNT_QUALIFIER = {'n'};

  /**
   * The qualifier of a Cairn row's one cell (family {@code c}): with an empty qualifier, HBase
   * 2.6's new version behaviour failed scans after a delete of the cell.
   */
  public static final byte[] ROW_QUALIFIER = {'r'};

  /** Where a table's options are kept in its HBase table descriptor: this prefix, then the name. */
  public static final String OPTION_PREFIX = "cairn.option.";

  /** The descriptor's key of the GUIDE_POSTS_WIDTH option. */
  public static final String GUIDE_POSTS_WIDTH = OPTION_PREFIX + "GUIDE_POSTS_WIDTH";

  /** The guide post width of a table without the option: as Cairn's own store's (32 MiB). */
  public static final long DEFAULT_GUIDE_POSTS_WIDTH = 32L << 20;
}
