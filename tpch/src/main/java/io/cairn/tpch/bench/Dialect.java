package io.cairn.tpch.bench;

import java.util.Locale;

/**
 * The few statements that differ between Cairn and the databases it is compared with. Hints ({@code
 * /*+ ... *}{@code /}) are Cairn syntax; they are left in the text for every database, where they
 * are plain comments (DuckDB and H2 ignore them).
 */
enum Dialect {
  CAIRN,
  DUCKDB,
  H2,
  OTHER;

  static Dialect of(String url) {
    String u = url.toLowerCase(Locale.ROOT);
    if (u.startsWith("jdbc:cairn:")) {
      return CAIRN;
    } else if (u.startsWith("jdbc:duckdb:")) {
      return DUCKDB;
    } else if (u.startsWith("jdbc:h2:")) {
      return H2;
    }
    return OTHER;
  }

  /** Cairn writes with UPSERT, the others with INSERT. */
  String insertVerb() {
    return this == CAIRN ? "UPSERT" : "INSERT";
  }

  /**
   * CREATE INDEX {@code name} ON {@code table} ({@code columns}): a local index on Cairn ({@code
   * CREATE LOCAL INDEX}), a plain index elsewhere.
   */
  String createIndex(String name, String table, String columns) {
    return (this == CAIRN ? "CREATE LOCAL INDEX " : "CREATE INDEX ")
        + name
        + " ON "
        + table
        + " ("
        + columns
        + ")";
  }

  /**
   * DROP INDEX {@code name} of {@code table}: Cairn (as Phoenix) names the table, the others not.
   */
  String dropIndex(String name, String table) {
    return this == CAIRN ? "DROP INDEX " + name + " ON " + table : "DROP INDEX " + name;
  }

  /**
   * An in-process DuckDB URL that every connection of this JVM shares: plain {@code jdbc:duckdb:}
   * opens a new, empty database on each connection, so the loader's rows would be lost.
   */
  static String shareable(String url, int index) {
    String u = url.trim();
    if (u.equals("jdbc:duckdb:") || u.equals("jdbc:duckdb::memory:")) {
      return "jdbc:duckdb:memory:cairn_bench_" + index;
    }
    return u;
  }
}
