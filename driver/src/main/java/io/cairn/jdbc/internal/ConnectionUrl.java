package io.cairn.jdbc.internal;

import io.cairn.core.error.ErrorCode;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Parses Cairn JDBC URLs. Supported: {@code jdbc:cairn:mem:NAME} (embedded, in memory) and {@code
 * jdbc:cairn:file:DIR} (embedded, durable; DIR absolute or relative to the working directory, no
 * {@code ~} expansion). Recognised but not available yet: {@code jdbc:cairn://host:port}.
 *
 * <p>Either form may end in connection properties, {@code ;name=value} each (as in H2 and Phoenix):
 * {@value #DURABILITY} and store settings starting with {@value #STORE_SETTING_PREFIX}. They take
 * precedence over the same properties passed to {@code connect}. A DIR therefore cannot contain
 * {@code ;}.
 */
public final class ConnectionUrl {
  /** Connection property: durability of this connection's writes (SKIP, ASYNC, SYNC, FSYNC). */
  public static final String DURABILITY = "durability";

  /** Prefix of store settings, passed to the store when it opens. */
  public static final String STORE_SETTING_PREFIX = "cairn.";

  static final String SUPPORTED = "supported: jdbc:cairn:mem:NAME and jdbc:cairn:file:DIR";
  static final String FORMS =
      "expected jdbc:cairn:mem:NAME (NAME of letters, digits, '_', '-', '.'),"
          + " jdbc:cairn:file:DIR or jdbc:cairn://host:port, optionally followed by"
          + " ;name=value properties ("
          + DURABILITY
          + ", "
          + STORE_SETTING_PREFIX
          + "*)";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");

  private ConnectionUrl() {}

  public static boolean accepts(String url) {
    return url.startsWith(DriverInfo.URL_PREFIX);
  }

  /**
   * The store to open for an accepted URL, without its properties: {@code mem:NAME} or {@code
   * file:DIR} (DIR as written).
   */
  public static String storeName(String url) throws SQLException {
    String rest = withoutProperties(url).substring(DriverInfo.URL_PREFIX.length());
    if (rest.startsWith("mem:")) {
      String name = rest.substring("mem:".length());
      if (NAME.matcher(name).matches()) {
        return rest;
      }
      throw JdbcErrors.error(
          ErrorCode.INVALID_URL,
          "Invalid Cairn URL ["
              + url
              + "]: the store NAME must be non-empty letters, digits, '_', '-', '.'; "
              + FORMS);
    }
    if (rest.startsWith("file:")) {
      String dir = rest.substring("file:".length());
      if (dir.isBlank()) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_URL,
            "Invalid Cairn URL [" + url + "]: the store directory DIR is empty; " + FORMS);
      }
      return rest;
    }
    if (rest.startsWith("//")) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_URL,
          "Remote servers (jdbc:cairn://host:port) are not available yet in this version; "
              + SUPPORTED
              + "; found ["
              + url
              + "]");
    }
    throw JdbcErrors.error(ErrorCode.INVALID_URL, "Invalid Cairn URL [" + url + "]: " + FORMS);
  }

  /**
   * The connection properties written in the URL ({@code ;name=value} after the store), in order.
   * Names are checked: {@value #DURABILITY} (any case) or {@value #STORE_SETTING_PREFIX}*.
   */
  public static Map<String, String> properties(String url) throws SQLException {
    Map<String, String> properties = new LinkedHashMap<>();
    int start = url.indexOf(';');
    if (start < 0) {
      return properties;
    }
    for (String part : url.substring(start + 1).split(";", -1)) {
      int eq = part.indexOf('=');
      String name = eq < 0 ? part.strip() : part.substring(0, eq).strip();
      if (eq < 0 || name.isEmpty()) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_URL,
            "Invalid Cairn URL ["
                + url
                + "]: expected ;name=value properties after the store, found ["
                + part
                + "]; "
                + FORMS);
      }
      String canonical = name.equalsIgnoreCase(DURABILITY) ? DURABILITY : name;
      if (!canonical.equals(DURABILITY) && !canonical.startsWith(STORE_SETTING_PREFIX)) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_URL,
            "Unknown property ["
                + name
                + "] in Cairn URL ["
                + url
                + "]: expected "
                + DURABILITY
                + " or "
                + STORE_SETTING_PREFIX
                + "*; "
                + FORMS);
      }
      properties.put(canonical, part.substring(eq + 1).strip());
    }
    return properties;
  }

  /** {@code info} (may be null) with the URL's own properties on top. */
  public static Properties mergedProperties(String url, Properties info) throws SQLException {
    Properties merged = new Properties();
    if (info != null) {
      merged.putAll(info);
    }
    for (Map.Entry<String, String> e : properties(url).entrySet()) {
      merged.setProperty(e.getKey(), e.getValue());
    }
    // A differently cased "Durability" passed as a property means the same thing.
    for (String name : merged.stringPropertyNames()) {
      if (!name.equals(DURABILITY) && name.toLowerCase(Locale.ROOT).equals(DURABILITY)) {
        String value = merged.getProperty(name);
        merged.remove(name);
        merged.putIfAbsent(DURABILITY, value);
      }
    }
    return merged;
  }

  private static String withoutProperties(String url) {
    int semicolon = url.indexOf(';');
    return semicolon < 0 ? url : url.substring(0, semicolon);
  }
}
