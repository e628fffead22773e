package io.cairn.hbase.server;

import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;

/**
 * A table's index fence, checked by the region servers at every write: the local indexes each
 * write's client maintains ({@link WireNames#INDEXES_ATTRIBUTE}) must be those the table has. A
 * client in another JVM that read the catalog before a CREATE or DROP INDEX would otherwise write
 * rows without their entries, which index reads would then miss.
 *
 * <p>The fence is a cell of the namespace's {@value WireNames#IDS_TABLE} table ({@link
 * WireNames#fenceRow}): the ids of the indexes writes must maintain, ascending, separated by ',';
 * several such sets separated by ';' while an index change is under way (the writers of before and
 * after pass). No fence: no check (a table that never had indexes). A region server reads a table's
 * fence at most every {@value #CACHE_MILLIS} ms, and again before refusing a write (so a client
 * with the new indexes is never refused); the client that changes the indexes waits {@link
 * WireNames#FENCE_SETTLE_MILLIS} ms after setting the new fence before it builds, so that every
 * region server has read it by then.
 */
final class IndexFence {
  /** How long a region server keeps a table's fence before reading it again. */
  static final long CACHE_MILLIS = WireNames.FENCE_CACHE_MILLIS;

  private record Known(String fence, long readAtNanos) {}

  private final ConcurrentMap<TableName, Known> known = new ConcurrentHashMap<>();

  /**
   * Refuses the batch when one of its writes maintains other indexes than the table's fence names,
   * with CATALOG_OUT_OF_DATE (55000) through HBase's RPC ({@link RemoteErrors}).
   */
  void check(RegionCoprocessorEnvironment env, MiniBatchOperationInProgress<Mutation> batch)
      throws IOException {
    TableName table = env.getRegionInfo().getTable();
    String fence = null;
    boolean fresh = false;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.getOperation(i);
      byte[] attribute = m.getAttribute(WireNames.INDEXES_ATTRIBUTE);
      String writer = attribute == null ? "" : new String(attribute, StandardCharsets.UTF_8);
      if (fence == null) {
        fence = fence(env, table, false);
      }
      if (accepts(fence, writer)) {
        continue;
      }
      if (!fresh) { // the fence may have changed since it was read: read it again before refusing
        fence = fence(env, table, true);
        fresh = true;
        if (accepts(fence, writer)) {
          continue;
        }
      }
      throw new DoNotRetryIOException(
          RemoteErrors.message(
              ErrorCode.CATALOG_OUT_OF_DATE,
              "Table ["
                  + table.getQualifierAsString()
                  + "]: its local indexes changed (writes keep ["
                  + fence
                  + "]) since this client read the catalog (it keeps ["
                  + writer
                  + "]): reconnect to read it again"));
    }
  }

  /** Whether {@code fence} ("" for none) lets a writer of indexes {@code writer} write. */
  static boolean accepts(String fence, String writer) {
    return NO_FENCE.equals(fence) || Arrays.asList(fence.split(";", -1)).contains(writer);
  }

  /** What {@link #fence} answers for a table without a fence: every writer passes. */
  private static final String NO_FENCE = "*";

  private String fence(RegionCoprocessorEnvironment env, TableName table, boolean fresh)
      throws IOException {
    Known k = known.get(table);
    long now = System.nanoTime();
    if (!fresh && k != null && now - k.readAtNanos() < CACHE_MILLIS * 1_000_000L) {
      return k.fence();
    }
    TableName ids = TableName.valueOf(table.getNamespaceAsString(), WireNames.IDS_TABLE);
    Result r;
    try (Table t = env.getConnection().getTable(ids)) {
      r =
          t.get(
              new Get(WireNames.fenceRow(table.getQualifierAsString()))
                  .addColumn(WireNames.FAMILY, WireNames.FENCE_QUALIFIER));
    }
    byte[] value = r.getValue(WireNames.FAMILY, WireNames.FENCE_QUALIFIER);
    String fence = value == null ? NO_FENCE : new String(value, StandardCharsets.UTF_8);
    known.put(table, new Known(fence, now));
    return fence;
  }
}
