package io.cairn.hbase.server;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.kv.IndexSpec;
import io.cairn.protocol.IndexDefinition;
import io.cairn.protocol.wire.WirePrograms;
import java.io.IOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * A local index as a scan names it to a region server (a build, a lookup): the wire protocol's
 * {@code IndexDefinition}, its table's row layout and the index.
 */
record WireIndex(RowLayout layout, IndexSpec index) {
  /**
   * The index of {@code definition}; a malformed one closes {@code region} and fails without a
   * retry (it fails alike on every server).
   */
  static WireIndex parse(byte[] definition, RegionScanner region) throws IOException {
    try {
      IndexDefinition message = IndexDefinition.parseFrom(definition);
      return new WireIndex(
          WirePrograms.fromProto(message.getTable()), WirePrograms.fromProto(message));
    } catch (IOException | CairnException e) {
      region.close();
      throw new DoNotRetryIOException("Not a valid Cairn index definition: " + e.getMessage(), e);
    }
  }
}
