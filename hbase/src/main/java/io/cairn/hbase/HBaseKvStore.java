package io.cairn.hbase;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.hbase.server.RemoteErrors;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Cairn's KV SPI over Apache HBase (issue 19, being built): a Cairn table is an HBase table of the
 * store's namespace with one family ({@code c}) and one cell per row, whose value is Cairn's row
 * value; ids come from an increment per table in the namespace's {@code _ids} table. Scan programs
 * run in the region servers ({@code io.cairn.hbase.server.CairnRegionObserver}, set on every table)
 * when the regions' results join by concatenation, else in this JVM over the rows HBase returns
 * ({@link HBaseKvTable#scan}).
 *
 * <p>What HBase cannot give is refused, never faked: a batch is atomic only for one row ({@link
 * HBaseKvTable#mutate}), so a batch of several rows is applied row by row and may not carry a
 * condition; there are no read points yet ({@link #openSnapshot}, scans at a read point), no
 * UNCHANGED_SINCE conditions, and only the table options that map to HBase's settings ({@link
 * HBaseTableOptions}).
 */
public final class HBaseKvStore implements KvStore {
  static final byte[] FAMILY = Bytes.toBytes("c");

  /** The qualifier of a row's one cell ({@link WireNames#ROW_QUALIFIER}). */
  static final byte[] QUALIFIER = WireNames.ROW_QUALIFIER;

  /** The namespace's table of id counters: a row per Cairn table. */
  static final String IDS_TABLE = WireNames.IDS_TABLE;

  /** How old a client's copy of the catalog may grow before a statement reads it again. */
  static final long CATALOG_REFRESH_MILLIS = 250;

  private final AsyncConnection connection;
  private final String namespace;
  private final TableName ids;

  /** The namespace's table of row counts ({@link HBaseStatistics}). */
  private final TableName stats;

  private final ConcurrentMap<String, HBaseKvTable> tables = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * The longest a call to HBase is waited for ({@link #await}): twice the client's operation
   * timeout ({@value HBaseStoreProvider#OPERATION_TIMEOUT}), so that HBase's own timeouts, which
   * say more, come first; but HBase's client waits for a master procedure (a table being created or
   * dropped) with no end of its own, and a statement on a cluster that died meanwhile hung.
   */
  private final long waitMillis;

  private HBaseKvStore(AsyncConnection connection, String namespace, long waitMillis) {
    this.connection = connection;
    this.namespace = namespace;
    this.waitMillis = waitMillis;
    this.ids = TableName.valueOf(namespace, IDS_TABLE);
    this.stats = TableName.valueOf(namespace, HBaseStatistics.TABLE);
  }

  /**
   * Connects to the cluster of {@code conf} and makes the namespace and its id table when missing.
   *
   * @throws CairnException CONNECTION_FAILED when the cluster cannot be reached
   */
  public static HBaseKvStore open(Configuration conf, String namespace) {
    requireNonNull(conf, "conf is null");
    requireNonNull(namespace, "namespace is null");
    AsyncConnection connection;
    try {
      connection = ConnectionFactory.createAsyncConnection(conf).get();
    } catch (ExecutionException e) {
      throw new CairnException(
          ErrorCode.CONNECTION_FAILED,
          "Could not connect to HBase (ZooKeeper quorum ["
              + conf.get("hbase.zookeeper.quorum")
              + "]): "
              + e.getCause(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(ErrorCode.QUERY_CANCELED, "Interrupted while connecting to HBase");
    }
    long operationTimeout =
        conf.getLong(
            HBaseStoreProvider.OPERATION_TIMEOUT,
            HBaseStoreProvider.DEFAULT_OPERATION_TIMEOUT_MILLIS);
    long waitMillis = operationTimeout > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * operationTimeout;
    HBaseKvStore store = new HBaseKvStore(connection, namespace, Math.max(1, waitMillis));
    try {
      store.prepareNamespace();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  private void prepareNamespace() {
    AsyncAdmin admin = connection.getAdmin();
    try {
      await(admin.createNamespace(NamespaceDescriptor.create(namespace).build()), "namespace");
    } catch (CairnException e) {
      if (!(e.getCause() instanceof NamespaceExistException)) {
        throw e;
      }
    }
    for (TableName own : List.of(ids, stats)) {
      try {
        await(
            admin.createTable(
                TableDescriptorBuilder.newBuilder(own)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                    .build()),
            own.getNameAsString());
      } catch (CairnException e) {
        if (!(e.getCause() instanceof TableExistsException)) {
          throw e;
        }
      }
    }
  }

  @Override
  public KvTable createTable(String name, TableSpec spec) {
    checkOpen();
    java.util.Map<String, String> options = HBaseTableOptions.validate(name, spec.options());
    TableName table = HBaseNames.table(namespace, name);
    org.apache.hadoop.hbase.client.TableDescriptor descriptor;
    try {
      descriptor =
          HBaseTableOptions.apply(
              TableDescriptorBuilder.newBuilder(table)
                  .setColumnFamily(family())
                  // the rows' tokens, should the table get local indexes (empty until then)
                  .setColumnFamily(
                      ColumnFamilyDescriptorBuilder.newBuilder(HBaseIndexes.TOKEN_FAMILY)
                          .setMaxVersions(1)
                          .build())
                  .setCoprocessor(WireNames.OBSERVER)
                  .build(),
              options);
    } catch (IOException e) {
      throw new CairnException(ErrorCode.INTERNAL_ERROR, "Table [" + name + "]: " + e, e);
    }
    byte[][] splits = new byte[spec.splitPoints().size()][];
    for (int i = 0; i < splits.length; i++) {
      splits[i] = spec.splitPoints().get(i).toByteArray();
    }
    try {
      await(connection.getAdmin().createTable(descriptor, splits), name);
    } catch (CairnException e) {
      if (e.getCause() instanceof TableExistsException) {
        throw new CairnException(
            ErrorCode.TABLE_ALREADY_EXISTS, "Table [" + name + "] already exists");
      }
      throw e;
    }
    HBaseKvTable created = new HBaseKvTable(this, name, table);
    tables.put(name, created);
    return created;
  }

  /**
   * Cairn's family: one version and HBase's default version behaviour. Deletes are tombstones
   * ({@link HBaseKvTable#tombstone}), not delete markers, so a put right after a delete of its row
   * is seen without HBase's new version behaviour, which made every scan 2.2x slower (tables made
   * by earlier versions of Cairn keep it, and read right either way).
   */
  private static org.apache.hadoop.hbase.client.ColumnFamilyDescriptor family() {
    return ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1).build();
  }

  @Override
  public Optional<KvTable> table(String name) {
    checkOpen();
    HBaseKvTable known = tables.get(name);
    if (known != null) {
      return Optional.of(known);
    }
    Optional<KvTable> view = HBaseSystemViews.view(name, this::table);
    if (view.isPresent()) {
      return view;
    }
    TableName table = HBaseNames.table(namespace, name);
    if (!await(connection.getAdmin().tableExists(table), name)) {
      return Optional.empty();
    }
    return Optional.of(tables.computeIfAbsent(name, n -> new HBaseKvTable(this, n, table)));
  }

  /**
   * No read point to pin: HBase has none store-wide ({@link Guarantees#LATEST_PER_ROW}). The
   * snapshot reads each row's newest version ({@link ScanRequest#LATEST}).
   */
  @Override
  public KvSnapshot openSnapshot() {
    checkOpen();
    return KvSnapshot.LATEST;
  }

  @Override
  public Guarantees guarantees() {
    return Guarantees.LATEST_PER_ROW;
  }

  /**
   * Clients in other processes change the namespace's tables: the driver reads the catalog again
   * when a statement finds its copy older than {@value #CATALOG_REFRESH_MILLIS} ms (one scan of the
   * catalog table's region; the descriptors are decoded only when they changed).
   */
  @Override
  public long catalogRefreshMillis() {
    return CATALOG_REFRESH_MILLIS;
  }

  /**
   * Drops the table, the tables of its indexes, its id counter and its row counts; nothing when it
   * does not exist.
   */
  @Override
  public void dropTable(String name) {
    checkOpen();
    HBaseKvTable dropped = tables.remove(name);
    if (dropped != null) {
      dropped.markDropped();
    }
    TableName table = HBaseNames.table(namespace, name);
    if (!dropHBaseTable(table, name)) {
      return;
    }
    for (TableName t : await(connection.getAdmin().listTableNamesByNamespace(namespace), name)) {
      if (HBaseIndexes.isIndexTableOf(table, t)) {
        dropHBaseTable(t, name);
      }
    }
    await(
        connection
            .getTable(ids)
            .deleteAll(
                List.of(
                    new org.apache.hadoop.hbase.client.Delete(Bytes.toBytes(name)),
                    new org.apache.hadoop.hbase.client.Delete(
                        WireNames.fenceRow(table.getQualifierAsString())))),
        name);
    new HBaseStatistics(this, name, table).drop();
    HBaseIndexStatistics.dropAll(this, name);
  }

  /** Disables and deletes HBase table {@code table}; false when it does not exist. */
  boolean dropHBaseTable(TableName table, String what) {
    AsyncAdmin admin = connection.getAdmin();
    try {
      await(admin.disableTable(table), what);
    } catch (CairnException e) {
      if (e.getCause() instanceof TableNotFoundException) {
        return false;
      }
      if (!(e.getCause() instanceof org.apache.hadoop.hbase.TableNotEnabledException)) {
        throw e;
      }
    }
    try {
      await(admin.deleteTable(table), what);
    } catch (CairnException e) {
      if (e.getCause() instanceof TableNotFoundException) {
        return false; // dropped meanwhile by someone else
      }
      throw e;
    }
    return true;
  }

  /**
   * The index fence of HBase table {@code table} ({@code io.cairn.hbase.server.IndexFence}), null
   * when it has none.
   */
  String readFence(TableName table) {
    byte[] value =
        await(
                connection
                    .getTable(ids)
                    .get(
                        new org.apache.hadoop.hbase.client.Get(
                                WireNames.fenceRow(table.getQualifierAsString()))
                            .addColumn(FAMILY, WireNames.FENCE_QUALIFIER)),
                table.getNameAsString())
            .getValue(FAMILY, WireNames.FENCE_QUALIFIER);
    return value == null ? null : Bytes.toString(value);
  }

  /**
   * Sets the index fence of HBase table {@code table} to {@code fence} if it is still {@code
   * expected} (null: none), in one check-and-put; false when it was not.
   */
  boolean replaceFence(TableName table, String expected, String fence) {
    byte[] row = WireNames.fenceRow(table.getQualifierAsString());
    org.apache.hadoop.hbase.client.CheckAndMutate.Builder check =
        org.apache.hadoop.hbase.client.CheckAndMutate.newBuilder(row);
    if (expected == null) {
      check.ifNotExists(FAMILY, WireNames.FENCE_QUALIFIER);
    } else {
      check.ifEquals(FAMILY, WireNames.FENCE_QUALIFIER, Bytes.toBytes(expected));
    }
    return await(
            connection
                .getTable(ids)
                .checkAndMutate(
                    check.build(
                        new org.apache.hadoop.hbase.client.Put(row)
                            .addColumn(FAMILY, WireNames.FENCE_QUALIFIER, Bytes.toBytes(fence)))),
            table.getNameAsString())
        .isSuccess();
  }

  /** Whether HBase table {@code table} exists now. */
  boolean exists(TableName table) {
    return await(connection.getAdmin().tableExists(table), table.getNameAsString());
  }

  /** Sets the index fence of HBase table {@code table}. */
  void writeFence(TableName table, String fence) {
    await(
        connection
            .getTable(ids)
            .put(
                new org.apache.hadoop.hbase.client.Put(
                        WireNames.fenceRow(table.getQualifierAsString()))
                    .addColumn(FAMILY, WireNames.FENCE_QUALIFIER, Bytes.toBytes(fence))),
        table.getNameAsString());
  }

  /** Makes the HBase table of a local index ({@link HBaseIndexes}) unless it exists. */
  void createIndexTable(TableName index, String what) {
    org.apache.hadoop.hbase.client.TableDescriptor descriptor;
    try {
      descriptor =
          TableDescriptorBuilder.newBuilder(index)
              // split at hbase.hregion.max.filesize (10 GiB by default), not at 256 MiB as a new
              // table by HBase's default: a split right after a build would rewrite the whole
              // index in the background
              .setRegionSplitPolicyClassName(
                  "org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy")
              // entries checked against their rows in the region servers
              .setCoprocessor(WireNames.INDEX_OBSERVER)
              .setColumnFamily(
                  // no Bloom filter: an index is read by ranges, never by row
                  ColumnFamilyDescriptorBuilder.newBuilder(family())
                      .setBloomFilterType(org.apache.hadoop.hbase.regionserver.BloomType.NONE)
                      .build())
              .build();
    } catch (IOException e) {
      throw new CairnException(ErrorCode.INTERNAL_ERROR, "Index table [" + what + "]: " + e, e);
    }
    try {
      await(connection.getAdmin().createTable(descriptor), what);
    } catch (CairnException e) {
      if (!(e.getCause() instanceof TableExistsException)) {
        throw e;
      }
    }
  }

  /** Adds family {@code family} (one version) to HBase table {@code table} unless it has it. */
  void addFamily(TableName table, byte[] family, String what) {
    AsyncAdmin admin = connection.getAdmin();
    if (await(admin.getDescriptor(table), what).hasColumnFamily(family)) {
      return;
    }
    try {
      await(
          admin.addColumnFamily(
              table, ColumnFamilyDescriptorBuilder.newBuilder(family).setMaxVersions(1).build()),
          what);
    } catch (CairnException e) {
      if (!(e.getCause() instanceof org.apache.hadoop.hbase.InvalidFamilyOperationException)) {
        throw e; // not one added meanwhile
      }
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    tables.values().forEach(HBaseKvTable::markDropped);
    tables.clear();
    try {
      connection.close();
    } catch (IOException e) {
      throw new CairnException(ErrorCode.IO_ERROR, "Closing the HBase connection failed: " + e, e);
    }
  }

  AsyncConnection connection() {
    return connection;
  }

  TableName idsTable() {
    return ids;
  }

  TableName statsTable() {
    return stats;
  }

  void checkOpen() {
    if (closed) {
      throw new CairnException(ErrorCode.OBJECT_CLOSED, "The HBase store is closed");
    }
  }

  /**
   * The value of {@code future}; HBase's failure becomes a CairnException (IO_ERROR, the HBase
   * exception as its cause) naming {@code what}, or the Cairn error a region server raised ({@link
   * RemoteErrors}) with its own code. Waits at most {@link #waitMillis}: then IO_ERROR saying so
   * (the call is abandoned).
   */
  <T> T await(Future<T> future, String what) {
    try {
      return future.get(waitMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      future.cancel(true);
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "HBase did not answer on ["
              + what
              + "] within ["
              + waitMillis
              + "] ms (twice "
              + HBaseStoreProvider.OPERATION_TIMEOUT
              + "): is the cluster up?");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      CairnException raised = RemoteErrors.find(cause);
      if (raised != null) {
        throw raised; // a region server's Cairn error, with its code
      }
      throw new CairnException(
          ErrorCode.IO_ERROR, "HBase failed on [" + what + "]: " + cause, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(
          ErrorCode.QUERY_CANCELED, "Interrupted while waiting for HBase on [" + what + "]");
    }
  }
}
