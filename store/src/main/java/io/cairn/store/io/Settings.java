package io.cairn.store.io;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.Locale;
import java.util.Map;

/** Parsing of the store's {@code cairn.*} settings, with errors that name the key. */
public final class Settings {
  private Settings() {}

  /**
   * The size under {@code key}: a whole number of bytes with an optional k, m or g suffix (powers
   * of 1024), at least {@code min}; {@code fallback} when the key is absent.
   *
   * @throws CairnException INVALID_ARGUMENT naming the key, what was expected and what was found
   */
  public static long size(Map<String, String> settings, String key, long fallback, long min) {
    String text = settings.get(key);
    if (text == null) {
      return fallback;
    }
    String t = text.trim().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
      unit = t.endsWith("k") ? 1L << 10 : t.endsWith("m") ? 1L << 20 : 1L << 30;
      t = t.substring(0, t.length() - 1);
    }
    long value;
    try {
      value = Math.multiplyExact(Long.parseLong(t), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw invalid(key, "a whole number, optionally with k, m or g", text);
    }
    if (value < min) {
      throw invalid(key, "a value >= " + min, text);
    }
    return value;
  }

  /**
   * The duration under {@code key} in milliseconds: a whole number with a unit, ms, s, m or h (a
   * bare number is seconds), at least {@code minMillis}; {@code fallback} when the key is absent.
   *
   * @throws CairnException INVALID_ARGUMENT naming the key, what was expected and what was found
   */
  public static long millis(
      Map<String, String> settings, String key, long fallback, long minMillis) {
    String text = settings.get(key);
    if (text == null) {
      return fallback;
    }
    String t = text.trim().toLowerCase(Locale.ROOT);
    long unit = 1000;
    if (t.endsWith("ms")) {
      unit = 1;
      t = t.substring(0, t.length() - 2);
    } else if (t.endsWith("s") || t.endsWith("m") || t.endsWith("h")) {
      unit = t.endsWith("s") ? 1000 : t.endsWith("m") ? 60_000 : 3_600_000;
      t = t.substring(0, t.length() - 1);
    }
    long value;
    try {
      value = Math.multiplyExact(Long.parseLong(t.trim()), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw invalid(key, "a whole number with a unit ms, s, m or h (e.g. 10m)", text);
    }
    if (value < minMillis) {
      throw invalid(key, "at least " + minMillis + " ms", text);
    }
    return value;
  }

  /** The error for a bad value of {@code key}. */
  public static CairnException invalid(String key, String expected, String found) {
    return new CairnException(
        ErrorCode.INVALID_ARGUMENT,
        "Invalid store setting " + key + ": expected " + expected + ", found [" + found + "]");
  }
}
