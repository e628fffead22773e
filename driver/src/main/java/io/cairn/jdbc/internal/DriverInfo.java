package io.cairn.jdbc.internal;

/** Names and versions the driver reports. */
public final class DriverInfo {
  public static final String PRODUCT_NAME = "Cairn";
  public static final String DRIVER_NAME = "Cairn JDBC Driver";
  public static final int MAJOR_VERSION = 0;
  public static final int MINOR_VERSION = 1;
  public static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION + ".0";
  public static final String URL_PREFIX = "jdbc:cairn:";

  private DriverInfo() {}
}
