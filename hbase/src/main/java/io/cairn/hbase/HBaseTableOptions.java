package io.cairn.hbase;

import io.cairn.core.catalog.TableOptions;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * Cairn's table options as HBase's settings of the table and its family: DATA_BLOCK_ENCODING,
 * BLOOMFILTER, BLOCKSIZE, TTL, BLOCKCACHE and IN_MEMORY of the family, DURABILITY of the table,
 * COMPRESSION NONE and GZIP (the codecs every region server has); GUIDE_POSTS_WIDTH is Cairn's own
 * (UPDATE STATISTICS cuts regions into chunks at it). Refused with NOT_SUPPORTED until they take
 * effect on HBase: LZ4, SNAPPY and ZSTD (codecs the region servers must be set up for). The options
 * as given are kept in the table descriptor ({@value #PREFIX}NAME), where {@link #of} reads them
 * back.
 */
final class HBaseTableOptions {
  static final String PREFIX = io.cairn.hbase.server.WireNames.OPTION_PREFIX;

  private HBaseTableOptions() {}

  /** {@code options} validated (canonical names and values), or the error naming the problem. */
  static Map<String, String> validate(String table, Map<String, String> options) {
    Map<String, String> valid = TableOptions.validate(options);
    String compression = valid.get("COMPRESSION");
    if (compression != null && !compression.equals("NONE") && !compression.equals("GZIP")) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Table ["
              + table
              + "]: COMPRESSION on HBase: expected NONE or GZIP (LZ4, SNAPPY and ZSTD need codecs"
              + " set up on every region server), found ["
              + compression
              + "]");
    }
    if (valid.containsKey("TTL") && Long.parseLong(valid.get("TTL")) > Integer.MAX_VALUE) {
      throw new CairnException(
          ErrorCode.INVALID_TABLE_OPTION_VALUE,
          "Table ["
              + table
              + "]: TTL on HBase: expected at most "
              + Integer.MAX_VALUE
              + " seconds, found ["
              + valid.get("TTL")
              + "]");
    }
    return valid;
  }

  /** The table's descriptor with {@code options} (validated) applied and kept. */
  static TableDescriptor apply(TableDescriptor base, Map<String, String> options) {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(base);
    ColumnFamilyDescriptorBuilder family =
        ColumnFamilyDescriptorBuilder.newBuilder(base.getColumnFamily(HBaseKvStore.FAMILY));
    for (Map.Entry<String, String> o : options.entrySet()) {
      String v = o.getValue();
      switch (o.getKey()) {
        case "DATA_BLOCK_ENCODING" ->
            family.setDataBlockEncoding(
                v.equals("ROW_INDEX")
                    ? DataBlockEncoding.ROW_INDEX_V1
                    : DataBlockEncoding.valueOf(v));
        case "COMPRESSION" ->
            family.setCompressionType(
                v.equals("GZIP") ? Compression.Algorithm.GZ : Compression.Algorithm.NONE);
        case "BLOOMFILTER" -> family.setBloomFilterType(BloomType.valueOf(v));
        case "BLOCKSIZE" -> family.setBlocksize(Integer.parseInt(v));
        case "TTL" -> family.setTimeToLive(Integer.parseInt(v));
        case "BLOCKCACHE" -> family.setBlockCacheEnabled(Boolean.parseBoolean(v));
        case "IN_MEMORY" -> family.setInMemory(Boolean.parseBoolean(v));
        case "DURABILITY" ->
            table.setDurability(HBaseKvTable.durability(io.cairn.kv.Durability.valueOf(v)));
        case "GUIDE_POSTS_WIDTH" -> {} // Cairn's own: UPDATE STATISTICS reads it (below)
        default ->
            throw CairnException.internal("Table option [" + o.getKey() + "] has no HBase setting");
      }
      table.setValue(PREFIX + o.getKey(), v);
    }
    return table.modifyColumnFamily(family.build()).build();
  }

  /** The Cairn options kept in {@code descriptor}. */
  static Map<String, String> of(TableDescriptor descriptor) {
    Map<String, String> out = new TreeMap<>();
    descriptor
        .getValues()
        .forEach(
            (k, v) -> {
              String key = k.toString();
              if (key.startsWith(PREFIX)) {
                out.put(key.substring(PREFIX.length()), v.toString());
              }
            });
    return out;
  }
}
