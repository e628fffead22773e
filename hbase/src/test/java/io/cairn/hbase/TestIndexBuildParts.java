package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics.Chunk;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How an index build cuts a table into parts ({@link HBaseIndexes#buildParts}). */
class TestIndexBuildParts {
  private static Bytes key(int k) {
    return k < 0 ? Bytes.EMPTY : Bytes.wrap(new byte[] {(byte) k});
  }

  /**
   * Chunks of {@code bytes}, in key order, the first {@code inFirst} in region 1, the rest in 2.
   */
  private static List<Chunk> chunks(int inFirst, long... bytes) {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < bytes.length; i++) {
      chunks.add(
          new Chunk(
              i < inFirst ? 1 : 2,
              i == 0 ? Bytes.EMPTY : key(i * 10),
              i == bytes.length - 1 ? Bytes.EMPTY : key((i + 1) * 10),
              -1,
              bytes[i]));
    }
    return chunks;
  }

  @Test
  void aLargeRegionIsCutAtItsGuidePostsAndTheLargestPartsComeFirst() {
    // region 1: 8 chunks of 10 (80), region 2: one chunk of 20; a quarter of 100 is 25
    List<KeyRange> parts =
        HBaseIndexes.buildParts(chunks(8, 10, 10, 10, 10, 10, 10, 10, 10, 20), 4);
    assertThat(parts)
        .containsExactly(
            new KeyRange(Bytes.EMPTY, key(20)),
            new KeyRange(key(20), key(40)),
            new KeyRange(key(40), key(60)),
            new KeyRange(key(60), key(80)),
            new KeyRange(key(80), Bytes.EMPTY));
  }

  @Test
  void partsNeverSpanTwoRegions() {
    // two small regions: each its own part, though together they fit in one
    assertThat(HBaseIndexes.buildParts(chunks(1, 1, 1), 4))
        .containsExactlyInAnyOrder(
            new KeyRange(Bytes.EMPTY, key(10)), new KeyRange(key(10), Bytes.EMPTY));
  }

  @Test
  void chunksOfUnknownSizeCountAsOneByte() {
    // a table without statistics: one chunk per region, sizes unknown (-1)
    assertThat(HBaseIndexes.buildParts(chunks(1, -1, -1), 4)).hasSize(2);
    assertThat(HBaseIndexes.buildParts(chunks(1, -1), 4))
        .containsExactly(new KeyRange(Bytes.EMPTY, Bytes.EMPTY));
  }
}
