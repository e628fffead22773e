package io.cairn.core.encoding;

import io.cairn.core.bytes.Bytes;
import java.util.Arrays;

/** A growing byte array that encoders append to. Not thread-safe. */
public final class ByteBuilder {
  private byte[] buffer;
  private int length;

  public ByteBuilder() {
    this(32);
  }

  public ByteBuilder(int initialCapacity) {
    buffer = new byte[Math.max(initialCapacity, 8)];
  }

  public int length() {
    return length;
  }

  /**
   * The builder's own array: its first {@link #length()} bytes are what was written. Valid until
   * the next write (which may replace it); never hand it out beyond that.
   */
  public byte[] array() {
    return buffer;
  }

  private void ensure(int extra) {
    int needed = length + extra;
    if (needed > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
    }
  }

  public ByteBuilder write(int b) {
    ensure(1);
    buffer[length++] = (byte) b;
    return this;
  }

  public ByteBuilder write(byte[] bytes) {
    return write(bytes, 0, bytes.length);
  }

  public ByteBuilder write(byte[] bytes, int offset, int count) {
    ensure(count);
    System.arraycopy(bytes, offset, buffer, length, count);
    length += count;
    return this;
  }

  /** Big-endian, {@code byteCount} low-order bytes of {@code value}. */
  public ByteBuilder writeBigEndian(long value, int byteCount) {
    ensure(byteCount);
    for (int i = byteCount - 1; i >= 0; i--) {
      buffer[length++] = (byte) (value >>> (8 * i));
    }
    return this;
  }

  /** Unsigned LEB128 varint of a non-negative value. */
  public ByteBuilder writeVarint(long value) {
    if (value < 0) {
      throw new IllegalArgumentException("Varint must be non-negative: found [" + value + "]");
    }
    while ((value & ~0x7FL) != 0) {
      write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    return write((int) value);
  }

  /** Inverts every bit of the bytes in {@code [from, length())}. */
  public void invertFrom(int from) {
    for (int i = from; i < length; i++) {
      buffer[i] = (byte) ~buffer[i];
    }
  }

  /** Overwrites a byte already written. */
  public void set(int index, int b) {
    buffer[index] = (byte) b;
  }

  /** Discards everything after the first {@code newLength} bytes. */
  public void truncate(int newLength) {
    length = newLength;
  }

  public Bytes toBytes() {
    return Bytes.wrap(Arrays.copyOf(buffer, length));
  }
}
