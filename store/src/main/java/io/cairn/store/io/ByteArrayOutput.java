package io.cairn.store.io;

import java.util.Arrays;

/** A growable byte array to build blocks in; reused across blocks via {@link #reset()}. */
public final class ByteArrayOutput {
  private byte[] data;
  private int size;

  public ByteArrayOutput(int initialCapacity) {
    this.data = new byte[Math.max(16, initialCapacity)];
  }

  public int size() {
    return size;
  }

  /** The backing array, valid up to {@link #size()} until the next write. */
  public byte[] peekArray() {
    return data;
  }

  public void reset() {
    size = 0;
  }

  /** Makes room for {@code extra} more bytes. */
  public void ensureCapacity(int extra) {
    int needed = size + extra;
    if (needed < 0) {
      throw new IllegalStateException("Block larger than 2 GiB");
    }
    if (needed > data.length) {
      data = Arrays.copyOf(data, Math.max(needed, data.length + (data.length >> 1)));
    }
  }

  public void writeByte(int value) {
    ensureCapacity(1);
    data[size++] = (byte) value;
  }

  public void writeInt(int value) {
    ensureCapacity(4);
    BigEndian.putInt(data, size, value);
    size += 4;
  }

  public void writeLong(long value) {
    ensureCapacity(8);
    BigEndian.putLong(data, size, value);
    size += 8;
  }

  public void writeVarint(long value) {
    ensureCapacity(10);
    size = Varints.put(data, size, value);
  }

  public void writeBytes(byte[] bytes, int offset, int length) {
    ensureCapacity(length);
    System.arraycopy(bytes, offset, data, size, length);
    size += length;
  }

  /** Overwrites 4 bytes at {@code offset} (already written). */
  public void setInt(int offset, int value) {
    BigEndian.putInt(data, offset, value);
  }

  /** Advances the size by {@code length} bytes the caller wrote into {@link #peekArray()}. */
  public void skip(int length) {
    ensureCapacity(length);
    size += length;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(data, size);
  }
}
