package io.cairn.core.bytes;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * An immutable byte string ordered as unsigned bytes, lexicographically. Row keys and values travel
 * through the KV SPI as {@code Bytes}, never as bare arrays.
 */
public final class Bytes implements Comparable<Bytes> {
  public static final Bytes EMPTY = new Bytes(new byte[0]);

  private final byte[] data;
  private int hash;

  private Bytes(byte[] data) {
    this.data = data;
  }

  /** Copies {@code bytes}. */
  public static Bytes copyOf(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Bytes(bytes.clone());
  }

  /** Copies a slice. */
  public static Bytes copyOf(byte[] bytes, int offset, int length) {
    return length == 0 ? EMPTY : new Bytes(Arrays.copyOfRange(bytes, offset, offset + length));
  }

  /** Takes ownership of {@code bytes}: the caller must never change the array afterwards. */
  public static Bytes wrap(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Bytes(bytes);
  }

  public int length() {
    return data.length;
  }

  public boolean isEmpty() {
    return data.length == 0;
  }

  public byte get(int index) {
    return data[index];
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return data.clone();
  }

  /** The backing array, to read only. */
  public byte[] peekArray() {
    return data;
  }

  public boolean startsWith(Bytes prefix) {
    return prefix.data.length <= data.length
        && Arrays.equals(data, 0, prefix.data.length, prefix.data, 0, prefix.data.length);
  }

  /** This key followed by a zero byte: the smallest key greater than this one. */
  public Bytes successor() {
    return new Bytes(Arrays.copyOf(data, data.length + 1));
  }

  /**
   * The smallest key greater than every key starting with this prefix, or {@link #EMPTY} (no upper
   * bound) when the prefix is all 0xFF bytes.
   */
  public Bytes prefixEnd() {
    for (int i = data.length - 1; i >= 0; i--) {
      if (data[i] != (byte) 0xFF) {
        byte[] end = Arrays.copyOf(data, i + 1);
        end[i]++;
        return new Bytes(end);
      }
    }
    return EMPTY;
  }

  public Bytes concat(Bytes other) {
    byte[] joined = Arrays.copyOf(data, data.length + other.data.length);
    System.arraycopy(other.data, 0, joined, data.length, other.data.length);
    return wrap(joined);
  }

  @Override
  public int compareTo(Bytes other) {
    return Arrays.compareUnsigned(data, other.data);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Bytes other && Arrays.equals(data, other.data);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(data);
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return HexFormat.of().formatHex(data);
  }
}
