package io.cairn.store.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Big-endian ints and longs in byte arrays, without bounds checks beyond the array's own. */
public final class BigEndian {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private BigEndian() {}

  public static int getInt(byte[] data, int offset) {
    return (int) INT.get(data, offset);
  }

  public static void putInt(byte[] data, int offset, int value) {
    INT.set(data, offset, value);
  }

  public static long getLong(byte[] data, int offset) {
    return (long) LONG.get(data, offset);
  }

  public static void putLong(byte[] data, int offset, long value) {
    LONG.set(data, offset, value);
  }
}
