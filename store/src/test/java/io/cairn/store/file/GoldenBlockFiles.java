package io.cairn.store.file;

import io.cairn.core.bytes.Bytes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The golden block files of every format version in src/test/resources/golden/ ({@code v1-...},
 * {@code v2-...}), read by {@link TestBlockFileGolden} on every build: a change that cannot read
 * them breaks the format. They are written once per version and never regenerated for an existing
 * version (main skips files that exist). To write the files of a new version (after bumping {@code
 * BlockFileFormat.VERSION} and keeping a reader for the old one), run from the repository root:
 *
 * <pre>
 * mvn -q -pl store test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.cairn.store.file.GoldenBlockFiles -Dexec.args=store/src/test/resources/golden
 * </pre>
 *
 * (or run this class's main from an IDE with that directory as its argument).
 */
final class GoldenBlockFiles {
  static final long FILE_ID = 20250101;

  /** File name, then the options it is written with: one per encoding, every compression. */
  static final List<BlockFileOptions> OPTIONS =
      List.of(
          options(DataBlockEncoding.NONE, Compression.NONE),
          options(DataBlockEncoding.PREFIX, Compression.SNAPPY),
          options(DataBlockEncoding.FAST_DIFF, Compression.LZ4),
          options(DataBlockEncoding.FAST_DIFF, Compression.GZIP),
          options(DataBlockEncoding.ROW_INDEX, Compression.ZSTD));

  private GoldenBlockFiles() {}

  private static BlockFileOptions options(DataBlockEncoding encoding, Compression compression) {
    return new BlockFileOptions(encoding, compression, 128, true, 1000);
  }

  static String fileName(int version, BlockFileOptions options) {
    return "v"
        + version
        + "-"
        + options.encoding().name().toLowerCase(Locale.ROOT)
        + "-"
        + options.compression().name().toLowerCase(Locale.ROOT)
        + ".blk";
  }

  /** The cells of every golden file: computed, not random, so they never change. */
  static List<TestingCell> cells() {
    List<TestingCell> cells = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      byte[] row =
          String.format(Locale.ROOT, "row-%05d", i * 7)
              .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      if (i % 50 == 0) {
        byte[] longRow = new byte[200 + i];
        for (int j = 0; j < longRow.length; j++) {
          longRow[j] = j < row.length ? row[j] : (byte) (j * 31 + i);
        }
        row = longRow;
      }
      int versions = i % 5 == 0 ? 3 : 1;
      for (int v = 0; v < versions; v++) {
        long seq = i % 3 == 0 ? 0 : 1000L * (versions - v) + i;
        if (i % 11 == 0 && v == 0) {
          cells.add(new TestingCell(Bytes.wrap(row), seq, true, Bytes.EMPTY));
          continue;
        }
        byte[] value = new byte[i % 13 == 0 ? 0 : 9 + i % 17];
        for (int j = 0; j < value.length; j++) {
          value[j] = (byte) (j < 9 ? j : i * j + v);
        }
        cells.add(new TestingCell(Bytes.wrap(row), seq, false, Bytes.wrap(value)));
      }
    }
    return TestingCell.dedupe(cells);
  }

  public static void main(String[] args) throws Exception {
    Path directory = Path.of(args.length > 0 ? args[0] : "store/src/test/resources/golden");
    Files.createDirectories(directory);
    for (BlockFileOptions options : OPTIONS) {
      Path path = directory.resolve(fileName(BlockFileFormat.VERSION, options));
      if (Files.exists(path)) {
        continue;
      }
      try (BlockFileWriter writer = BlockFileWriter.create(path, FILE_ID, options)) {
        for (TestingCell cell : cells()) {
          writer.append(cell.row(), cell.sequenceId(), cell.delete(), cell.value());
        }
        writer.finish();
      }
    }
  }
}
