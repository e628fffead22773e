package io.cairn.store.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestBlockMap {
  private final LruBlockCache owner = new LruBlockCache(TestingBlockCaches.config(1 << 20, 0));
  private LeakDetector.Mode previousMode;

  @BeforeEach
  void untracked() {
    // The blocks here are never released: they only exercise the map.
    previousMode = LeakDetector.setMode(LeakDetector.Mode.OFF);
  }

  @AfterEach
  void restore() {
    owner.close();
    LeakDetector.setMode(previousMode);
  }

  private CachedBlock block(long fileId, long offset) {
    return new CachedBlock(
        owner, fileId, offset, 1, 1, 0, ByteBuffer.allocate(1), BlockPriority.SINGLE, 0);
  }

  private static long key(long fileId, long offset) {
    return fileId * 1_000_003 + offset;
  }

  @Test
  void behavesLikeAHashMap() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    BlockMap map = new BlockMap();
    Map<Long, CachedBlock> model = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      // Few files and offsets, so that keys repeat; offsets of real blocks are large and sparse.
      long fileId = random.nextInt(8);
      long offset = (long) random.nextInt(400) * 65_600;
      CachedBlock expected = model.get(key(fileId, offset));
      switch (random.nextInt(3)) {
        case 0 -> {
          CachedBlock block = block(fileId, offset);
          assertThat(map.putIfAbsent(block)).as("seed %s", seed).isSameAs(expected);
          model.putIfAbsent(key(fileId, offset), block);
        }
        case 1 -> {
          CachedBlock removed = expected != null ? expected : block(fileId, offset);
          assertThat(map.remove(removed)).as("seed %s", seed).isEqualTo(expected != null);
          assertThat(map.remove(block(fileId, offset))).as("only the same block").isFalse();
          model.remove(key(fileId, offset));
        }
        default -> assertThat(map.get(fileId, offset)).as("seed %s", seed).isSameAs(expected);
      }
    }
    assertThat(map.size()).isEqualTo(model.size());
    assertThat(new HashSet<>(map.snapshot())).isEqualTo(new HashSet<>(model.values()));
  }

  @Test
  void lookupsDuringWritesSeeEveryStableKey() throws Exception {
    BlockMap map = new BlockMap();
    List<CachedBlock> stable = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      CachedBlock block = block(1, i * 4096L);
      map.putIfAbsent(block);
      stable.add(block);
    }
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<String> failure = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              while (!done.get()) {
                for (CachedBlock block : stable) {
                  if (map.get(block.fileId(), block.offset()) != block) {
                    failure.set("lost " + block);
                  }
                }
              }
            });
    reader.start();
    try {
      // Grows the tables several times and removes from chains that hold stable keys.
      for (int round = 0; round < 20; round++) {
        List<CachedBlock> churn = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
          CachedBlock block = block(2 + round, i);
          map.putIfAbsent(block);
          churn.add(block);
        }
        for (CachedBlock block : churn) {
          assertThat(map.remove(block)).isTrue();
        }
      }
    } finally {
      done.set(true);
      reader.join();
    }
    assertThat(failure.get()).isNull();
    assertThat(map.size()).isEqualTo(stable.size());
  }

  @Test
  void hashSpreadsBlockOffsetsOverSegmentsAndSlots() {
    Set<Integer> segments = new HashSet<>();
    Set<Integer> slots = new HashSet<>();
    for (int i = 0; i < 256; i++) {
      int hash = BlockMap.hash(7, i * 65_589L);
      segments.add(hash >>> 28);
      slots.add(hash & 15);
    }
    assertThat(segments).hasSize(16);
    assertThat(slots).hasSize(16);
  }
}
