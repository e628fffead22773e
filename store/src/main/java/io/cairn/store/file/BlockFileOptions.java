package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.Locale;
import java.util.Map;

/**
 * How a block file is written: data block encoding, compression, target uncompressed block size in
 * bytes, whether a row bloom filter is written, and the raw bytes between two guide posts.
 *
 * <p>{@link #DEFAULT}: FAST_DIFF + LZ4, 64 KiB blocks, row bloom, 32 MiB guide posts. FAST_DIFF
 * makes sorted keys, repeated sequence ids (0 after a major compaction) and the repeated header of
 * packed row values nearly free; LZ4 removes much of what repeats further apart at a decompression
 * cost far below ZSTD's or GZIP's (ZSTD is the choice for cold data). 64 KiB blocks are HBase's
 * default. The guide post width is chosen for one node rather than Phoenix's cluster (100 MiB): 32
 * MiB of raw row bytes cuts a 1 GiB table into about 32 chunks, enough to keep every core of a node
 * busy in a parallel scan with some to spare for balancing, yet few enough that the per-chunk cost
 * (a request, a scanner, a merge step) stays negligible; the statistics kept per region stay small
 * too.
 */
public record BlockFileOptions(
    DataBlockEncoding encoding,
    Compression compression,
    int blockSize,
    boolean rowBloom,
    long guidePostWidth) {
  public static final int DEFAULT_BLOCK_SIZE = 64 * 1024;
  public static final long DEFAULT_GUIDE_POST_WIDTH = 32L * 1024 * 1024;

  public static final BlockFileOptions DEFAULT =
      new BlockFileOptions(
          DataBlockEncoding.FAST_DIFF,
          Compression.LZ4,
          DEFAULT_BLOCK_SIZE,
          true,
          DEFAULT_GUIDE_POST_WIDTH);

  /** The largest block size accepted (and written to file info). */
  public static final int MAX_BLOCK_SIZE = 64 * 1024 * 1024;

  public BlockFileOptions {
    requireNonNull(encoding, "encoding is null");
    requireNonNull(compression, "compression is null");
    if (blockSize < 1 || blockSize > MAX_BLOCK_SIZE) {
      throw new IllegalArgumentException(
          "blockSize must be in [1, " + MAX_BLOCK_SIZE + "]: [" + blockSize + "]");
    }
    if (guidePostWidth < 1) {
      throw new IllegalArgumentException(
          "guidePostWidth must be positive: [" + guidePostWidth + "]");
    }
  }

  /**
   * From validated table options: DATA_BLOCK_ENCODING, COMPRESSION, BLOCKSIZE (bytes), BLOOMFILTER
   * (NONE|ROW), GUIDE_POSTS_WIDTH (bytes); missing ones take the defaults. Names and enum values
   * are case-insensitive; an unparsable value is {@link ErrorCode#INVALID_TABLE_OPTION_VALUE}.
   */
  public static BlockFileOptions fromTableOptions(Map<String, String> options) {
    requireNonNull(options, "options is null");
    DataBlockEncoding encoding = DEFAULT.encoding;
    Compression compression = DEFAULT.compression;
    int blockSize = DEFAULT.blockSize;
    boolean rowBloom = DEFAULT.rowBloom;
    long guidePostWidth = DEFAULT.guidePostWidth;
    for (Map.Entry<String, String> option : options.entrySet()) {
      String name = option.getKey().toUpperCase(Locale.ROOT);
      String value = option.getValue().trim();
      String upper = value.toUpperCase(Locale.ROOT);
      try {
        switch (name) {
          case "DATA_BLOCK_ENCODING" -> encoding = DataBlockEncoding.valueOf(upper);
          case "COMPRESSION" -> compression = Compression.valueOf(upper);
          case "BLOCKSIZE" -> blockSize = Integer.parseInt(value);
          case "BLOOMFILTER" -> {
            if (upper.equals("ROW")) {
              rowBloom = true;
            } else if (upper.equals("NONE")) {
              rowBloom = false;
            } else {
              throw new IllegalArgumentException("expected NONE or ROW");
            }
          }
          case "GUIDE_POSTS_WIDTH" -> guidePostWidth = Long.parseLong(value);
          default -> {
            // Other table options (TTL, DURABILITY, ...) are not about block files.
          }
        }
      } catch (IllegalArgumentException e) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_OPTION_VALUE,
            "Invalid value for table option [" + name + "]: [" + value + "]",
            e);
      }
    }
    try {
      return new BlockFileOptions(encoding, compression, blockSize, rowBloom, guidePostWidth);
    } catch (IllegalArgumentException e) {
      throw new CairnException(ErrorCode.INVALID_TABLE_OPTION_VALUE, e.getMessage(), e);
    }
  }
}
