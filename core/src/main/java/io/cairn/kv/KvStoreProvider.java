package io.cairn.kv;

import java.util.Map;

/**
 * A store the driver finds on the class path ({@link java.util.ServiceLoader}, registered in {@code
 * META-INF/services/io.cairn.kv.KvStoreProvider}) rather than links to: URLs {@code
 * jdbc:cairn:SCHEME:LOCATION} open it, so that a backend with dependencies of its own (HBase and
 * Hadoop for {@code hbase}) stays out of the driver's jar and comes as its own artifact.
 */
public interface KvStoreProvider {
  /** The URL scheme it opens: {@code SCHEME} in {@code jdbc:cairn:SCHEME:LOCATION}. */
  String scheme();

  /**
   * Opens the store at {@code location} (what follows {@code SCHEME:}) with {@code settings} (the
   * connection's properties for stores: {@code cairn.*} and the backend's own, e.g. {@code
   * hbase.*}).
   *
   * @throws io.cairn.core.error.CairnException INVALID_URL for a malformed location or an unknown
   *     setting, CONNECTION_FAILED when the store cannot be reached
   */
  KvStore open(String location, Map<String, String> settings);
}
