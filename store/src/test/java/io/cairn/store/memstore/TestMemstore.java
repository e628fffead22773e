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
}
