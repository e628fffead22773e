package io.cairn.tpch.load;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The TPC-H tables as the specification defines them (clause 1.4), primary keys included. Column
 * order matches io.trino.tpch's generators, which the loader relies on.
 */
public final class TpchSchema {
  /** Table names in load order (small first). */
  public static final List<String> TABLES =
      List.of("REGION", "NATION", "SUPPLIER", "CUSTOMER", "PART", "PARTSUPP", "ORDERS", "LINEITEM");

  private static final Map<String, String> DDL =
      Map.of(
          "REGION",
          "CREATE TABLE REGION (R_REGIONKEY INTEGER NOT NULL PRIMARY KEY, R_NAME CHAR(25) NOT NULL,"
              + " R_COMMENT VARCHAR(152))",
          "NATION",
          "CREATE TABLE NATION (N_NATIONKEY INTEGER NOT NULL PRIMARY KEY, N_NAME CHAR(25) NOT NULL,"
              + " N_REGIONKEY INTEGER NOT NULL, N_COMMENT VARCHAR(152))",
          "SUPPLIER",
          "CREATE TABLE SUPPLIER (S_SUPPKEY BIGINT NOT NULL PRIMARY KEY, S_NAME CHAR(25) NOT NULL,"
              + " S_ADDRESS VARCHAR(40) NOT NULL, S_NATIONKEY INTEGER NOT NULL,"
              + " S_PHONE CHAR(15) NOT NULL, S_ACCTBAL DECIMAL(15,2) NOT NULL,"
              + " S_COMMENT VARCHAR(101) NOT NULL)",
          "CUSTOMER",
          "CREATE TABLE CUSTOMER (C_CUSTKEY BIGINT NOT NULL PRIMARY KEY, C_NAME VARCHAR(25) NOT NULL,"
              + " C_ADDRESS VARCHAR(40) NOT NULL, C_NATIONKEY INTEGER NOT NULL,"
              + " C_PHONE CHAR(15) NOT NULL, C_ACCTBAL DECIMAL(15,2) NOT NULL,"
              + " C_MKTSEGMENT CHAR(10) NOT NULL, C_COMMENT VARCHAR(117) NOT NULL)",
          "PART",
          "CREATE TABLE PART (P_PARTKEY BIGINT NOT NULL PRIMARY KEY, P_NAME VARCHAR(55) NOT NULL,"
              + " P_MFGR CHAR(25) NOT NULL, P_BRAND CHAR(10) NOT NULL, P_TYPE VARCHAR(25) NOT NULL,"
              + " P_SIZE INTEGER NOT NULL, P_CONTAINER CHAR(10) NOT NULL,"
              + " P_RETAILPRICE DECIMAL(15,2) NOT NULL, P_COMMENT VARCHAR(23) NOT NULL)",
          "PARTSUPP",
          "CREATE TABLE PARTSUPP (PS_PARTKEY BIGINT NOT NULL, PS_SUPPKEY BIGINT NOT NULL,"
              + " PS_AVAILQTY INTEGER NOT NULL, PS_SUPPLYCOST DECIMAL(15,2) NOT NULL,"
              + " PS_COMMENT VARCHAR(199) NOT NULL, PRIMARY KEY (PS_PARTKEY, PS_SUPPKEY))",
          "ORDERS",
          "CREATE TABLE ORDERS (O_ORDERKEY BIGINT NOT NULL PRIMARY KEY, O_CUSTKEY BIGINT NOT NULL,"
              + " O_ORDERSTATUS CHAR(1) NOT NULL, O_TOTALPRICE DECIMAL(15,2) NOT NULL,"
              + " O_ORDERDATE DATE NOT NULL, O_ORDERPRIORITY CHAR(15) NOT NULL,"
              + " O_CLERK CHAR(15) NOT NULL, O_SHIPPRIORITY INTEGER NOT NULL,"
              + " O_COMMENT VARCHAR(79) NOT NULL)",
          "LINEITEM",
          "CREATE TABLE LINEITEM (L_ORDERKEY BIGINT NOT NULL, L_PARTKEY BIGINT NOT NULL,"
              + " L_SUPPKEY BIGINT NOT NULL, L_LINENUMBER INTEGER NOT NULL,"
              + " L_QUANTITY DECIMAL(15,2) NOT NULL, L_EXTENDEDPRICE DECIMAL(15,2) NOT NULL,"
              + " L_DISCOUNT DECIMAL(15,2) NOT NULL, L_TAX DECIMAL(15,2) NOT NULL,"
              + " L_RETURNFLAG CHAR(1) NOT NULL, L_LINESTATUS CHAR(1) NOT NULL,"
              + " L_SHIPDATE DATE NOT NULL, L_COMMITDATE DATE NOT NULL,"
              + " L_RECEIPTDATE DATE NOT NULL, L_SHIPINSTRUCT CHAR(25) NOT NULL,"
              + " L_SHIPMODE CHAR(10) NOT NULL, L_COMMENT VARCHAR(44) NOT NULL,"
              + " PRIMARY KEY (L_ORDERKEY, L_LINENUMBER))");

  /** Rows per unit of scale factor (LINEITEM is approximate: 1 to 7 lines per order). */
  private static final Map<String, Long> ROWS_PER_SF =
      Map.of(
          "SUPPLIER", 10_000L,
          "CUSTOMER", 150_000L,
          "PART", 200_000L,
          "PARTSUPP", 800_000L,
          "ORDERS", 1_500_000L,
          "LINEITEM", 6_001_215L);

  /**
   * Below this scale factor io.trino.tpch repeats PARTSUPP primary keys (there are too few
   * suppliers), so a keyed PARTSUPP holds fewer rows than generated.
   */
  public static final double MIN_EXACT_SCALE_FACTOR = 0.01;

  private TpchSchema() {}

  /** CREATE TABLE for {@code table} (upper case name). */
  public static String ddl(String table) {
    String ddl = DDL.get(table.toUpperCase(Locale.ROOT));
    if (ddl == null) {
      throw new IllegalArgumentException(
          "Unknown TPC-H table: expected one of " + TABLES + ", found [" + table + "]");
    }
    return ddl;
  }

  /** Expected rows at {@code scaleFactor} (approximate for LINEITEM). */
  public static long expectedRows(String table, double scaleFactor) {
    return switch (table.toUpperCase(Locale.ROOT)) {
      case "REGION" -> 5;
      case "NATION" -> 25;
      default -> Math.round(ROWS_PER_SF.get(table.toUpperCase(Locale.ROOT)) * scaleFactor);
    };
  }

  /** The generator's table name for a TPC-H table ("LINEITEM" -> "lineitem"). */
  static String generatorName(String table) {
    return table.toLowerCase(Locale.ROOT);
  }
}
