package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestBlockFileOptions {
  @Test
  void defaults() {
    assertThat(BlockFileOptions.DEFAULT)
        .isEqualTo(
            new BlockFileOptions(
                DataBlockEncoding.FAST_DIFF, Compression.LZ4, 65536, true, 33554432L));
    assertThat(BlockFileOptions.fromTableOptions(Map.of())).isEqualTo(BlockFileOptions.DEFAULT);
  }

  @Test
  void tableOptions() {
    assertThat(
            BlockFileOptions.fromTableOptions(
                Map.of(
                    "DATA_BLOCK_ENCODING", "row_index",
                    "COMPRESSION", "ZSTD",
                    "BLOCKSIZE", "4096",
                    "BLOOMFILTER", "NONE",
                    "GUIDE_POSTS_WIDTH", "1000",
                    "TTL", "60")))
        .isEqualTo(
            new BlockFileOptions(DataBlockEncoding.ROW_INDEX, Compression.ZSTD, 4096, false, 1000));
    assertThat(BlockFileOptions.fromTableOptions(Map.of("bloomfilter", "row")).rowBloom()).isTrue();
  }

  @Test
  void invalidTableOptions() {
    for (Map<String, String> options :
        java.util.List.of(
            Map.of("COMPRESSION", "BROTLI"),
            Map.of("BLOCKSIZE", "0"),
            Map.of("BLOCKSIZE", "x"),
            Map.of("BLOOMFILTER", "ROWCOL"),
            Map.of("GUIDE_POSTS_WIDTH", "-1"))) {
      assertThatThrownBy(() -> BlockFileOptions.fromTableOptions(options))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_TABLE_OPTION_VALUE));
    }
  }

  @Test
  void persistentIds() {
    assertThat(DataBlockEncoding.values())
        .extracting(DataBlockEncoding::id)
        .containsExactly(0, 1, 2, 3);
    assertThat(Compression.values()).extracting(Compression::id).containsExactly(0, 1, 2, 3, 4);
    for (Compression compression : Compression.values()) {
      assertThat(Compression.fromId(compression.id())).isEqualTo(compression);
    }
  }
}
