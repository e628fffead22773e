package io.cairn.store.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A build or check visits a region once: the daughters of a region done before it split are covered
 * by its range, so they are not visited again (which counted a checked region's rows twice after a
 * split).
 */
class TestIndexBuilderRegions {
  private static KeyRange range(String start, String stop) {
    return new KeyRange(bytes(start), bytes(stop));
  }

  private static Bytes bytes(String s) {
    return Bytes.wrap(s.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void daughtersOfADoneRegionAreCovered() {
    List<KeyRange> done = List.of(range("", "m"));
    assertThat(IndexBuilder.covered(range("", "f"), done)).isTrue();
    assertThat(IndexBuilder.covered(range("f", "m"), done)).isTrue();
    assertThat(IndexBuilder.covered(range("m", ""), done)).isFalse();
    assertThat(IndexBuilder.covered(range("f", "p"), done)).as("a merge over the edge").isFalse();
    assertThat(IndexBuilder.covered(range("f", ""), done)).isFalse();
  }

  @Test
  void theWholeTableCoversEveryRegion() {
    List<KeyRange> done = List.of(KeyRange.ALL);
    assertThat(IndexBuilder.covered(range("a", "b"), done)).isTrue();
    assertThat(IndexBuilder.covered(range("x", ""), done)).isTrue();
    assertThat(IndexBuilder.covered(KeyRange.ALL, List.of(range("", "x")))).isFalse();
    assertThat(IndexBuilder.covered(range("a", "b"), List.of())).isFalse();
  }
}
