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

  /** A table's fence as read: the sets of index ids writes may keep (null: any), when read. */
  private record Known(byte[][] accepted, String text, long readAtNanos) {
    boolean accepts(byte[] writer) {
      if (accepted == null) {
        return true;
      }
      for (byte[] a : accepted) {
        if (Arrays.equals(a, writer)) {
          return true;
        }
      }
      return false;
    }
  }

  private static final byte[] NONE = new byte[0];

  private final ConcurrentMap<TableName, Known> known = new ConcurrentHashMap<>();

  /**
   * Refuses the batch when one of its writes maintains other indexes than the table's fence names,
   * with CATALOG_OUT_OF_DATE (55000) through HBase's RPC ({@link RemoteErrors}). No allocation per
   * write: a batch's writes mostly carry the same attribute, compared as bytes.
   */
  void check(RegionCoprocessorEnvironment env, MiniBatchOperationInProgress<Mutation> batch)
      throws IOException {
    TableName table = env.getRegionInfo().getTable();
    Known fence = null;
    boolean fresh = false;
    byte[] passed = null;
    for (int i = 0; i < batch.size(); i++) {
      byte[] attribute = batch.getOperation(i).getAttribute(WireNames.INDEXES_ATTRIBUTE);
      byte[] writer = attribute == null ? NONE : attribute;
      if (passed != null && Arrays.equals(passed, writer)) {
        continue;
      }
      if (fence == null) {
        fence = fence(env, table, false);
      }
      if (!fence.accepts(writer) && !fresh) {
        // the fence may have changed since it was read: read it again before refusing
        fence = fence(env, table, true);
        fresh = true;
      }
      if (!fence.accepts(writer)) {
        throw new DoNotRetryIOException(
            RemoteErrors.message(
                ErrorCode.CATALOG_OUT_OF_DATE,
                "Table ["
                    + table.getQualifierAsString()
                    + "]: its local indexes changed (writes keep ["
                    + fence.text()
                    + "]) since this client read the catalog (it keeps ["
                    + new String(writer, StandardCharsets.UTF_8)
                    + "]): the driver has read the catalog again; run the statement again"));
      }
      passed = writer;
    }
  }

  private Known fence(RegionCoprocessorEnvironment env, TableName table, boolean fresh)
      throws IOException {
    Known k = known.get(table);
    long now = System.nanoTime();
    if (!fresh && k != null && now - k.readAtNanos() < CACHE_MILLIS * 1_000_000L) {
      return k;
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
    Known fence;
    if (value == null) {
      fence = new Known(null, "any", now);
    } else {
      String text = new String(value, StandardCharsets.UTF_8);
      fence =
          new Known(
              Arrays.stream(text.split(";", -1))
                  .map(set -> set.getBytes(StandardCharsets.UTF_8))
                  .toArray(byte[][]::new),
              text,
              now);
    }
    known.put(table, fence);
    return fence;
  }
}
