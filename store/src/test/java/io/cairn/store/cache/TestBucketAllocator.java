package io.cairn.store.cache;

import static io.cairn.store.cache.TestingBlockCaches.BUCKET;
import static io.cairn.store.cache.TestingBlockCaches.SIZES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestBucketAllocator {
  private static final long SLAB = (long) BucketAllocator.SLAB_BUCKETS * BUCKET;

  private static BucketAllocator newAllocator(int buckets) {
    return new BucketAllocator("test", (long) buckets * BUCKET + 100, SIZES, BUCKET);
  }

  @Test
  void servesTheSmallestClassThatFits() {
    BucketAllocator allocator = newAllocator(4);
    assertThat(allocator.capacity()).as("whole buckets").isEqualTo(4L * BUCKET);
    assertThat(allocator.itemSize(1)).isEqualTo(1024);
    assertThat(allocator.itemSize(1024)).isEqualTo(1024);
    assertThat(allocator.itemSize(1025)).isEqualTo(2048);
    assertThat(allocator.itemSize(4096)).isEqualTo(4096);
    assertThat(allocator.itemSize(4097)).isEqualTo(-1);
    assertThatThrownBy(() -> allocator.allocate(4097))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[4097] is larger than the largest item size [4096]");

    long a = allocator.allocate(100);
    long b = allocator.allocate(1024);
    long c = allocator.allocate(2000);
    assertThat(a).isZero();
    assertThat(b).isEqualTo(1024);
    assertThat(c).as("a second bucket for the 2 KiB class").isEqualTo(BUCKET);
    assertThat(allocator.usedBytes()).isEqualTo(1024 + 1024 + 2048);
    assertThat(allocator.usedSlots()).isEqualTo(3);
    allocator.checkConsistency();
  }

  @Test
  void allocatesSlabsOnlyWhenABucketNeedsOne() {
    BucketAllocator allocator = newAllocator(BucketAllocator.SLAB_BUCKETS + 2);
    assertThat(allocator.allocatedBytes()).isZero();
    allocator.allocate(1024);
    assertThat(allocator.allocatedBytes()).isEqualTo(SLAB);
    for (int i = 0; i < (BucketAllocator.SLAB_BUCKETS - 1) * 4; i++) {
      allocator.allocate(4096); // four per bucket: fills the rest of the first slab
    }
    assertThat(allocator.allocatedBytes()).isEqualTo(SLAB);
    allocator.allocate(4096);
    assertThat(allocator.allocatedBytes())
        .as("the last slab has 2 buckets")
        .isEqualTo(SLAB + 2L * BUCKET);
    allocator.checkConsistency();
  }

  @Test
  void anEmptyBucketServesAnotherClass() {
    BucketAllocator allocator = newAllocator(2);
    List<Long> small = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      small.add(allocator.allocate(1024));
    }
    long big = allocator.allocate(4096);
    assertThat(big).isEqualTo(BUCKET);
    assertThat(allocator.allocate(1024)).as("both buckets taken by other classes").isEqualTo(-1);
    assertThat(allocator.allocate(2048)).isEqualTo(-1);

    allocator.free(big);
    assertThat(allocator.usedSlots(1)).isZero();
    assertThat(allocator.allocate(2048)).as("the free bucket switches class").isEqualTo(BUCKET);
    allocator.free(small.get(5));
    assertThat(allocator.allocate(1000)).as("the freed slot is reused").isEqualTo(small.get(5));
    allocator.checkConsistency();
  }

  @Test
  void slotsDoNotOverlap() {
    BucketAllocator allocator = newAllocator(6);
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    List<long[]> live = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      if (!live.isEmpty() && (random.nextBoolean() || live.size() > 40)) {
        long[] slot = live.remove(random.nextInt(live.size()));
        ByteBuffer view = allocator.slice(slot[0], (int) slot[1]);
        int wrong = 0;
        for (int j = 0; j < slot[1]; j++) {
          wrong += view.get(j) == (byte) slot[2] ? 0 : 1;
        }
        assertThat(wrong).as("bytes overwritten, seed %s", seed).isZero();
        allocator.free(slot[0]);
      } else {
        int length = 1 + random.nextInt(4096);
        long address = allocator.allocate(length);
        if (address >= 0) {
          ByteBuffer view = allocator.slice(address, length);
          for (int j = 0; j < length; j++) {
            view.put(j, (byte) i);
          }
          live.add(new long[] {address, length, i});
        }
      }
    }
    allocator.checkConsistency();
    Set<Long> addresses = new HashSet<>();
    for (long[] slot : live) {
      assertThat(addresses.add(slot[0])).isTrue();
      allocator.free(slot[0]);
    }
    assertThat(allocator.usedBytes()).isZero();
    assertThat(allocator.usedSlots()).isZero();
    allocator.checkConsistency();
  }

  @Test
  void doubleFreeThrows() {
    BucketAllocator allocator = newAllocator(2);
    long a = allocator.allocate(1024);
    allocator.allocate(1024);
    allocator.free(a);
    assertThatThrownBy(() -> allocator.free(a))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("free of slot [0] of test that is not in use (double free)");
    assertThatThrownBy(() -> allocator.free(BUCKET))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("double free");
    assertThatThrownBy(() -> allocator.free(2L * BUCKET))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("outside test");
    allocator.checkConsistency();
  }

  @Test
  void closeDropsTheSlabsAndStillCountsFrees() {
    BucketAllocator allocator = newAllocator(2);
    long a = allocator.allocate(1024);
    ByteBuffer held = allocator.slice(a, 10);
    held.put(0, (byte) 7);
    allocator.close();
    assertThat(allocator.allocatedBytes()).isZero();
    assertThat(allocator.allocate(1024)).isEqualTo(-1);
    assertThat(allocator.slice(a, 10)).isNull();
    assertThat(held.get(0)).as("a view keeps its memory").isEqualTo((byte) 7);
    allocator.free(a);
    assertThat(allocator.usedBytes()).isZero();
    allocator.checkConsistency();
  }
}
