package io.cairn.store.file;

/**
 * How a block's bytes are compressed on disk (docs/format-blockfile.md, "Compression"). The {@link
 * #id()} is written in every block header; never renumber. A writer may store any single block
 * uncompressed (NONE) when compressing does not make it smaller.
 */
public enum Compression {
  NONE(0),
  /** LZ4 block format (lz4-java), no frame. */
  LZ4(1),
  /** Snappy raw format (snappy-java). */
  SNAPPY(2),
  /** Zstandard frame at level 3 (zstd-jni). */
  ZSTD(3),
  /** A raw DEFLATE stream (RFC 1951, java.util.zip at level 6), without the gzip wrapper. */
  GZIP(4);

  private final int id;

  Compression(int id) {
    this.id = id;
  }

  /** The persistent id written to disk. */
  public int id() {
    return id;
  }

  /**
   * The compression with persistent id {@code id}.
   *
   * @throws IllegalArgumentException when no compression has this id
   */
  public static Compression fromId(int id) {
    for (Compression compression : values()) {
      if (compression.id == id) {
        return compression;
      }
    }
    throw new IllegalArgumentException("Unknown compression id [" + id + "]");
  }
}
