package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors;
import io.cairn.protocol.TableInfo;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * HBase 2.6 runs in the JVM of Cairn's protocol classes: HBase's protobuf-2.5-generated code (the
 * MultiRowMutationEndpoint its master puts on hbase:meta) on com.google.protobuf 2.5, Cairn's
 * messages on their own relocated runtime (cairn-protocol-relocated); and a Cairn message stored as
 * one cell of a table in a {@code cairn} namespace, Cairn's row layout (one family, one cell per
 * row), reads back intact.
 */
@ExtendWith(MiniHBase.class)
class TestMiniHBase {
  private static final byte[] FAMILY = Bytes.toBytes("c");
  private static final byte[] QUALIFIER = new byte[0];

  @Test
  void protobuf25GeneratedCodeOfHBaseLoadsBesideCairns() throws Exception {
    Descriptors.ServiceDescriptor service =
        (Descriptors.ServiceDescriptor)
            Class.forName(
                    "org.apache.hadoop.hbase.protobuf.generated.MultiRowMutationProtos"
                        + "$MultiRowMutationService")
                .getMethod("getDescriptor")
                .invoke(null);
    assertThat(service.getFullName()).isEqualTo("hbase.pb.MultiRowMutationService");
    assertThat(TableInfo.getDescriptor().getFullName()).isEqualTo("cairn.rpc.TableInfo");
  }

  @Test
  void aCairnMessageIsOneCellOfARowAndReadsBack(HBaseTestingUtility hbase) throws Exception {
    assertThat(hbase.getMiniHBaseCluster().getLiveRegionServerThreads()).hasSize(1);
    TableName name = TableName.valueOf("cairn", "mini_hbase_test");
    TableInfo info =
        TableInfo.newBuilder()
            .setExists(true)
            .setTable("LINEITEM")
            .putOptions("COMPRESSION", "ZSTD")
            .setApproximateRowCount(6_001_215)
            .build();
    try (AsyncConnection connection =
        ConnectionFactory.createAsyncConnection(hbase.getConfiguration()).get()) {
      AsyncAdmin admin = connection.getAdmin();
      admin.createNamespace(NamespaceDescriptor.create("cairn").build()).get();
      admin
          .createTable(
              TableDescriptorBuilder.newBuilder(name)
                  .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                  .build())
          .get();
      AsyncTable<?> table = connection.getTable(name);
      byte[] row = Bytes.toBytes("row-1");
      table.put(new Put(row).addColumn(FAMILY, QUALIFIER, info.toByteArray())).get();
      Result result = table.get(new Get(row)).get();
      assertThat(result.size()).isEqualTo(1);
      assertThat(TableInfo.parseFrom(result.getValue(FAMILY, QUALIFIER))).isEqualTo(info);
      assertThat(table.get(new Get(Bytes.toBytes("row-2"))).get().isEmpty()).isTrue();
      admin.disableTable(name).get();
      admin.deleteTable(name).get();
    }
  }
}
