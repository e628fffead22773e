package io.cairn.store.file;

/**
 * MurmurHash3 x64 128-bit (Austin Appleby's public-domain algorithm), seed 0: the row hash of the
 * bloom filter. {@link #hash128} returns both 64-bit halves (as Guava's {@code murmur3_128}: the
 * first is its digest's first 8 bytes read little-endian). Must never change: bloom filters on disk
 * depend on it.
 */
final class Murmur3 {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3() {}

  /** Both halves: {@code out[0]} = h1, {@code out[1]} = h2. */
  static void hash128(byte[] data, int offset, int length, long[] out) {
    long h1 = 0;
    long h2 = 0;
    int blocks = length >>> 4;
    for (int i = 0; i < blocks; i++) {
      int p = offset + (i << 4);
      long k1 = getLongLittleEndian(data, p);
      long k2 = getLongLittleEndian(data, p + 8);
      h1 ^= mixK1(k1);
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2);
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = offset + (blocks << 4);
    int rest = length & 15;
    long k1 = 0;
    long k2 = 0;
    for (int i = rest - 1; i >= 8; i--) {
      k2 ^= (long) (data[tail + i] & 0xFF) << ((i - 8) * 8);
    }
    for (int i = Math.min(rest, 8) - 1; i >= 0; i--) {
      k1 ^= (long) (data[tail + i] & 0xFF) << (i * 8);
    }
    if (rest > 8) {
      h2 ^= mixK2(k2);
    }
    if (rest > 0) {
      h1 ^= mixK1(k1);
    }
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    out[0] = h1;
    out[1] = h2;
  }

  private static long mixK1(long k1) {
    k1 *= C1;
    k1 = Long.rotateLeft(k1, 31);
    k1 *= C2;
    return k1;
  }

  private static long mixK2(long k2) {
    k2 *= C2;
    k2 = Long.rotateLeft(k2, 33);
    k2 *= C1;
    return k2;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  private static long getLongLittleEndian(byte[] data, int p) {
    return (data[p] & 0xFFL)
        | (data[p + 1] & 0xFFL) << 8
        | (data[p + 2] & 0xFFL) << 16
        | (data[p + 3] & 0xFFL) << 24
        | (data[p + 4] & 0xFFL) << 32
        | (data[p + 5] & 0xFFL) << 40
        | (data[p + 6] & 0xFFL) << 48
        | (data[p + 7] & 0xFFL) << 56;
  }
}
