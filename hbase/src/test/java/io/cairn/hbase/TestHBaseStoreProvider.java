package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStoreProvider;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The {@code hbase} store provider: found by the driver, and what its locations and settings mean.
 */
class TestHBaseStoreProvider {
  @Test
  void theDriverFindsItOnTheClassPath() {
    assertThat(ServiceLoader.load(KvStoreProvider.class))
        .anySatisfy(p -> assertThat(p).isInstanceOf(HBaseStoreProvider.class))
        .anySatisfy(p -> assertThat(p.scheme()).isEqualTo("hbase"));
  }

  @Test
  void theLocationNamesQuorumPortAndParentZnode() {
    Configuration conf =
        HBaseStoreProvider.configuration(
            "zk1,zk2.example:2182/hbase-unsecure/",
            Map.of("hbase.client.retries.number", "3", "cairn.hbase.namespace", "sales"));
    assertThat(conf.get("hbase.zookeeper.quorum")).isEqualTo("zk1,zk2.example");
    assertThat(conf.get("hbase.zookeeper.property.clientPort")).isEqualTo("2182");
    assertThat(conf.get("zookeeper.znode.parent")).isEqualTo("/hbase-unsecure");
    assertThat(conf.get("hbase.client.retries.number")).isEqualTo("3");
    Configuration defaults = HBaseStoreProvider.configuration("localhost", Map.of());
    assertThat(defaults.get("hbase.zookeeper.property.clientPort")).isEqualTo("2181");
    assertThat(defaults.get("zookeeper.znode.parent")).isEqualTo("/hbase");
  }

  @Test
  void badLocationsAndSettingsAreRefused() {
    for (String location : new String[] {"", ":2181", "zk1:99999", "zk1 zk2", "zk1:x"}) {
      assertThatThrownBy(() -> HBaseStoreProvider.configuration(location, Map.of()))
          .as(location)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_URL));
    }
    assertThatThrownBy(
            () -> HBaseStoreProvider.configuration("zk1", Map.of("cairn.block-cache.size", "1g")))
        .hasMessageContaining("[cairn.block-cache.size] does not apply to an HBase store");
    assertThatThrownBy(
            () -> HBaseStoreProvider.configuration("zk1", Map.of("cairn.hbase.namespace", "a-b")))
        .hasMessageContaining("found [a-b]");
  }
}
