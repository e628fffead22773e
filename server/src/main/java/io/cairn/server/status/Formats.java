package io.cairn.server.status;

import io.cairn.core.bytes.Bytes;
import java.time.Duration;
import java.util.Locale;

/** How the status page writes values: escaped HTML, keys, sizes and durations. */
final class Formats {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private Formats() {}

  /** {@code s} as HTML text or attribute value: {@code & < > " '} escaped. */
  static String html(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String replacement =
          switch (c) {
            case '&' -> "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            case '\'' -> "&#39;";
            default -> null;
          };
      if (replacement != null) {
        if (sb == null) {
          sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        }
        sb.append(replacement);
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? s : sb.toString();
  }

  /**
   * A key as HBase's {@code Bytes.toStringBinary} writes it: printable ASCII as is, every other
   * byte (and the backslash) as {@code \xHH}.
   */
  static String key(Bytes key) {
    byte[] b = key.peekArray();
    StringBuilder sb = new StringBuilder(b.length);
    for (byte x : b) {
      int c = x & 0xFF;
      if (c >= ' ' && c <= '~' && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append("\\x").append(HEX[c >>> 4]).append(HEX[c & 0xF]);
      }
    }
    return sb.toString();
  }

  /** A size in binary units with one decimal, e.g. {@code 1.5 MiB}; plain bytes below 1 KiB. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    int unit = 0;
    double v = n;
    while (v >= 1024 && unit < UNITS.length - 1) {
      v /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, UNITS[unit]);
  }

  /** A duration for people: {@code 850 ms}, {@code 12.3 s}, {@code 5m 02s}, {@code 3d 04h 05m}. */
  static String duration(Duration d) {
    long millis = d.toMillis();
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis < 60_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    long s = d.getSeconds();
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format(Locale.ROOT, "%dh %02dm %02ds", s / 3600, s % 3600 / 60, s % 60);
    }
    return String.format(
        Locale.ROOT, "%dd %02dh %02dm", s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
  }

  /** A ratio from 0 to 1 as a percentage with one decimal. */
  static String percent(double ratio) {
    return String.format(Locale.ROOT, "%.1f%%", ratio * 100);
  }
}
