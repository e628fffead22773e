package io.cairn.store.file;

/** The kinds of block in a block file; the {@link #id()} is written in each block header. */
enum BlockType {
  DATA(1),
  LEAF_INDEX(2),
  INTERMEDIATE_INDEX(3),
  ROOT_INDEX(4),
  BLOOM_CHUNK(5),
  BLOOM_INDEX(6),
  FILE_INFO(7);

  private final int id;

  BlockType(int id) {
    this.id = id;
  }

  int id() {
    return id;
  }

  /** The type with this id, or null. */
  static BlockType fromId(int id) {
    for (BlockType type : values()) {
      if (type.id == id) {
        return type;
      }
    }
    return null;
  }
}
