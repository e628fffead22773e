package io.cairn.server.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.kv.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestRegion {
  private static Bytes b(int... bytes) {
    byte[] out = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = (byte) bytes[i];
    }
    return Bytes.wrap(out);
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
  void eachBatchAdvancesTheReadPointOnce() {
    Region region = new Region("T", KeyRange.ALL);
    assertThat(region.readPoint()).isZero();
    region.mutate(List.of(new Mutation.Put(b(1), b(1)), new Mutation.Put(b(2), b(2))));
    assertThat(region.readPoint()).isEqualTo(1);
    assertThat(region.scan(KeyRange.ALL, 0).hasNext()).isFalse();
    assertThat(region.scan(KeyRange.ALL, 1)).toIterable().hasSize(2);
  }

  @Test
  void rejectsKeysOutsideItsRange() {
    Region region = new Region("T", new KeyRange(b(2), b(5)));
    assertThatThrownBy(() -> region.mutate(List.of(new Mutation.Put(b(7), b(1)))))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("found [07]");
    assertThat(region.readPoint()).isZero();
  }
}
