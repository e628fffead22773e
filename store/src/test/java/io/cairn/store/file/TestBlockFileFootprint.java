package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes per row of the footprint benchmark table (pk INTEGER PRIMARY KEY, v1 FLOAT, v2 FLOAT), all
 * cells at sequence id 0 as after a major compaction, for every encoding and compression. The
 * figures are printed (deterministic: fixed seed); the default options must stay at or below 18
 * bytes a row, index and bloom included. For reference, HBase stores this table (as Phoenix's one
 * cell per column) in 2922 MB NONE, 1739 PREFIX, 875 FAST_DIFF, 993 SNAPPY, 595 GZIP for 32M rows:
 * 91, 54, 27, 31 and 19 bytes a row.
 */
class TestBlockFileFootprint {
  static final int ROWS = 1_000_000;

  @TempDir Path directory;

  @Test
  void bytesPerRow() throws IOException {
    StringBuilder report = new StringBuilder();
    report.append(String.format(Locale.ROOT, "%-10s", "rows=" + ROWS));
    for (Compression compression : Compression.values()) {
      report.append(String.format(Locale.ROOT, "%9s", compression));
    }
    report.append('\n');
    double defaultBytesPerRow = 0;
    for (DataBlockEncoding encoding : DataBlockEncoding.values()) {
      report.append(String.format(Locale.ROOT, "%-10s", encoding));
      for (Compression compression : Compression.values()) {
        BlockFileOptions options =
            new BlockFileOptions(
                encoding,
                compression,
                BlockFileOptions.DEFAULT_BLOCK_SIZE,
                true,
                BlockFileOptions.DEFAULT_GUIDE_POST_WIDTH);
        double bytesPerRow = write(options) / (double) ROWS;
        if (options.equals(BlockFileOptions.DEFAULT)) {
          defaultBytesPerRow = bytesPerRow;
        }
        report.append(String.format(Locale.ROOT, "%9.2f", bytesPerRow));
      }
      report.append('\n');
    }
    report.append(String.format(Locale.ROOT, "raw (row + value): %.2f bytes/row%n", 4.0 + 17));
    System.out.print(report);
    assertThat(defaultBytesPerRow).isLessThanOrEqualTo(18.0);
  }

  private long write(BlockFileOptions options) throws IOException {
    Path path = directory.resolve(options.encoding() + "-" + options.compression());
    Random random = new Random(1);
    byte[] value = valueHeader();
    try (BlockFileWriter writer = BlockFileWriter.create(path, 1, options)) {
      for (int pk = 0; pk < ROWS; pk++) {
        byte[] row = new byte[4];
        io.cairn.store.io.BigEndian.putInt(row, 0, pk ^ Integer.MIN_VALUE);
        byte[] v = value.clone();
        io.cairn.store.io.BigEndian.putInt(
            v, 9, Float.floatToRawIntBits(random.nextFloat() * 1000));
        io.cairn.store.io.BigEndian.putInt(
            v, 13, Float.floatToRawIntBits(random.nextFloat() * 1000));
        writer.append(Bytes.wrap(row), 0, false, Bytes.wrap(v));
      }
      writer.finish();
    }
    long size = Files.size(path);
    Files.delete(path);
    return size;
  }

  /**
   * docs/format-row.md: version 1, schema version 1, 2 entries, column ids 2 and 3 (as 2, +1), null
   * bitmap, offset width 1, end offsets 4 and 8, then 8 data bytes: 17 bytes.
   */
  private static byte[] valueHeader() {
    byte[] value = new byte[17];
    byte[] header = {1, 1, 2, 2, 1, 0, 1, 4, 8};
    System.arraycopy(header, 0, value, 0, header.length);
    return value;
  }
}
