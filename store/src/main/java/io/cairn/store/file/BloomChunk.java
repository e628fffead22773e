package io.cairn.store.file;

import static io.cairn.store.file.BlockFileFormat.BLOOM_BITS_PER_ROW;
import static io.cairn.store.file.BlockFileFormat.BLOOM_HASH_COUNT;

import io.cairn.store.io.ByteArrayOutput;
import java.nio.ByteBuffer;

/**
 * One chunk of the row bloom filter, covering a run of consecutive distinct rows:
 *
 * <pre>
 * u8   k: hash count (7)
 * u32  m: bit count (10 per row, rounded up to a multiple of 64)
 * u8*(m/8) bits; bit i is (byte i/8) &amp; (1 &lt;&lt; (i mod 8))
 * </pre>
 *
 * A row with Murmur3 x64-128 halves h1, h2 sets bits {@code ((h1 + j * h2) & Long.MAX_VALUE) % m}
 * for j in [0, k).
 */
final class BloomChunk {
  private BloomChunk() {}

  /** Writes a chunk for {@code n} rows with hash halves {@code h1[i]}, {@code h2[i]}. */
  static void build(long[] h1, long[] h2, int n, ByteArrayOutput out) {
    long bits = Math.max(64L, ((long) n * BLOOM_BITS_PER_ROW + 63) / 64 * 64);
    int m = Math.toIntExact(bits);
    byte[] array = new byte[m / 8];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < BLOOM_HASH_COUNT; j++) {
        int bit = bitIndex(h1[i], h2[i], j, m);
        array[bit >>> 3] |= (byte) (1 << (bit & 7));
      }
    }
    out.reset();
    out.writeByte(BLOOM_HASH_COUNT);
    out.writeInt(m);
    out.writeBytes(array, 0, array.length);
  }

  /** Whether the chunk in {@code block} may hold the row with hash halves h1, h2. */
  static boolean mightContain(Block block, long h1, long h2) {
    ByteBuffer data = block.buffer();
    int start = block.start();
    if (block.length() < 5) {
      throw new IllegalArgumentException("Bloom chunk shorter than its header");
    }
    int k = data.get(start) & 0xFF;
    int m = data.getInt(start + 1);
    if (k < 1 || k > 64 || m < 8 || m % 8 != 0 || m / 8 != block.length() - 5) {
      throw new IllegalArgumentException(
          "Bloom chunk header: ["
              + k
              + "] hashes, ["
              + m
              + "] bits in ["
              + block.length()
              + "] bytes");
    }
    for (int j = 0; j < k; j++) {
      int bit = bitIndex(h1, h2, j, m);
      if ((data.get(start + 5 + (bit >>> 3)) & (1 << (bit & 7))) == 0) {
        return false;
      }
    }
    return true;
  }

  private static int bitIndex(long h1, long h2, int j, int m) {
    return (int) (((h1 + j * h2) & Long.MAX_VALUE) % m);
  }
}
