package io.cairn.core.encoding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A LIKE pattern of literal runs between {@code %}s matched on bytes: whether {@code a[start, end)}
 * holds the runs in order without overlapping, the first at the start and the last at the end when
 * anchored there. On well-formed UTF-8 a run found starts and ends on character boundaries, so the
 * bytes match exactly where the characters do. Used by a row's value ({@link RowReader#likeBytes})
 * and by a block's column of bytes (a vector filter).
 */
public final class ByteRuns {
  private ByteRuns() {}

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * Whether {@code a[start, end)} holds {@code runs} in order without overlapping: the first at the
   * start when {@code anchoredStart}, the last at the end when {@code anchoredEnd} (no runs and
   * both anchored: the empty value only). Allocates nothing.
   */
  public static boolean like(
      byte[] a, int start, int end, byte[][] runs, boolean anchoredStart, boolean anchoredEnd) {
    int from = 0;
    int to = runs.length;
    if (to == 0) {
      return !(anchoredStart && anchoredEnd) || start == end;
    }
    if (anchoredStart) {
      byte[] run = runs[0];
      if (end - start < run.length
          || !Arrays.equals(a, start, start + run.length, run, 0, run.length)) {
        return false;
      }
      start += run.length;
      from = 1;
    }
    if (anchoredEnd) {
      if (from == to) {
        return start == end; // one run, anchored at both ends: the whole value
      }
      byte[] run = runs[to - 1];
      if (end - start < run.length
          || !Arrays.equals(a, end - run.length, end, run, 0, run.length)) {
        return false;
      }
      end -= run.length;
      to--;
    }
    for (int i = from; i < to; i++) {
      int at = indexOf(a, start, end, runs[i]);
      if (at < 0) {
        return false;
      }
      start = at + runs[i].length;
    }
    return true;
  }

  /**
   * The first position in [{@code from}, {@code to}) of {@code a} where {@code run} (not empty) is,
   * or -1: eight positions at a time are tested for {@code run}'s first byte there and its last
   * byte where the run would end (both equal: the two xors or to a zero byte, and {@code (x -
   * 0x01..01) & ~x & 0x80..80} marks every zero byte, some bytes after one too), and only the
   * marked positions compare the bytes between: a common first letter alone ('s' of "special" in
   * text) marks a position in every few.
   */
  static int indexOf(byte[] a, int from, int to, byte[] run) {
    int n = run.length;
    int last = to - n;
    int first = run[0] & 0xFF;
    long firsts = first * 0x0101010101010101L;
    long lasts = (run[n - 1] & 0xFFL) * 0x0101010101010101L;
    int at = from;
    for (; at + 7 <= last; at += 8) {
      // the 8 bytes read at at + n - 1 end by last + n + 6 = to - 1: within the value
      long x = ((long) LONG_LE.get(a, at) ^ firsts) | ((long) LONG_LE.get(a, at + n - 1) ^ lasts);
      long marks = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L;
      while (marks != 0) {
        int p = at + (Long.numberOfTrailingZeros(marks) >>> 3);
        // the lowest mark is a zero byte of x, a match of a run of 1 or 2 bytes; a mark above one
        // may come of the subtraction's borrow: the run is compared whole
        if (n <= 2 || Arrays.equals(a, p, p + n, run, 0, n)) {
          return p;
        }
        marks &= marks - 1;
      }
    }
    for (; at <= last; at++) {
      if ((a[at] & 0xFF) == first && Arrays.equals(a, at, at + n, run, 0, n)) {
        return at;
      }
    }
    return -1;
  }
}
