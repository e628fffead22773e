package io.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.Durability;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.StoreConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/cairn store check|salvage} over a store whose log lost a segment. */
class TestStoreMain {
  private static final int ROWS = 600;

  @TempDir Path temp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private Path store() {
    return temp.resolve("store");
  }

  /**
   * Commits ROWS rows one at a time with SYNC into a store whose log rolls every 4 KiB, then drops
   * the store as kill -9 would: everything is in the log only, over several segments.
   */
  private void writeAndCrash() {
    EmbeddedStore s =
        EmbeddedStore.open(
            store(),
            StoreConfig.from(
                Map.of(
                    StoreConfig.WAL_SEGMENT_SIZE, "4k", StoreConfig.MEMSTORE_FLUSH_SIZE, "64m")));
    KvTable t = s.createTable("T");
    for (int i = 0; i < ROWS; i++) {
      Bytes key = Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(i).array());
      Bytes value = Bytes.wrap(ByteBuffer.allocate(64).putInt(i * 10).array());
      t.mutate(List.of(new Mutation.Put(key, value)), Durability.SYNC);
    }
    s.abandonForTesting();
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> files = Files.list(store().resolve("wal"))) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
    }
  }

  private int run(String... args) {
    out.getBuffer().setLength(0);
    return StoreMain.run(new PrintWriter(out), new PrintWriter(err), args);
  }

  @Test
  void theStoreCommandChecksAndSalvages() throws IOException {
    writeAndCrash();
    List<Path> segments = segments();
    assertThat(segments).as("log segments of the crashed store").hasSizeGreaterThanOrEqualTo(5);
    Path middle = segments.get(segments.size() / 2);
    Files.delete(middle);

    assertThat(run("check", store().toString())).isEqualTo(1);
    assertThat(err.toString()).contains("[XX001]", middle.getFileName().toString());

    assertThat(run("salvage", store().toString())).isEqualTo(0);
    assertThat(out.toString())
        .contains("salvaged: 1 damaged or missing file(s)", middle + " (missing)");

    assertThat(run("check", store().toString())).isEqualTo(0);
    assertThat(out.toString()).contains("every check passed");

    assertThat(run("check", temp.resolve("nothing").toString())).isEqualTo(1);
    assertThat(temp.resolve("nothing")).doesNotExist();
  }
}
