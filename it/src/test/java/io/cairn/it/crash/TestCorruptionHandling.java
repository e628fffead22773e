package io.cairn.it.crash;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.it.crash.CorruptionFixture.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged store files: a store with rows in block files, in the write-ahead log and in manifests
 * ({@link CorruptionFixture}, written by a child JVM that is killed) is copied, one file of the
 * copy is truncated or has one bit flipped, and the copy is opened through JDBC and queried (full
 * scan, COUNT(*), a key range across the region boundary, point lookups). Each case must give
 * either the exact answer or an SQLException with SQLState XX001 (or the unsupported-version error)
 * whose message names the damaged file; never a wrong answer, a hang or an internal error. The one
 * allowed loss: damage to the last record of a WAL segment is a torn write, so the rows of that one
 * transaction may be missing, all of them. After an error the failed open must have changed no
 * file, and putting the original file back must make the store open with the exact answer.
 *
 * <p>{@code -Dcairn.corruption.allFiles=true} damages every file instead of a sample of block files
 * and table manifests; {@code -Dcairn.corruption.seed=S} picks the same sample and bits.
 */
@Timeout(value = 60, unit = TimeUnit.MINUTES) // a guard against hangs, not a timed assertion
final class TestCorruptionHandling {
  private static final Duration PATIENCE = Duration.ofMinutes(2);
  private static final int SAMPLE_PER_TYPE = 3;
  private static final int WAL_HEADER_BYTES = 24;
  private static final int[] POINT_KEYS = {0, 1, 17, 250, 499, 500, 501, 777, 998, 999};

  @TempDir Path temp;

  enum FileType {
    BLOCK_FILE,
    WAL_SEGMENT,
    TABLE_MANIFEST,
    STORE_MANIFEST;

    static FileType of(Path relative) {
      String name = relative.getFileName().toString();
      if (name.endsWith(".cbf")) {
        return BLOCK_FILE;
      }
      if (name.endsWith(".log") && relative.startsWith("wal")) {
        return WAL_SEGMENT;
      }
      if (name.equals("table.manifest")) {
        return TABLE_MANIFEST;
      }
      if (name.equals("store.manifest")) {
        return STORE_MANIFEST;
      }
      return null;
    }
  }

  /** One damage: truncate to {@code length}, or flip bit {@code bit} of byte {@code offset}. */
  record Damage(String kind, long position, int bit) {
    static Damage truncate(long length) {
      return new Damage("truncate", length, -1);
    }

    static Damage flip(long offset, int bit) {
      return new Damage("flip", offset, bit);
    }

    byte[] apply(byte[] original) {
      if (kind.equals("truncate")) {
        return Arrays.copyOf(original, (int) position);
      }
      byte[] damaged = original.clone();
      damaged[(int) position] ^= (byte) (1 << bit);
      return damaged;
    }

    @Override
    public String toString() {
      return kind.equals("truncate")
          ? "truncated to [" + position + "] bytes"
          : "bit [" + bit + "] of byte [" + position + "] flipped";
    }
  }

  /** What the queries of one case returned. */
  record Answer(
      TreeMap<Integer, Row> fullScan,
      long count,
      TreeMap<Integer, Row> range,
      Map<Integer, Row> points,
      List<Integer> duplicates) {}

  @Test
  void everyDamagedFileGivesTheExactAnswerOrAClearError() throws Exception {
    long seed = Long.getLong("cairn.corruption.seed", System.nanoTime());
    boolean allFiles = Boolean.getBoolean("cairn.corruption.allFiles");
    SplittableRandom random = new SplittableRandom(seed);
    String reproduce = "seed [" + seed + "] (reproduce: -Dcairn.corruption.seed=" + seed + ")";
    TestCrashRecovery.report("TestCorruptionHandling: " + reproduce);

    Path original = buildFixture();
    Answer exact = expected(CorruptionFixture.state(Set.of()));
    Path baselineDir = copy(original, "baseline");
    Answer baseline = Timeouts.call(() -> query(baselineDir), PATIENCE, "opening the fixture");
    assertThat(baseline).as("the undamaged store's answer").isEqualTo(exact);
    // Files that opening removes as leftovers of unfinished work of the killed process.
    Set<Path> leftovers = new TreeSet<>(contents(original).keySet());
    leftovers.removeAll(contents(baselineDir).keySet());
    // The baseline's close flushed everything and trimmed the log: those are not leftovers.
    leftovers.removeIf(path -> path.startsWith("wal"));
    TestCrashRecovery.report("TestCorruptionHandling: leftovers removed on open: " + leftovers);

    Map<FileType, List<Path>> files = filesByType(original);
    for (FileType type : FileType.values()) {
      assertThat(files.get(type))
          .as("the fixture has a %s (else this test could not fail on it): %s", type, files)
          .isNotEmpty();
    }
    List<Path> segments = files.get(FileType.WAL_SEGMENT);
    Path lastSegment = segments.stream().max(Comparator.naturalOrder()).orElseThrow();
    List<Frame> lastSegmentFrames = frames(Files.readAllBytes(original.resolve(lastSegment)));
    assertThat(lastSegmentFrames.stream().flatMap(frame -> frame.transactions().stream()))
        .as("the last WAL segment holds the last transactions (written after the second flush)")
        .contains(CorruptionFixture.TRANSACTIONS, CorruptionFixture.SECOND_FLUSH + 1);

    List<String> failures = new ArrayList<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    int cases = 0;
    for (FileType type : FileType.values()) {
      List<Path> chosen = new ArrayList<>(files.get(type));
      if (!allFiles && (type == FileType.BLOCK_FILE || type == FileType.TABLE_MANIFEST)) {
        while (chosen.size() > SAMPLE_PER_TYPE) {
          chosen.remove(random.nextInt(chosen.size()));
        }
      }
      for (Path file : chosen) {
        byte[] bytes = Files.readAllBytes(original.resolve(file));
        for (Damage damage : damages(bytes.length, random)) {
          cases++;
          String name = "case-" + cases;
          Answer tornTail = null;
          boolean tableMayBeLost = false;
          if (file.equals(lastSegment)) {
            List<Frame> lost = tornFrames(lastSegmentFrames, damage);
            Set<Integer> transactions = new TreeSet<>();
            for (Frame frame : lost) {
              // Transactions up to the second flush are in block files as well.
              frame.transactions().stream()
                  .filter(tx -> tx > CorruptionFixture.SECOND_FLUSH)
                  .forEach(transactions::add);
              tableMayBeLost |= frame.catalog();
            }
            if (!transactions.isEmpty()) {
              tornTail = expected(CorruptionFixture.state(transactions));
            }
          }
          String outcome;
          try {
            outcome =
                runCase(
                    original,
                    leftovers,
                    name,
                    file,
                    bytes,
                    damage,
                    exact,
                    tornTail,
                    tableMayBeLost);
          } catch (AssertionError | Exception e) {
            outcome = "FAILED";
            failures.add(String.format("%s (%s) %s: %s", file, type, damage, e));
          }
          outcomes.merge(type + " " + outcome, 1, Integer::sum);
        }
      }
    }
    TestCrashRecovery.report("TestCorruptionHandling: " + cases + " cases, outcomes " + outcomes);
    assertThat(failures)
        .as(
            "%s cases, %s; outcomes %s; store %s; failed cases",
            cases, reproduce, outcomes, original)
        .isEmpty();
  }

  /** Runs the fixture's child and kills it once all is committed; returns the store directory. */
  private Path buildFixture() throws Exception {
    Path dir = temp.resolve("fixture");
    try (ChildJvm child =
        ChildJvm.start(CorruptionFixture.class, temp.resolve("fixture.err"), dir.toString())) {
      boolean ready = child.awaitLines(lines -> lines.contains("READY"), Duration.ofMinutes(3));
      if (!ready) {
        throw new AssertionError(
            "the fixture child did not commit everything\n" + child.describe());
      }
      child.kill();
    }
    return dir;
  }

  /** Returns a word for the outcome, or throws AssertionError saying what was wrong. */
  private String runCase(
      Path original,
      Set<Path> leftovers,
      String name,
      Path file,
      byte[] bytes,
      Damage damage,
      Answer exact,
      Answer tornTail,
      boolean tableMayBeLost)
      throws Exception {
    Path dir = copy(original, name);
    Path damaged = dir.resolve(file);
    Files.write(damaged, damage.apply(bytes));
    Map<Path, byte[]> before = contents(dir);
    Answer answer;
    try {
      answer = Timeouts.call(() -> query(dir), PATIENCE, "opening and querying the store");
    } catch (SQLException e) {
      String state = e.getSQLState();
      if (tableMayBeLost && "42S02".equals(state) && !(e instanceof OpenFailedException)) {
        // The torn tail took the catalog record of CREATE TABLE T (the catalog is not flushed).
        return "torn-tail-lost-table";
      }
      boolean corrupted = "XX001".equals(state);
      boolean unsupportedVersion = "0A000".equals(state) && e.getErrorCode() == 84;
      if (!corrupted && !unsupportedVersion) {
        throw new AssertionError(
            "expected the exact answer or SQLState XX001, got SQLState ["
                + state
                + "] vendor code ["
                + e.getErrorCode()
                + "]: "
                + describe(e),
            e);
      }
      if (e.getMessage() == null || !e.getMessage().contains(file.getFileName().toString())) {
        throw new AssertionError(
            "the error does not name the damaged file [" + file + "]: " + describe(e), e);
      }
      if (e instanceof OpenFailedException) {
        // A failed open writes nothing but removes leftovers of unfinished work
        // (docs/format-store.md, "Opening"); the undamaged store's open removed the same ones.
        // A query that fails on an open store is followed by a normal close, which may flush.
        Map<Path, byte[]> after = contents(dir);
        after.remove(Path.of("LOCK"));
        before.remove(Path.of("LOCK"));
        before.keySet().removeAll(leftovers);
        assertSameFiles(before, after);
      }
      Files.write(damaged, bytes);
      Answer restored =
          Timeouts.call(() -> query(dir), PATIENCE, "opening the store with the file restored");
      assertThat(restored)
          .as("the answer after restoring the original [%s] (error was: %s)", file, e.getMessage())
          .isEqualTo(exact);
      return corrupted ? "XX001" : "unsupported-version";
    } catch (Exception e) {
      throw new AssertionError("expected the exact answer or an SQLException, got " + e, e);
    }
    if (answer.equals(exact)) {
      return "exact";
    }
    if (tornTail != null && answer.equals(tornTail)) {
      return "torn-tail";
    }
    throw new AssertionError("wrong answer: " + difference(exact, answer));
  }

  private static String describe(SQLException e) {
    StringBuilder text = new StringBuilder(String.valueOf(e));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      text.append(" <- ").append(cause);
    }
    return text.toString();
  }

  private static void assertSameFiles(Map<Path, byte[]> before, Map<Path, byte[]> after) {
    TreeSet<Path> changed = new TreeSet<>();
    for (Map.Entry<Path, byte[]> entry : before.entrySet()) {
      byte[] now = after.get(entry.getKey());
      if (now == null || !Arrays.equals(now, entry.getValue())) {
        changed.add(entry.getKey());
      }
    }
    for (Path path : after.keySet()) {
      if (!before.containsKey(path)) {
        changed.add(path);
      }
    }
    assertThat(changed).as("files that the failed open created, changed or deleted").isEmpty();
  }

  /** Truncations and bit flips in the header, the middle and the end (trailer) of a file. */
  private static List<Damage> damages(int length, SplittableRandom random) {
    List<Damage> damages = new ArrayList<>();
    TreeSet<Long> cuts = new TreeSet<>();
    for (long cut : new long[] {0, 5, 17, 40, length / 2, length - 9, length - 1}) {
      if (cut >= 0 && cut < length) {
        cuts.add(cut);
      }
    }
    cuts.forEach(cut -> damages.add(Damage.truncate(cut)));
    TreeSet<Long> flips = new TreeSet<>();
    for (long offset :
        new long[] {
          0,
          6,
          13,
          33,
          length / 3,
          length / 2,
          (long) random.nextInt(Math.max(1, length)),
          length - 50,
          length - 20,
          length - 5,
          length - 1
        }) {
      if (offset >= 0 && offset < length) {
        flips.add(offset);
      }
    }
    flips.forEach(offset -> damages.add(Damage.flip(offset, random.nextInt(8))));
    return damages;
  }

  /**
   * A record frame of a WAL segment (docs/format-wal.md), the transactions whose values it holds,
   * and whether it is a catalog record (the fixture's CREATE TABLE in schema PUBLIC).
   */
  record Frame(int start, int end, Set<Integer> transactions, boolean catalog) {}

  /** The frames of an undamaged WAL segment: a 24-byte header, then length + CRC32C + payload. */
  private static List<Frame> frames(byte[] segment) {
    List<Frame> frames = new ArrayList<>();
    String text = new String(segment, ISO_8859_1);
    int position = WAL_HEADER_BYTES;
    while (position + 8 <= segment.length) {
      int length = java.nio.ByteBuffer.wrap(segment, position, 4).getInt();
      int end = position + 8 + length;
      if (length < 1 || end > segment.length) {
        break;
      }
      Set<Integer> transactions = new TreeSet<>();
      for (int tx = 1; tx <= CorruptionFixture.TRANSACTIONS; tx++) {
        int found = text.indexOf(CorruptionFixture.marker(tx), position + 8);
        if (found >= 0 && found < end) {
          transactions.add(tx);
        }
      }
      boolean catalog =
          transactions.isEmpty() && text.substring(position + 8, end).contains("PUBLIC");
      frames.add(new Frame(position, end, transactions, catalog));
      position = end;
    }
    assertThat(position)
        .as("the fixture's last WAL segment parses to its end")
        .isEqualTo(segment.length);
    return frames;
  }

  /**
   * The transactions that a damage of the last WAL segment may lose as a torn write: a truncation
   * looks exactly like a crash in the middle of a write, so every record that no longer ends inside
   * the file goes, all of it (a segment cut inside its header is an interrupted creation); a
   * flipped bit in the last record loses that record. Everything else must stay exact.
   */
  private static List<Frame> tornFrames(List<Frame> frames, Damage damage) {
    List<Frame> lost = new ArrayList<>();
    if (damage.kind().equals("truncate")) {
      for (Frame frame : frames) {
        if (frame.end() > damage.position()) {
          lost.add(frame);
        }
      }
    } else if (!frames.isEmpty() && damage.position() >= frames.get(frames.size() - 1).start()) {
      lost.add(frames.get(frames.size() - 1));
    }
    return lost;
  }

  private static Map<FileType, List<Path>> filesByType(Path root) throws IOException {
    Map<FileType, List<Path>> files = new java.util.EnumMap<>(FileType.class);
    for (FileType type : FileType.values()) {
      files.put(type, new ArrayList<>());
    }
    for (Path path : contents(root).keySet()) {
      FileType type = FileType.of(path);
      if (type != null) {
        files.get(type).add(path);
      }
    }
    return files;
  }

  /** Every regular file under {@code root}, by relative path, sorted. */
  private static Map<Path, byte[]> contents(Path root) throws IOException {
    Map<Path, byte[]> contents = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.filter(Files::isRegularFile).toList()) {
        contents.put(root.relativize(path), Files.readAllBytes(path));
      }
    }
    return contents;
  }

  private Path copy(Path from, String name) throws IOException {
    Path to = temp.resolve(name);
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target);
        }
      }
    }
    return to;
  }

  private static Answer expected(TreeMap<Integer, Row> rows) {
    Map<Integer, Row> points = new TreeMap<>();
    for (int key : POINT_KEYS) {
      Row row = rows.get(key);
      if (row != null) {
        points.put(key, row);
      }
    }
    return new Answer(rows, rows.size(), new TreeMap<>(rows.subMap(300, 700)), points, List.of());
  }

  /** An SQLException of opening the store (as opposed to one of a query on an open store). */
  static final class OpenFailedException extends SQLException {
    private static final long serialVersionUID = 1L;

    OpenFailedException(SQLException cause) {
      super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
    }
  }

  private static Answer query(Path dir) throws SQLException {
    Properties properties = new Properties();
    Connection opened;
    try {
      opened = DriverManager.getConnection(CrashSchema.url(dir), properties);
    } catch (SQLException e) {
      throw new OpenFailedException(e);
    }
    try (Connection connection = opened;
        Statement statement = connection.createStatement()) {
      List<Integer> duplicates = new ArrayList<>();
      TreeMap<Integer, Row> full = rows(statement, "SELECT K, TX, V FROM T", duplicates);
      long count;
      try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM T")) {
        rs.next();
        count = rs.getLong(1);
      }
      TreeMap<Integer, Row> range =
          rows(statement, "SELECT K, TX, V FROM T WHERE K >= 300 AND K < 700", duplicates);
      Map<Integer, Row> points = new TreeMap<>();
      try (PreparedStatement point =
          connection.prepareStatement("SELECT K, TX, V FROM T WHERE K = ?")) {
        for (int key : POINT_KEYS) {
          point.setInt(1, key);
          try (ResultSet rs = point.executeQuery()) {
            while (rs.next()) {
              if (points.put(rs.getInt(1), new Row(rs.getInt(2), rs.getString(3))) != null) {
                duplicates.add(key);
              }
            }
          }
        }
      }
      return new Answer(full, count, range, points, duplicates);
    }
  }

  private static TreeMap<Integer, Row> rows(Statement statement, String sql, List<Integer> dup)
      throws SQLException {
    TreeMap<Integer, Row> rows = new TreeMap<>();
    try (ResultSet rs = statement.executeQuery(sql)) {
      while (rs.next()) {
        if (rows.put(rs.getInt(1), new Row(rs.getInt(2), rs.getString(3))) != null) {
          dup.add(rs.getInt(1));
        }
      }
    }
    return rows;
  }

  /** A short account of how {@code answer} differs from {@code exact}. */
  private static String difference(Answer exact, Answer answer) {
    List<String> lines = new ArrayList<>();
    int shown = 0;
    TreeSet<Integer> keys = new TreeSet<>(exact.fullScan().keySet());
    keys.addAll(answer.fullScan().keySet());
    for (int key : keys) {
      Row want = exact.fullScan().get(key);
      Row got = answer.fullScan().get(key);
      if (!java.util.Objects.equals(want, got) && shown++ < 5) {
        lines.add("K=" + key + " expected " + want + " found " + got);
      }
    }
    return String.format(
        "full scan [%s] rows (expected [%s]), %s differ%s; COUNT(*) [%s] (expected [%s]);"
            + " range ok [%s]; points ok [%s]; duplicates %s",
        answer.fullScan().size(),
        exact.fullScan().size(),
        shown,
        lines.isEmpty() ? "" : ": " + String.join("; ", lines),
        answer.count(),
        exact.count(),
        answer.range().equals(exact.range()),
        answer.points().equals(exact.points()),
        answer.duplicates());
  }
}
