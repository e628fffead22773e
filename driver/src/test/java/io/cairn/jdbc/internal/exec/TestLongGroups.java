package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TestLongGroups {
  /**
   * Keys dense, sparse, negative, at the ends of long and colliding in their low bits: each found
   * as a map of the same keys finds it, absent keys not found, groups in the order added, each
   * taken once.
   */
  @Test
  void findsWhatAMapFindsInTheOrderAdded() {
    Random random = new Random(7);
    LongGroups<String> groups = new LongGroups<>();
    Map<Long, String> expected = new LinkedHashMap<>();
    List<Long> keys = new ArrayList<>();
    for (long k = 0; k < 3000; k++) {
      keys.add(k);
      keys.add(-k * 7);
      keys.add(k << 32);
      keys.add(random.nextLong());
    }
    keys.add(Long.MIN_VALUE);
    keys.add(Long.MAX_VALUE);
    for (long key : keys) {
      String group = expected.get(key);
      assertThat(groups.get(key)).as("key %s", key).isEqualTo(group);
      if (group == null) {
        group = "g" + expected.size();
        groups.add(key, group);
        expected.put(key, group);
      }
    }
    assertThat(groups.size()).isEqualTo(expected.size());
    for (Map.Entry<Long, String> e : expected.entrySet()) {
      assertThat(groups.get(e.getKey())).isEqualTo(e.getValue());
    }
    for (int i = 0; i < 1000; i++) {
      long absent = random.nextLong();
      if (!expected.containsKey(absent)) {
        assertThat(groups.get(absent)).isNull();
      }
    }
    List<String> taken = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      taken.add(groups.take(i));
    }
    assertThat(taken).containsExactlyElementsOf(expected.values());
    assertThat(groups.take(0)).isNull();
  }
}
