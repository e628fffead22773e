package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.IndexDescriptor.State;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.SortOrder;
import io.cairn.protocol.CreateIndex;
import io.cairn.protocol.DropIndex;
import io.cairn.protocol.IndexResult;
import io.cairn.protocol.RebuildIndex;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.VerifyIndex;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The local-index requests against a real server: answers, errors, and what is left unchanged. */
@ExtendWith(NettyLeakCheck.class)
class TestServerIndexRequests {
  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  static IndexDescriptor draft(String name) {
    return new IndexDescriptor(
        0,
        name,
        List.of(new IndexColumn(TestingRpcTables.V, "V", SortOrder.ASC)),
        List.of(2),
        State.BUILDING);
  }

  static Request.Builder createIndex(String table, IndexDescriptor draft, boolean ifNotExists) {
    return Request.newBuilder()
        .setCreateIndex(
            CreateIndex.newBuilder()
                .setTable(table)
                .setDraft(ByteString.copyFrom(DescriptorSerializer.serializeIndex(draft)))
                .setIfNotExists(ifNotExists));
  }

  @Test
  void badRequestsAreRefusedAndChangeNothing() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TestingRpcTables.create(client, "T");
      long version =
          client.call(createIndex("MISSING", draft("I"), false)).getCatalog().getVersion();

      assertError(
          client.call(
              Request.newBuilder()
                  .setCreateIndex(
                      CreateIndex.newBuilder()
                          .setTable("T")
                          .setDraft(ByteString.copyFromUtf8("not an index")))),
          ErrorCode.PROTOCOL_ERROR);
      assertError(
          client.call(createIndex("MISSING", draft("I"), false)), ErrorCode.TABLE_NOT_FOUND);
      Response onAView =
          client.call(
              Request.newBuilder()
                  .setCreateIndex(
                      CreateIndex.newBuilder()
                          .setSchema("SYSTEM")
                          .setTable("STATS")
                          .setDraft(
                              ByteString.copyFrom(
                                  DescriptorSerializer.serializeIndex(draft("I"))))));
      assertError(onAView, ErrorCode.NOT_SUPPORTED);
      assertError(
          client.call(Request.newBuilder().setDropIndex(DropIndex.newBuilder().setName("I"))),
          ErrorCode.INDEX_NOT_FOUND);
      Response dropIfExists =
          client.call(
              Request.newBuilder()
                  .setDropIndex(DropIndex.newBuilder().setName("I").setIfExists(true)));
      assertThat(dropIfExists.getIndexResult()).isEqualTo(IndexResult.getDefaultInstance());
      assertError(
          client.call(
              Request.newBuilder()
                  .setRebuildIndex(RebuildIndex.newBuilder().setTable("T").setName("I"))),
          ErrorCode.INDEX_NOT_FOUND);
      Response verify =
          client.call(
              Request.newBuilder()
                  .setVerifyIndex(VerifyIndex.newBuilder().setTable("T").setName("I")));
      assertError(verify, ErrorCode.INDEX_NOT_FOUND);
      assertThat(verify.getCatalog().getVersion()).isEqualTo(version);
    }
  }
}
