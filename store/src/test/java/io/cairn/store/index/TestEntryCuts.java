package io.cairn.store.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.CellCursor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class TestEntryCuts {
  private static final int SKIP = 3;

  /**
   * Keys bucketed at cuts made from a sample of other keys (some sharing a longer prefix than the
   * rest, some shorter than it, some below or above it) come out of the buckets in key order: every
   * key of a bucket is below every key of the next, whatever the sample missed.
   */
  @Property(tries = 200)
  void bucketsKeepKeyOrderWhateverTheSample(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 64) int wanted) {
    Random random = new Random(seed);
    byte[] prefix = {7, 7, 7};
    int sharedTail = random.nextInt(4); // bytes after the prefix the sample's keys share
    byte[] tail = new byte[sharedTail];
    random.nextBytes(tail);
    SortedEntries sample = new SortedEntries();
    for (int i = 0; i < 1 + random.nextInt(200); i++) {
      add(sample, key(random, prefix, tail, random.nextInt(12)));
    }
    EntryCuts cuts = EntryCuts.of(sample, SKIP, wanted);
    List<BucketedEntries> pieces =
        List.of(new BucketedEntries(cuts, 4, 64), new BucketedEntries(cuts, 4, 64));
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      byte[] k;
      switch (random.nextInt(4)) {
        case 0 -> { // not sharing the sample's tail: below or above all of it
          byte[] other = tail.clone();
          if (other.length > 0) {
            other[random.nextInt(other.length)] ^= (byte) (1 + random.nextInt(255));
          }
          k = key(random, prefix, other, random.nextInt(12));
        }
        case 1 ->
            k = Arrays.copyOf(key(random, prefix, tail, 0), SKIP + random.nextInt(tail.length + 1));
        default -> k = key(random, prefix, tail, random.nextInt(12));
      }
      keys.add(k);
      BucketedEntries piece = pieces.get(i % 2);
      add(piece.staging(), k);
      piece.route();
    }
    List<byte[]> read = new ArrayList<>();
    EntryBuckets buckets = EntryBuckets.of(pieces, 5);
    CellCursor c = buckets.range(0, buckets.size());
    for (boolean valid = c.seek(Bytes.EMPTY); valid; valid = c.advance()) {
      read.add(Arrays.copyOfRange(c.rowArray(), c.rowOffset(), c.rowOffset() + c.rowLength()));
    }
    keys.sort(Arrays::compareUnsigned);
    assertThat(read).hasSize(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      assertThat(read.get(i)).as("key " + i).isEqualTo(keys.get(i));
    }
    assertThat(read).isSortedAccordingTo((Comparator<byte[]>) Arrays::compareUnsigned);
  }

  /** A key: the prefix, the tail, random bytes. */
  private static byte[] key(Random random, byte[] prefix, byte[] tail, int more) {
    byte[] k = new byte[prefix.length + tail.length + more];
    System.arraycopy(prefix, 0, k, 0, prefix.length);
    System.arraycopy(tail, 0, k, prefix.length, tail.length);
    for (int i = prefix.length + tail.length; i < k.length; i++) {
      k[i] = (byte) random.nextInt(random.nextBoolean() ? 4 : 256);
    }
    return k;
  }

  private static void add(SortedEntries entries, byte[] key) {
    entries.beginEntry();
    entries.out().write(key);
    entries.endKey();
    entries.out().write(1);
    entries.endEntry();
  }
}
