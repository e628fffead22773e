package io.cairn.jdbc.internal.remote;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.kv.AsyncPageScans;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.PageScanner;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableStatistics;
import io.cairn.protocol.Admin;
import io.cairn.protocol.AllocateIds;
import io.cairn.protocol.Compact;
import io.cairn.protocol.Flush;
import io.cairn.protocol.GetStatistics;
import io.cairn.protocol.GetTable;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.Split;
import io.cairn.protocol.TableInfo;
import io.cairn.protocol.UpdateStatistics;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.protocol.wire.WirePrograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A KV table of a Cairn server. Writes are one Mutate each; scans of at most {@value
 * #MAX_GET_POINTS} point keys are one Get, other scans a paged OpenScan/ScanNext ({@link
 * RemoteScanner}); the chunks of parallel scans read their pages asynchronously ({@link
 * RemotePageScanner}), no thread waiting per chunk. Row ids are reserved from the server in blocks,
 * so a table keyed by row ids does not pay a round trip per inserted row.
 */
final class RemoteKvTable implements KvTable, AsyncPageScans {
  /** Scans of this many point keys or fewer are one Get. */
  static final int MAX_GET_POINTS = 64;

  /** How many row ids one AllocateIds reserves for single-id requests. */
  static final int ID_BLOCK = 256;

  /** How long a row count read for the planner is reused. */
  private static final long ROW_COUNT_TTL_NANOS = 1_000_000_000L;

  private final RemoteKvStore store;
  private final String name;
  private long nextId;
  private long idsLeft;
  private long rowCount = -1;
  private long rowCountRead;
  private boolean rowCountKnown;
  private TableStatistics statistics;
  private long statisticsRead;

  RemoteKvTable(RemoteKvStore store, String name) {
    this.store = store;
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  private RpcConnection connection() {
    return store.connection();
  }

  @Override
  public void mutate(List<Mutation> batch, Durability durability) {
    if (batch.isEmpty()) {
      return;
    }
    connection()
        .callAndWait(
            Request.newBuilder()
                .setMutate(
                    Mutate.newBuilder()
                        .addBatches(WireMessages.toProto(name, batch))
                        .setDurability(WireMessages.toProto(durability))),
            "Mutate of " + batch.size() + " rows in " + name);
  }

  /**
   * The deepest expression a scan program sent to a server may have ({@link
   * WirePrograms#MAX_EXPR_DEPTH}, what servers take): above the planner's own limit, so every
   * statement that plans runs remotely as it does embedded; this check only keeps a deeper program
   * (from the KV SPI directly) from costing a round trip to fail.
   */
  static final int MAX_EXPRESSION_DEPTH = WirePrograms.MAX_EXPR_DEPTH;

  /** Fails with STATEMENT_TOO_COMPLEX when {@code request} is too deep to send. */
  private static void checkDepth(ScanRequest request) {
    ScanProgram program = request.program();
    int depth = program.filter().map(f -> WirePrograms.depth(f, MAX_EXPRESSION_DEPTH)).orElse(0);
    for (Expr e : program.projection()) {
      depth = Math.max(depth, WirePrograms.depth(e, MAX_EXPRESSION_DEPTH));
    }
    if (depth > MAX_EXPRESSION_DEPTH) {
      throw new CairnException(
          ErrorCode.STATEMENT_TOO_COMPLEX,
          "Statement too complex: expression nested deeper than ["
              + MAX_EXPRESSION_DEPTH
              + "] levels cannot be sent to a server, found more; split it or use IN lists, CASE"
              + " or helper columns");
    }
  }

  @Override
  public RowScanner scan(ScanRequest request) {
    checkDepth(request);
    boolean points =
        request.ranges().size() <= MAX_GET_POINTS
            && request.ranges().stream().allMatch(KeyRange::isPoint);
    return RemoteScanner.open(connection(), name, request, points);
  }

  @Override
  public PageScanner scanPages(ScanRequest request) {
    checkDepth(request);
    return new RemotePageScanner(connection(), name, request);
  }

  /** Asks the server; cached for a second, as the planner asks for every table it plans. */
  @Override
  public long approximateRowCount() {
    synchronized (this) {
      if (rowCountKnown && System.nanoTime() - rowCountRead < ROW_COUNT_TTL_NANOS) {
        return rowCount;
      }
    }
    long count;
    try {
      count = info().getApproximateRowCount();
    } catch (CairnException e) {
      return -1; // an estimate only: planning goes on without it
    }
    synchronized (this) {
      rowCount = count;
      rowCountRead = System.nanoTime();
      rowCountKnown = true;
    }
    return count;
  }

  /**
   * Asks the server (GetChangeSequence, not cached: a write by any connection must show); {@link
   * Long#MAX_VALUE} when the server does not know the request (an older server).
   */
  @Override
  public long lastChangeSequence() {
    Response response;
    try {
      response =
          connection()
              .callAndWait(
                  Request.newBuilder()
                      .setGetChangeSequence(
                          io.cairn.protocol.GetChangeSequence.newBuilder().setTable(name)),
                  "GetChangeSequence " + name);
    } catch (io.cairn.core.error.CairnException e) {
      if (e.errorCode() == io.cairn.core.error.ErrorCode.PROTOCOL_ERROR) {
        return Long.MAX_VALUE;
      }
      throw e;
    }
    if (!response.hasChangeSequence()) {
      throw RemoteCatalog.unexpected("GetChangeSequence", "ChangeSequence", response);
    }
    return response.getChangeSequence().getSequence();
  }

  /**
   * Asks the server (GetStatistics); cached for a second, so that a burst of queries planning and
   * cutting scans over this table asks once.
   */
  @Override
  public TableStatistics statistics() {
    synchronized (this) {
      if (statistics != null && System.nanoTime() - statisticsRead < ROW_COUNT_TTL_NANOS) {
        return statistics;
      }
    }
    Response response =
        connection()
            .callAndWait(
                Request.newBuilder().setGetStatistics(GetStatistics.newBuilder().setTable(name)),
                "GetStatistics " + name);
    if (!response.hasStatistics()) {
      throw RemoteCatalog.unexpected("GetStatistics", "TableStatistics", response);
    }
    return remember(WireMessages.fromProto(response.getStatistics()));
  }

  /**
   * Asks the server for a local index's statistics (GetStatistics of the index); cached for a
   * second, as the table's.
   */
  @Override
  public java.util.Optional<io.cairn.kv.IndexStatistics> indexStatistics(int indexId) {
    synchronized (this) {
      CachedIndexStatistics c = indexStatistics.get(indexId);
      if (c != null && System.nanoTime() - c.readNanos() < ROW_COUNT_TTL_NANOS) {
        return c.statistics();
      }
    }
    Response response =
        connection()
            .callAndWait(
                Request.newBuilder()
                    .setGetStatistics(
                        GetStatistics.newBuilder()
                            .setTable(name)
                            .setIndex(true)
                            .setIndexId(indexId)),
                "GetStatistics " + name + " index " + indexId);
    if (!response.hasStatistics()) {
      throw RemoteCatalog.unexpected("GetStatistics", "TableStatistics", response);
    }
    java.util.Optional<io.cairn.kv.IndexStatistics> fresh =
        WireMessages.indexStatisticsFromProto(indexId, response.getStatistics());
    synchronized (this) {
      indexStatistics.put(indexId, new CachedIndexStatistics(fresh, System.nanoTime()));
    }
    return fresh;
  }

  private record CachedIndexStatistics(
      java.util.Optional<io.cairn.kv.IndexStatistics> statistics, long readNanos) {}

  /** By index id; guarded by this. */
  private final java.util.Map<Integer, CachedIndexStatistics> indexStatistics =
      new java.util.HashMap<>();

  /** UPDATE STATISTICS on the server (an Admin action), which answers the new statistics. */
  @Override
  public TableStatistics updateStatistics() {
    Response response =
        connection()
            .callAndWait(
                Request.newBuilder()
                    .setAdmin(
                        Admin.newBuilder()
                            .setTable(name)
                            .setUpdateStatistics(UpdateStatistics.getDefaultInstance())),
                "Update of the statistics of " + name);
    if (!response.hasAdminResult() || !response.getAdminResult().hasStatistics()) {
      throw RemoteCatalog.unexpected("Admin UpdateStatistics", "statistics", response);
    }
    TableStatistics fresh = WireMessages.fromProto(response.getAdminResult().getStatistics());
    synchronized (this) {
      rowCountKnown = false; // the server's estimate changed with them
      indexStatistics.clear(); // collected with them
    }
    return remember(fresh);
  }

  private synchronized TableStatistics remember(TableStatistics fresh) {
    statistics = fresh;
    statisticsRead = System.nanoTime();
    return fresh;
  }

  @Override
  public long allocateIds(long count) {
    if (count <= 0) {
      throw new IllegalArgumentException("count must be positive: " + count);
    }
    if (count > 1) {
      return reserve(count);
    }
    synchronized (this) {
      if (idsLeft == 0) {
        nextId = reserve(ID_BLOCK);
        idsLeft = ID_BLOCK;
      }
      idsLeft--;
      return nextId++;
    }
  }

  private long reserve(long count) {
    Response response =
        connection()
            .callAndWait(
                Request.newBuilder()
                    .setAllocateIds(AllocateIds.newBuilder().setTable(name).setCount(count)),
                "AllocateIds of " + count + " in " + name);
    if (!response.hasIdRange()) {
      throw RemoteCatalog.unexpected("AllocateIds", "IdRange", response);
    }
    return response.getIdRange().getFirst();
  }

  @Override
  public Map<String, String> options() {
    return Map.copyOf(info().getOptionsMap());
  }

  @Override
  public void alter(Map<String, String> options) {
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "KV table [" + name + "] cannot be altered over the network: use ALTER TABLE ... SET");
  }

  @Override
  public void flush() {
    admin(Admin.newBuilder().setTable(name).setFlush(Flush.getDefaultInstance()), "Flush");
  }

  @Override
  public void split() {
    admin(Admin.newBuilder().setTable(name).setSplit(Split.getDefaultInstance()), "Split");
  }

  @Override
  public void compact(boolean major) {
    admin(
        Admin.newBuilder().setTable(name).setCompact(Compact.newBuilder().setMajor(major)),
        major ? "Major compaction" : "Compaction");
  }

  private void admin(Admin.Builder admin, String what) {
    connection().callAndWait(Request.newBuilder().setAdmin(admin), what + " of " + name);
  }

  @Override
  public List<RegionInfo> regions() {
    List<RegionInfo> regions = new ArrayList<>();
    for (io.cairn.protocol.Region r : info().getRegionsList()) {
      regions.add(WireMessages.fromProto(r));
    }
    return regions;
  }

  private TableInfo info() {
    Response response =
        connection()
            .callAndWait(
                Request.newBuilder().setGetTable(GetTable.newBuilder().setTable(name)),
                "GetTable " + name);
    if (!response.hasTableInfo()) {
      throw RemoteCatalog.unexpected("GetTable", "TableInfo", response);
    }
    TableInfo info = response.getTableInfo();
    if (!info.getExists()) {
      throw new CairnException(
          ErrorCode.TABLE_NOT_FOUND,
          "KV table [" + name + "] does not exist on the Cairn server at " + connection().server());
    }
    return info;
  }

  @Override
  public String toString() {
    return "RemoteKvTable[" + name + " on " + connection().server() + "]";
  }
}
