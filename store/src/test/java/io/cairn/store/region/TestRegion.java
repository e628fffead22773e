package io.cairn.store.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.file.CachePolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestRegion {
  private static Bytes b(int v) {
    return Bytes.wrap(new byte[] {(byte) v});
  }

  @Test
  void intersectsRanges() {
    KeyRange r = new KeyRange(b(2), b(5));
    assertThat(Region.intersect(KeyRange.ALL, r)).isEqualTo(r);
    assertThat(Region.intersect(new KeyRange(b(3), Bytes.EMPTY), r))
        .isEqualTo(new KeyRange(b(3), b(5)));
    assertThat(Region.intersect(new KeyRange(Bytes.EMPTY, b(3)), r))
        .isEqualTo(new KeyRange(b(2), b(3)));
    assertThat(Region.intersect(new KeyRange(b(5), b(9)), r)).isNull();
  }

  @Test
  void scansSeeOnlyCellsAtOrBelowTheirReadPoint() {
    Region region = new Region(1, "T", KeyRange.ALL);
    region.apply(List.of(new Mutation.Put(b(1), b(1)), new Mutation.Put(b(2), b(2))), 1);
    region.apply(List.of(new Mutation.Delete(b(1))), 2);
    RegionState s = region.acquireState();
    assertThat(count(region.scan(s, KeyRange.ALL, 0, CachePolicy.CACHE))).isZero();
    assertThat(count(region.scan(s, KeyRange.ALL, 1, CachePolicy.CACHE))).isEqualTo(2);
    assertThat(count(region.scan(s, KeyRange.ALL, 2, CachePolicy.CACHE))).isEqualTo(1);
    assertThat(region.rowExists(b(1))).isFalse();
    assertThat(region.rowExists(b(2))).isTrue();
    s.release();
  }

  private static int count(RowCursor rows) {
    int n = 0;
    try (rows) {
      while (rows.next()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void rollbackRemovesAFailedBatch() {
    Region region = new Region(1, "T", KeyRange.ALL);
    List<Mutation> batch = List.of(new Mutation.Put(b(1), b(1)));
    region.apply(batch, 1);
    region.freeze();
    region.rollback(batch, 1);
    assertThat(region.rowExists(b(1))).isFalse();
  }

  @Test
  void rejectsKeysOutsideItsRange() {
    Region region = new Region(1, "T", new KeyRange(b(2), b(5)));
    assertThatThrownBy(() -> region.checkContains(b(7)))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("found [07]");
  }
}
