package io.cairn.store.file;

/**
 * How the cells of a data block are laid out (docs/format-blockfile.md, "Data block encodings").
 * The {@link #id()} is written to disk; never renumber.
 */
public enum DataBlockEncoding {
  /** Each cell in full: row length, row, sequence id, type, value length, value. */
  NONE(0),
  /** Each row as the length of the prefix shared with the previous row, plus the rest. */
  PREFIX(1),
  /**
   * A flags byte per cell (same row, same row length, same sequence id, same value length), the row
   * and the value each as a shared prefix plus the rest, the sequence id as a delta. Repeated rows,
   * sequence ids and value headers cost nothing; the default.
   */
  FAST_DIFF(2),
  /** NONE plus an array of cell offsets at the block's end: seeks binary-search within a block. */
  ROW_INDEX(3);

  private final int id;

  DataBlockEncoding(int id) {
    this.id = id;
  }

  /** The persistent id written to disk. */
  public int id() {
    return id;
  }

  /**
   * The encoding with persistent id {@code id}.
   *
   * @throws IllegalArgumentException when no encoding has this id
   */
  public static DataBlockEncoding fromId(int id) {
    for (DataBlockEncoding encoding : values()) {
      if (encoding.id == id) {
        return encoding;
      }
    }
    throw new IllegalArgumentException("Unknown data block encoding id [" + id + "]");
  }

  DataBlockEncoder newEncoder() {
    return switch (this) {
      case NONE -> new PlainBlockEncoder(false);
      case ROW_INDEX -> new PlainBlockEncoder(true);
      case PREFIX -> new PrefixBlockEncoder();
      case FAST_DIFF -> new FastDiffBlockEncoder();
    };
  }

  DataBlockDecoder newDecoder() {
    return switch (this) {
      case NONE -> new PlainBlockDecoder(false);
      case ROW_INDEX -> new PlainBlockDecoder(true);
      case PREFIX -> new PrefixBlockDecoder();
      case FAST_DIFF -> new FastDiffBlockDecoder();
    };
  }
}
