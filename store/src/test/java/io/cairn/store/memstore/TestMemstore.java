package io.cairn.store.memstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.store.scan.VisibleRows;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestMemstore {
  private static Bytes b(String s) {
    return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> scan(Memstore memstore, KeyRange range, long readPoint) {
    List<String> out = new ArrayList<>();
    try (VisibleRows rows = new VisibleRows(memstore.cursor(), range, readPoint)) {
      while (rows.next()) {
        byte[] value = new byte[rows.valueLength()];
        rows.valueBuffer().get(rows.valueOffset(), value);
        out.add(
            new String(rows.keyArray(), rows.keyOffset(), rows.keyLength(), StandardCharsets.UTF_8)
                + "="
                + new String(value, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  @Test
  void readPointSelectsVersions() {
    Memstore m = new Memstore();
    m.put(b("a"), 1, b("a1"));
    m.put(b("b"), 1, b("b1"));
    m.put(b("a"), 2, b("a2"));
    m.delete(b("b"), 3);
    m.put(b("c"), 4, b("c4"));
    assertThat(scan(m, KeyRange.ALL, 0)).isEmpty();
    assertThat(scan(m, KeyRange.ALL, 1)).containsExactly("a=a1", "b=b1");
    assertThat(scan(m, KeyRange.ALL, 2)).containsExactly("a=a2", "b=b1");
    assertThat(scan(m, KeyRange.ALL, 3)).containsExactly("a=a2");
    assertThat(scan(m, KeyRange.ALL, 4)).containsExactly("a=a2", "c=c4");
    assertThat(scan(m, new KeyRange(b("b"), b("c")), 2)).containsExactly("b=b1");
    assertThat(scan(m, new KeyRange(b("a\0"), Bytes.EMPTY), 4)).containsExactly("c=c4");
    assertThat(m.exists(b("b"), 2)).isTrue();
    assertThat(m.exists(b("b"), 3)).isFalse();
    assertThat(m.exists(b("z"), 9)).isFalse();
    assertThat(m.cellCount()).isEqualTo(5);
    assertThat(m.heapSize()).isPositive();
  }

  @Test
  void sameKeyAndSequenceIdReplaces() {
    Memstore m = new Memstore();
    m.put(b("a"), 1, b("x"));
    m.put(b("a"), 1, b("y"));
    assertThat(scan(m, KeyRange.ALL, 1)).containsExactly("a=y");
    m.delete(b("a"), 1);
    assertThat(scan(m, KeyRange.ALL, 1)).isEmpty();
    assertThat(m.cellCount()).isEqualTo(1);
  }

  @Test
  void aBatchAppliedAtOnceEqualsItsMutationsOneByOne() {
    java.util.Random random = new java.util.Random(42);
    Memstore batched = new Memstore();
    Memstore single = new Memstore();
    for (long seq = 1; seq <= 30; seq++) {
      List<io.cairn.kv.Mutation> batch = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        Bytes key = b("k" + random.nextInt(40));
        batch.add(
            random.nextInt(4) == 0
                ? new io.cairn.kv.Mutation.Delete(key)
                : new io.cairn.kv.Mutation.Put(key, b("v" + seq + "." + i)));
      }
      batched.apply(batch, seq * 2);
      for (io.cairn.kv.Mutation m : batch) {
        if (m instanceof io.cairn.kv.Mutation.Put p) {
          single.put(p.key(), seq * 2, p.value());
        } else {
          single.delete(m.key(), seq * 2);
        }
      }
      for (long readPoint = 0; readPoint <= seq * 2 + 1; readPoint += 7) {
        assertThat(scan(batched, KeyRange.ALL, readPoint))
            .isEqualTo(scan(single, KeyRange.ALL, readPoint));
      }
      assertThat(batched.cellCount()).isEqualTo(single.cellCount());
      assertThat(batched.heapSize()).isEqualTo(single.heapSize());
      assertThat(batched.minSequenceId()).isEqualTo(2);
      assertThat(batched.maxSequenceId()).isEqualTo(seq * 2);
    }
    batched.apply(List.of(), 999);
    assertThat(batched.maxSequenceId()).as("an empty batch adds nothing").isEqualTo(60);
  }
}
