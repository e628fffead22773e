package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.kv.KvStore;
import io.cairn.kv.KvStoreProvider;
import io.cairn.store.Stores;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdbc:cairn:hbase:...} opens the store of whatever {@link KvStoreProvider} of scheme {@code
 * hbase} is on the class path (the cairn-hbase artifact's, tested on a mini-cluster in the hbase
 * module), and says what to add when none is.
 */
@EmbeddedOnly("the driver's lookup of stores on the class path")
class TestProvidedStores {
  /** The settings each location was opened with. */
  static final Map<String, Map<String, String>> OPENED = new ConcurrentHashMap<>();

  /** A provider of scheme hbase whose stores are in memory: the lookup's test, not HBase's. */
  public static final class InMemoryProvider implements KvStoreProvider {
    @Override
    public String scheme() {
      return "hbase";
    }

    @Override
    public KvStore open(String location, Map<String, String> settings) {
      OPENED.put(location, Map.copyOf(settings));
      return Stores.inMemory("provided-" + location.replace(':', '-'));
    }
  }

  @Test
  void withoutTheHBaseArtifactTheUrlSaysWhatToAdd() {
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:cairn:hbase:localhost:2181"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
        .hasMessageContaining("[hbase:localhost:2181]")
        .hasMessageContaining("add the cairn-hbase artifact");
  }

  @Test
  void aProviderOnTheClassPathOpensTheStore(@TempDir Path dir) throws Exception {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(
        services.resolve(KvStoreProvider.class.getName()), InMemoryProvider.class.getName() + "\n");
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      thread.setContextClassLoader(loader);
      String url = "jdbc:cairn:hbase:zk1:2181/hb;hbase.rpc.timeout=2000;cairn.x=y";
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE T (K INTEGER PRIMARY KEY, V VARCHAR(5))");
        s.execute("UPSERT INTO T VALUES (1, 'one'), (2, 'two')");
        // a second connection shares the open store
        try (Connection again = DriverManager.getConnection("jdbc:cairn:hbase:zk1:2181/hb");
            ResultSet rs = again.createStatement().executeQuery("SELECT COUNT(*) FROM T")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(2);
        }
      }
      assertThat(OPENED)
          .containsEntry("zk1:2181/hb", Map.of("hbase.rpc.timeout", "2000", "cairn.x", "y"));
    } finally {
      thread.setContextClassLoader(before);
    }
  }
}
