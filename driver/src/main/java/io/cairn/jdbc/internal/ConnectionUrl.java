package io.cairn.jdbc.internal;

import io.cairn.core.error.ErrorCode;
import java.sql.SQLException;
import java.util.regex.Pattern;

/**
 * Parses Cairn JDBC URLs. Supported: {@code jdbc:cairn:mem:NAME}. Recognised but not available yet:
 * {@code jdbc:cairn:file:DIR} and {@code jdbc:cairn://host:port}.
 */
public final class ConnectionUrl {
  static final String SUPPORTED = "supported: jdbc:cairn:mem:NAME";
  static final String FORMS =
      "expected jdbc:cairn:mem:NAME (NAME of letters, digits, '_', '-', '.'),"
          + " jdbc:cairn:file:DIR or jdbc:cairn://host:port";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");

  private ConnectionUrl() {}

  public static boolean accepts(String url) {
    return url.startsWith(DriverInfo.URL_PREFIX);
  }

  /** The store name to open for an accepted URL, e.g. {@code mem:demo}. */
  public static String storeName(String url) throws SQLException {
    String rest = url.substring(DriverInfo.URL_PREFIX.length());
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
      throw JdbcErrors.error(
          ErrorCode.INVALID_URL,
          "Durable embedded stores (jdbc:cairn:file:DIR) are not available yet in this version; "
              + SUPPORTED
              + "; found ["
              + url
              + "]");
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
}
