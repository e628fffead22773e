package io.cairn.it.crash;

import java.util.Properties;
import java.util.SplittableRandom;

/**
 * The crash workload's tables and values, shared by the child that writes them and the test that
 * checks them, so that every check is exact.
 *
 * <p>Writer {@code w} owns the rows {@code KV(K, w)} for {@code K} in {@code [0, KEYS)} and the
 * rows {@code TXLOG(w, *)}. Its transaction number {@code c} (1, 2, ...) sets {@code C = c} in the
 * rows {@code K < TOGGLE_KEY}, writes the row {@code TOGGLE_KEY} when {@code c} is even and deletes
 * it when {@code c} is odd, and inserts {@code TXLOG(w, c)}. KV's key starts with K and is split at
 * {@link #KV_SPLITS}, so each transaction spans several regions and two tables. After a crash, with
 * {@code M} the highest {@code C} in TXLOG for {@code w}: TXLOG holds exactly {@code 1..M}
 * (durability, no gaps), every KV row of {@code w} holds {@code C = M} and the toggle row exists
 * iff {@code M} is even (atomicity), and {@code M} is the last acknowledged number or one more.
 */
final class CrashSchema {
  /** Keys per writer in KV; the last one is the toggle row (written or deleted). */
  static final int KEYS = 8;

  static final int TOGGLE_KEY = KEYS - 1;
  static final int[] KV_SPLITS = {2, 4, 6};

  static final String CREATE_KV =
      "CREATE TABLE IF NOT EXISTS KV (K INTEGER NOT NULL, W INTEGER NOT NULL, C BIGINT NOT NULL,"
          + " PAD VARCHAR, PRIMARY KEY (K, W)) SPLIT ON (2, 4, 6)";
  static final String CREATE_TXLOG =
      "CREATE TABLE IF NOT EXISTS TXLOG (W INTEGER NOT NULL, C BIGINT NOT NULL, PAD VARCHAR,"
          + " PRIMARY KEY (W, C))";

  /**
   * A local index on KV's transaction number, carrying PAD: every transaction rewrites its entries,
   * in the same batch and log record as its rows.
   */
  static final String CREATE_KV_INDEX =
      "CREATE LOCAL INDEX IF NOT EXISTS KV_C ON KV (C) INCLUDE (PAD)";

  private CrashSchema() {}

  /** The store settings of the crash workload: small flushes, splits and compactions. */
  static Properties storeProperties() {
    return storeProperties("SYNC");
  }

  /** {@link #storeProperties()} with another durability (the checker's own test uses SKIP). */
  static Properties storeProperties(String durability) {
    Properties properties = new Properties();
    properties.setProperty("durability", durability);
    properties.setProperty(
        "cairn.memstore.flush-size", System.getProperty("cairn.crash.flush-size", "128k"));
    properties.setProperty(
        "cairn.region.split-size", System.getProperty("cairn.crash.split-size", "512k"));
    properties.setProperty(
        "cairn.compaction.min-files", System.getProperty("cairn.crash.compaction-min-files", "3"));
    return properties;
  }

  static String url(java.nio.file.Path dir) {
    return "jdbc:cairn:file:" + dir.toAbsolutePath();
  }

  /** The PAD of {@code KV(k, w)} written by transaction {@code c}. */
  static String kvPad(int k, int w, long c) {
    return pad(1, k, w, c);
  }

  /** The PAD of {@code TXLOG(w, c)}. */
  static String logPad(int w, long c) {
    return pad(2, 0, w, c);
  }

  /** A deterministic string of 10 to 250 letters and digits. */
  static String pad(int tag, int a, int b, long c) {
    SplittableRandom random =
        new SplittableRandom(((tag * 1_000_003L + a) * 1_000_033L + b) * 1_000_037L + c);
    int length = 10 + random.nextInt(241);
    char[] chars = new char[length];
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int i = 0; i < length; i++) {
      chars[i] = alphabet.charAt(random.nextInt(alphabet.length()));
    }
    return new String(chars);
  }
}
