package io.cairn.core.catalog;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table options Cairn knows, with their validation. An unknown option, or a value outside an
 * option's domain, is an error naming the option and the accepted values: options are never stored
 * unchecked. Which options take effect in which release is documented in docs/sql.md.
 */
public final class TableOptions {
  /** An option's domain. */
  private sealed interface Domain permits Choice, Range {}

  private record Choice(List<String> values) implements Domain {}

  private record Range(long min, long max) implements Domain {}

  private static final Map<String, Domain> OPTIONS =
      Map.of(
          "DATA_BLOCK_ENCODING", new Choice(List.of("NONE", "PREFIX", "FAST_DIFF", "ROW_INDEX")),
          "COMPRESSION", new Choice(List.of("NONE", "LZ4", "SNAPPY", "ZSTD", "GZIP")),
          "BLOOMFILTER", new Choice(List.of("NONE", "ROW")),
          "DURABILITY", new Choice(List.of("FSYNC", "SYNC", "ASYNC", "SKIP")),
          "BLOCKSIZE", new Range(1024, 16L * 1024 * 1024),
          "GUIDE_POSTS_WIDTH", new Range(1, Long.MAX_VALUE),
          "TTL", new Range(1, Long.MAX_VALUE),
          "BLOCKCACHE", new Choice(List.of("TRUE", "FALSE")),
          "IN_MEMORY", new Choice(List.of("TRUE", "FALSE")));

  /**
   * Phoenix options Cairn refuses rather than accept and ignore, with what Cairn does instead. A
   * salted table would need a hash byte in every row key and scans merging the buckets back into
   * key order; Cairn spreads a table's writes with SPLIT ON points and automatic region splits.
   */
  private static final Map<String, String> REFUSED =
      Map.of(
          "SALT_BUCKETS",
          "Cairn does not salt row keys; it splits tables by SPLIT ON points (CREATE TABLE ..."
              + " SPLIT ON (...)) and automatic region splits instead");

  /**
   * Options that ALTER TABLE may change: storage and maintenance settings that apply to data
   * written (or compacted) afterwards, and TTL, which applies to every row at once.
   */
  private static final List<String> ALTERABLE =
      List.of(
          "BLOCKCACHE",
          "BLOCKSIZE",
          "BLOOMFILTER",
          "COMPRESSION",
          "DATA_BLOCK_ENCODING",
          "DURABILITY",
          "GUIDE_POSTS_WIDTH",
          "IN_MEMORY",
          "TTL");

  private TableOptions() {}

  /** Names of the options ALTER TABLE ... SET may change, sorted. */
  public static List<String> alterableNames() {
    return ALTERABLE;
  }

  /**
   * Validates options for ALTER TABLE ... SET: as {@link #validate}, and each option must be one
   * that can change after the table is created.
   *
   * @throws CairnException UNKNOWN_TABLE_OPTION, INVALID_TABLE_OPTION_VALUE, or NOT_SUPPORTED for
   *     an option that cannot change or that Cairn refuses (SALT_BUCKETS)
   */
  public static Map<String, String> validateChanges(Map<String, String> options) {
    for (String name : options.keySet()) {
      String upper = name.toUpperCase(Locale.ROOT);
      checkNotRefused(upper);
      if (OPTIONS.containsKey(upper) && !ALTERABLE.contains(upper)) {
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED,
            "Table option ["
                + upper
                + "] cannot be changed after the table is created (it fixes the row-key layout):"
                + " expected one of "
                + ALTERABLE
                + ", found ["
                + name
                + "]");
      }
    }
    return validate(options);
  }

  /** Names of all known options, sorted. */
  public static List<String> names() {
    return OPTIONS.keySet().stream().sorted().toList();
  }

  /**
   * Validates options and returns them canonicalised (upper-case names and choice values).
   *
   * @throws CairnException UNKNOWN_TABLE_OPTION or INVALID_TABLE_OPTION_VALUE; NOT_SUPPORTED for an
   *     option Cairn refuses (SALT_BUCKETS)
   */
  public static Map<String, String> validate(Map<String, String> options) {
    Map<String, String> result = new TreeMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String name = e.getKey().toUpperCase(Locale.ROOT);
      checkNotRefused(name);
      Domain domain = OPTIONS.get(name);
      if (domain == null) {
        throw new CairnException(
            ErrorCode.UNKNOWN_TABLE_OPTION,
            "Unknown table option [" + e.getKey() + "]: expected one of " + names());
      }
      result.put(name, validateValue(name, domain, e.getValue()));
    }
    return result;
  }

  private static void checkNotRefused(String name) {
    String instead = REFUSED.get(name);
    if (instead != null) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Table option ["
              + name
              + "] is not supported: "
              + instead
              + ". Supported options: "
              + names());
    }
  }

  private static String validateValue(String name, Domain domain, String value) {
    if (domain instanceof Choice choice) {
      String canonical = value.toUpperCase(Locale.ROOT);
      if (!choice.values().contains(canonical)) {
        throw new CairnException(
            ErrorCode.INVALID_TABLE_OPTION_VALUE,
            "Invalid value for table option "
                + name
                + ": expected one of "
                + choice.values()
                + ", found ["
                + value
                + "]");
      }
      return canonical;
    }
    Range range = (Range) domain;
    long parsed;
    try {
      parsed = Long.parseLong(value.trim());
    } catch (NumberFormatException ex) {
      throw new CairnException(
          ErrorCode.INVALID_TABLE_OPTION_VALUE,
          "Invalid value for table option "
              + name
              + ": expected an integer, found ["
              + value
              + "]");
    }
    if (parsed < range.min() || parsed > range.max()) {
      throw new CairnException(
          ErrorCode.INVALID_TABLE_OPTION_VALUE,
          "Invalid value for table option "
              + name
              + ": expected "
              + range.min()
              + ".."
              + range.max()
              + ", found ["
              + value
              + "]");
    }
    return Long.toString(parsed);
  }
}
