package io.cairn.store;

import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.store.table.TableManifest;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage to a durable store's files that a crash cannot cause (a deleted log segment, a block file
 * copied over another) fails the open with DATA_CORRUPTED naming the file, changing nothing; {@code
 * cairn.open.salvage=true} opens anyway, sets the damaged files aside and reports the loss; a torn
 * log tail (what kill -9 leaves) still opens. Real files, stores abandoned as a killed process
 * would leave them.
 */
class TestStoreDamage {
  private static final int ROWS = 600;

  @TempDir Path temp;

  private Path store() {
    return temp.resolve("store");
  }

  /** A store whose log rolls every 4 KiB and whose memstores are never flushed on their own. */
  private static StoreConfig config(boolean salvage) {
    return StoreConfig.from(
        Map.of(
            StoreConfig.WAL_SEGMENT_SIZE, "4k",
            StoreConfig.MEMSTORE_FLUSH_SIZE, "64m",
            StoreConfig.OPEN_SALVAGE, String.valueOf(salvage)));
  }

  private EmbeddedStore open(boolean salvage) {
    return EmbeddedStore.open(store(), config(salvage));
  }

  /**
   * Commits rows 0..ROWS-1 one at a time with SYNC (each acknowledged once written to the log),
   * then drops the store as kill -9 would: everything is in the log only, over several segments.
   */
  private void writeAndCrash() {
    EmbeddedStore s = open(false);
    KvTable t = s.createTable("T");
    for (int i = 0; i < ROWS; i++) {
      t.mutate(List.of(put(i, i * 10)), Durability.SYNC);
    }
    s.abandonForTesting();
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> files = Files.list(store().resolve("wal"))) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
    }
  }

  private static Map<Path, byte[]> contents(Path dir) throws IOException {
    Map<Path, byte[]> all = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        if (!p.getFileName().toString().equals(EmbeddedStore.LOCK_FILE)) {
          all.put(dir.relativize(p), Files.readAllBytes(p));
        }
      }
    }
    return all;
  }

  private static void assertSameFiles(Map<Path, byte[]> before, Map<Path, byte[]> after) {
    assertThat(after.keySet()).as("files after the failed open").isEqualTo(before.keySet());
    for (Map.Entry<Path, byte[]> e : before.entrySet()) {
      assertThat(Arrays.equals(after.get(e.getKey()), e.getValue()))
          .as("%s unchanged by the failed open", e.getKey())
          .isTrue();
    }
  }

  /** Opening fails with DATA_CORRUPTED whose message contains {@code parts}, changing no file. */
  private void assertOpenFails(String... parts) throws IOException {
    Map<Path, byte[]> before = contents(store());
    assertThatThrownBy(() -> open(false).close())
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATA_CORRUPTED))
        .hasMessageContainingAll(parts)
        .hasMessageContaining(StoreConfig.OPEN_SALVAGE);
    assertSameFiles(before, contents(store()));
  }

  private static long count(EmbeddedStore s) {
    return readAll(s.table("T").orElseThrow(), scanAll()).size();
  }

  @Test
  void aMissingMiddleSegmentFailsTheOpenNamingIt() throws IOException {
    writeAndCrash();
    List<Path> segments = segments();
    assertThat(segments).as("log segments of the crashed store").hasSizeGreaterThanOrEqualTo(5);
    Path middle = segments.get(segments.size() / 2);
    Files.delete(middle);
    assertOpenFails(middle.getFileName().toString(), "is missing", "wal.marker");
  }

  @Test
  void aMissingNewestSegmentFailsTheOpen() throws IOException {
    writeAndCrash();
    List<Path> segments = segments();
    Path newest = segments.get(segments.size() - 1);
    Files.delete(newest);
    assertOpenFails(newest.getFileName().toString(), "newest segment");
  }

  @Test
  void aMissingOldestSegmentFailsTheOpen() throws IOException {
    writeAndCrash();
    Path oldest = segments().get(0);
    Files.delete(oldest);
    assertOpenFails(oldest.getFileName().toString(), "is missing");
  }

  @Test
  void anEmptiedLogDirectoryFailsTheOpen() throws IOException {
    writeAndCrash();
    try (Stream<Path> files = Files.list(store().resolve("wal"))) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    assertOpenFails("wal.marker", "is missing");
  }

  @Test
  void aSegmentCutInsideItsHeaderAfterTheMarkerNamedItFailsTheOpen() throws IOException {
    writeAndCrash();
    Path newest = segments().get(segments().size() - 1);
    truncate(newest, 10);
    assertOpenFails(newest.getFileName().toString(), "shorter than its header");
  }

  @Test
  void aTornTailOfTheNewestSegmentStillOpens() throws IOException {
    writeAndCrash();
    Path newest = segments().get(segments().size() - 1);
    truncate(newest, Files.size(newest) - 3); // the last record, half written
    try (EmbeddedStore s = open(false)) {
      assertThat(s.salvageReport().isEmpty()).isTrue();
      assertThat(count(s)).as("every row but the torn last one").isEqualTo(ROWS - 1);
    }
  }

  @Test
  void reopeningAfterCrashesAndCleanClosesStaysChecked() throws IOException {
    writeAndCrash();
    String highestBefore = segments().get(segments().size() - 1).getFileName().toString();
    try (EmbeddedStore s = open(false)) {
      assertThat(count(s)).isEqualTo(ROWS);
      s.table("T").orElseThrow().mutate(List.of(put(ROWS, 1)), Durability.SYNC);
    }
    assertThat(segments()).as("segments after a clean close").isEmpty();
    EmbeddedStore s = open(false);
    s.table("T").orElseThrow().mutate(List.of(put(ROWS + 1, 1)), Durability.SYNC);
    s.abandonForTesting();
    // numbers are not reused after a clean close emptied the log
    List<Path> segments = segments();
    assertThat(segments).hasSize(1);
    assertThat(segments.get(0).getFileName().toString()).isGreaterThan(highestBefore);
    try (EmbeddedStore again = open(false)) {
      assertThat(count(again)).isEqualTo(ROWS + 2);
    }
    EmbeddedStore crashed = open(false);
    crashed.table("T").orElseThrow().mutate(List.of(put(ROWS + 2, 1)), Durability.SYNC);
    crashed.abandonForTesting();
    Path newest = segments().get(segments().size() - 1);
    Files.delete(newest);
    assertOpenFails(newest.getFileName().toString(), "newest segment");
  }

  @Test
  void salvageOpensWithoutTheMissingSegmentAndReportsTheLoss() throws IOException {
    writeAndCrash();
    List<Path> segments = segments();
    Path middle = segments.get(segments.size() / 2);
    Files.delete(middle);
    long rows;
    try (EmbeddedStore s = open(true)) {
      SalvageReport report = s.salvageReport();
      assertThat(report.losses()).hasSize(1);
      SalvageReport.Loss loss = report.losses().get(0);
      assertThat(loss.file()).isEqualTo(middle);
      assertThat(loss.keptAt()).isEmpty();
      assertThat(loss.problem())
          .contains("is missing", "lost: the logged sequence ids after about");
      rows = count(s);
      assertThat(rows).as("the rows of the other segments").isBetween(ROWS / 2L, ROWS - 1L);
    }
    // what salvage replayed is in block files now, and the log no longer expects the segment
    try (EmbeddedStore s = open(false)) {
      assertThat(s.salvageReport().isEmpty()).isTrue();
      assertThat(count(s)).isEqualTo(rows);
    }
  }

  @Test
  void salvageKeepsACopyOfACorruptSegmentAndReplaysWhatPrecedesTheDamage() throws IOException {
    writeAndCrash();
    List<Path> segments = segments();
    Path middle = segments.get(segments.size() / 2);
    byte[] bytes = Files.readAllBytes(middle);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(middle, bytes);
    assertOpenFails(middle.getFileName().toString(), "Corrupt WAL segment");
    try (EmbeddedStore s = open(true)) {
      SalvageReport.Loss loss = s.salvageReport().losses().get(0);
      assertThat(loss.file()).isEqualTo(middle);
      Path kept = store().resolve("salvaged").resolve("wal").resolve(middle.getFileName());
      assertThat(loss.keptAt()).contains(kept);
      assertThat(Files.readAllBytes(kept)).isEqualTo(bytes);
      assertThat(count(s)).isBetween(ROWS / 2L, ROWS - 1L);
    }
    try (EmbeddedStore s = open(false)) {
      assertThat(s.salvageReport().isEmpty()).isTrue();
    }
  }

  /** Two block files of table T, oldest first. */
  private List<Path> writeTwoFilesAndClose() throws IOException {
    try (EmbeddedStore s = open(false)) {
      KvTable t = s.createTable("T");
      List<Mutation> batch = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        batch.add(put(i, i));
      }
      t.mutate(batch);
      t.flush();
      batch.clear();
      for (int i = 100; i < 150; i++) {
        batch.add(put(i, i));
      }
      t.mutate(batch);
      t.flush();
    }
    try (Stream<Path> walk = Files.walk(store().resolve("tables"))) {
      List<Path> files = walk.filter(p -> p.toString().endsWith(".cbf")).sorted().toList();
      for (Path f : files) {
        List<Path> siblings =
            files.stream().filter(o -> o.getParent().equals(f.getParent())).toList();
        if (siblings.size() == 2) {
          return siblings;
        }
      }
      throw new AssertionError("no table with two block files: " + files);
    }
  }

  @Test
  void aBlockFileCopiedOverAnotherFailsTheOpenNamingBothIds() throws IOException {
    List<Path> files = writeTwoFilesAndClose();
    Path older = files.get(0);
    Path newer = files.get(1);
    long olderId = StoreSalvage.fileId(older.getFileName().toString());
    long newerId = StoreSalvage.fileId(newer.getFileName().toString());
    Files.copy(older, newer, StandardCopyOption.REPLACE_EXISTING);
    assertOpenFails(
        newer.getFileName().toString(),
        "file id: expected [" + newerId + "]",
        "found [" + olderId + "]");
  }

  /** The one block file of tables T and U, each flushed once: the same file number in each. */
  private List<Path> writeOneFileInTwoTablesAndClose() throws IOException {
    List<Path> dirs = new ArrayList<>();
    try (EmbeddedStore s = open(false)) {
      for (String name : List.of("T", "U")) {
        KvTable t = s.createTable(name);
        List<Mutation> batch = new ArrayList<>();
        int rows = name.equals("T") ? 100 : 40;
        for (int i = 0; i < rows; i++) {
          batch.add(put(i, i));
        }
        t.mutate(batch);
        t.flush();
        dirs.add(store().resolve("tables").resolve(String.valueOf(((EmbeddedTable) t).tableId())));
      }
    }
    List<Path> files = new ArrayList<>();
    for (Path dir : dirs) {
      try (Stream<Path> list = Files.list(dir)) {
        files.addAll(list.filter(p -> p.toString().endsWith(".cbf")).toList());
      }
    }
    assertThat(files).hasSize(2);
    assertThat(files.get(0).getFileName()).isEqualTo(files.get(1).getFileName());
    return files;
  }

  @Test
  void aBlockFileOfAnotherTableWithTheSameNumberFailsTheOpen() throws IOException {
    List<Path> files = writeOneFileInTwoTablesAndClose();
    Path t = files.get(0);
    Path u = files.get(1);
    long uBytes = Files.size(u);
    Files.copy(t, u, StandardCopyOption.REPLACE_EXISTING);
    assertOpenFails(
        u.toString(), "not the file its table manifest lists", "expected [" + uBytes + " bytes");
    try (EmbeddedStore s = open(true)) {
      SalvageReport.Loss loss = s.salvageReport().losses().get(0);
      assertThat(loss.file()).isEqualTo(u);
      assertThat(count(s)).as("T's rows are intact").isEqualTo(100);
      assertThat(readAll(s.table("U").orElseThrow(), scanAll())).as("U's file set aside").isEmpty();
    }
  }

  @Test
  void aTableManifestWithoutSealsStillOpens() throws IOException {
    List<Path> files = writeOneFileInTwoTablesAndClose();
    // a manifest written before seals: the same lines without the file lines
    Path manifest = files.get(0).resolveSibling(TableManifest.FILE_NAME);
    TableManifest m = TableManifest.read(manifest.getParent());
    assertThat(m.seals()).containsKey(files.get(0).getFileName().toString());
    new TableManifest(
            m.tableId(),
            m.name(),
            m.options(),
            m.idLimit(),
            m.nextFileId(),
            m.nextRegionId(),
            m.regions(),
            Map.of())
        .write(manifest.getParent());
    assertThat(Files.readString(manifest)).doesNotContain("\nfile ");
    try (EmbeddedStore s = open(false)) {
      assertThat(count(s)).isEqualTo(100);
    }
    // the next manifest written has the seals again
    try (EmbeddedStore s = open(false)) {
      s.table("T").orElseThrow().mutate(List.of(put(500, 5)));
      s.table("T").orElseThrow().flush();
    }
    assertThat(TableManifest.read(manifest.getParent()).seals()).hasSize(2);
  }

  @Test
  void aBlockFileWithABadTrailerFailsTheOpen() throws IOException {
    Path file = writeTwoFilesAndClose().get(1);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 30] ^= 1;
    Files.write(file, bytes);
    assertOpenFails(file.getFileName().toString(), "trailer");
  }

  @Test
  void salvageSetsADamagedBlockFileAsideAndReportsIt() throws IOException {
    List<Path> files = writeTwoFilesAndClose();
    Path newer = files.get(1);
    byte[] original = Files.readAllBytes(files.get(0));
    Files.copy(files.get(0), newer, StandardCopyOption.REPLACE_EXISTING);
    try (EmbeddedStore s = open(true)) {
      SalvageReport report = s.salvageReport();
      assertThat(report.losses()).hasSize(1);
      SalvageReport.Loss loss = report.losses().get(0);
      assertThat(loss.file()).isEqualTo(newer);
      Path kept = store().resolve("salvaged").resolve(store().relativize(newer).toString());
      assertThat(loss.keptAt()).contains(kept);
      assertThat(loss.problem()).contains("file id", "its rows are lost");
      assertThat(Files.readAllBytes(kept)).isEqualTo(original);
      assertThat(newer).doesNotExist();
      assertThat(count(s)).as("the rows of the older file").isEqualTo(100);
    }
    try (EmbeddedStore s = open(false)) {
      assertThat(s.salvageReport().isEmpty()).isTrue();
      assertThat(count(s)).isEqualTo(100);
      s.table("T").orElseThrow().mutate(List.of(put(500, 5)));
      s.table("T").orElseThrow().flush();
    }
    try (EmbeddedStore s = open(false)) {
      assertThat(count(s)).isEqualTo(101);
    }
  }

  private static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }
}
