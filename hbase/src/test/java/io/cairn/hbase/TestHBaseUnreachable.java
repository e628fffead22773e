package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.net.ServerSocket;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A quorum nobody answers: a clear CONNECTION_FAILED naming it, after HBase's own retries (about 10
 * s with its defaults), never a hang.
 */
class TestHBaseUnreachable {
  @Test
  @Timeout(120)
  void anUnreachableQuorumFailsTheOpenWithItsAddress() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", port);
    assertThatThrownBy(() -> HBaseKvStore.open(conf, "cairn_test"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              org.assertj.core.api.Assertions.assertThat(e.errorCode())
                  .isEqualTo(ErrorCode.CONNECTION_FAILED);
              org.assertj.core.api.Assertions.assertThat(e.getMessage()).contains("127.0.0.1");
            });
  }
}
