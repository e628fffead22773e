package io.cairn.store.wal;

/**
 * Options of a {@link WriteAheadLog}.
 *
 * @param segmentBytes the size past which the writer rolls to a new segment file; default {@value
 *     #DEFAULT_SEGMENT_BYTES} (128 MiB). A segment may exceed it by one write round.
 * @param writeBufferBytes the writer's reusable gather buffer: one write round is written in calls
 *     of at most this many bytes (a larger record is written on its own); default {@value
 *     #DEFAULT_WRITE_BUFFER_BYTES} (1 MiB)
 */
public record WalConfig(long segmentBytes, int writeBufferBytes) {
  public static final long DEFAULT_SEGMENT_BYTES = 128L << 20;
  public static final int DEFAULT_WRITE_BUFFER_BYTES = 1 << 20;

  public static final WalConfig DEFAULT =
      new WalConfig(DEFAULT_SEGMENT_BYTES, DEFAULT_WRITE_BUFFER_BYTES);

  public WalConfig {
    if (segmentBytes < WalFormat.HEADER_BYTES + 1) {
      throw new IllegalArgumentException("segmentBytes too small: [" + segmentBytes + "]");
    }
    if (writeBufferBytes < 4096) {
      throw new IllegalArgumentException(
          "writeBufferBytes must be at least [4096], found [" + writeBufferBytes + "]");
    }
  }

  public WalConfig withSegmentBytes(long segmentBytes) {
    return new WalConfig(segmentBytes, writeBufferBytes);
  }

  public WalConfig withWriteBufferBytes(int writeBufferBytes) {
    return new WalConfig(segmentBytes, writeBufferBytes);
  }
}
