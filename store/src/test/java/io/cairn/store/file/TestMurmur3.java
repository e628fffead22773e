package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Our Murmur3 x64-128 against Guava's (test-only dependency) for every length up to 100. */
class TestMurmur3 {
  @Test
  void matchesGuava() {
    Random random = new Random(0);
    long[] out = new long[2];
    for (int length = 0; length <= 100; length++) {
      for (int i = 0; i < 20; i++) {
        byte[] data = new byte[length + 3];
        random.nextBytes(data);
        Murmur3.hash128(data, 3, length, out);
        byte[] expected = Hashing.murmur3_128().hashBytes(data, 3, length).asBytes();
        ByteBuffer buffer = ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(out[0]).isEqualTo(buffer.getLong());
        assertThat(out[1]).isEqualTo(buffer.getLong());
      }
    }
  }
}
