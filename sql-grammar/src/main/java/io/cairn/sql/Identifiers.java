package io.cairn.sql;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;

/**
 * The one place that defines identifier quoting and case rules in Cairn, the same as Calcite's
 * defaults ({@code Quoting.DOUBLE_QUOTE}, {@code Casing.TO_UPPER} unquoted, {@code
 * Casing.UNCHANGED} quoted).
 *
 * <ul>
 *   <li>Double quotes delimit an identifier; {@code ""} inside it stands for one {@code "}.
 *   <li>Unquoted identifiers are upper-cased with {@link Locale#ROOT}.
 *   <li>Quoted identifiers are kept exactly as written.
 * </ul>
 *
 * <p>Trees and catalogs hold normalised names (the result of {@link #normalize}); {@link
 * #quoteIfNeeded} turns a normalised name back into SQL text that reads as the same name.
 */
public final class Identifiers {
  /** The identifier quote character. */
  public static final char QUOTE = '"';

  /**
   * Words that cannot be used as unquoted identifiers: the SQL:2016 reserved words that Calcite
   * reserves, Calcite's own additions and the reserved keywords of Cairn's grammar. Listing a word
   * too many only costs a pair of quotes when printing.
   */
  private static final Set<String> RESERVED_WORDS =
      Set.of(
          "ABS",
          "ALL",
          "ALLOCATE",
          "ALLOW",
          "ALTER",
          "AND",
          "ANY",
          "ARE",
          "ARRAY",
          "ARRAY_AGG",
          "ARRAY_MAX_CARDINALITY",
          "AS",
          "ASENSITIVE",
          "ASYMMETRIC",
          "AT",
          "ATOMIC",
          "AUTHORIZATION",
          "AVG",
          "BEGIN",
          "BEGIN_FRAME",
          "BEGIN_PARTITION",
          "BETWEEN",
          "BIGINT",
          "BINARY",
          "BIT",
          "BLOB",
          "BOOLEAN",
          "BOTH",
          "BY",
          "CALL",
          "CALLED",
          "CARDINALITY",
          "CASCADED",
          "CASE",
          "CAST",
          "CEIL",
          "CEILING",
          "CHAR",
          "CHAR_LENGTH",
          "CHARACTER",
          "CHARACTER_LENGTH",
          "CHECK",
          "CLASSIFIER",
          "CLOB",
          "CLOSE",
          "COALESCE",
          "COLLATE",
          "COLLECT",
          "COLUMN",
          "COMMIT",
          "CONDITION",
          "CONNECT",
          "CONSTRAINT",
          "CONTAINS",
          "CONVERT",
          "CORR",
          "CORRESPONDING",
          "COUNT",
          "COVAR_POP",
          "COVAR_SAMP",
          "CREATE",
          "CROSS",
          "CUBE",
          "CUME_DIST",
          "CURRENT",
          "CURRENT_CATALOG",
          "CURRENT_DATE",
          "CURRENT_DEFAULT_TRANSFORM_GROUP",
          "CURRENT_PATH",
          "CURRENT_ROLE",
          "CURRENT_ROW",
          "CURRENT_SCHEMA",
          "CURRENT_TIME",
          "CURRENT_TIMESTAMP",
          "CURRENT_TRANSFORM_GROUP_FOR_TYPE",
          "CURRENT_USER",
          "CURSOR",
          "CYCLE",
          "DATE",
          "DAY",
          "DEALLOCATE",
          "DEC",
          "DECIMAL",
          "DECLARE",
          "DEFAULT",
          "DEFINE",
          "DELETE",
          "DENSE_RANK",
          "DEREF",
          "DESCRIBE",
          "DETERMINISTIC",
          "DISALLOW",
          "DISCONNECT",
          "DISTINCT",
          "DOUBLE",
          "DROP",
          "DYNAMIC",
          "EACH",
          "ELEMENT",
          "ELSE",
          "EMPTY",
          "END",
          "END-EXEC",
          "END_FRAME",
          "END_PARTITION",
          "EQUALS",
          "ESCAPE",
          "EVERY",
          "EXCEPT",
          "EXEC",
          "EXECUTE",
          "EXISTS",
          "EXP",
          "EXPLAIN",
          "EXTEND",
          "EXTERNAL",
          "EXTRACT",
          "FALSE",
          "FETCH",
          "FILTER",
          "FIRST_VALUE",
          "FLOAT",
          "FLOOR",
          "FOR",
          "FOREIGN",
          "FRAME_ROW",
          "FREE",
          "FROM",
          "FULL",
          "FUNCTION",
          "FUSION",
          "GET",
          "GLOBAL",
          "GRANT",
          "GROUP",
          "GROUPING",
          "GROUPS",
          "HAVING",
          "HOLD",
          "HOUR",
          "IDENTITY",
          "IMPORT",
          "IN",
          "INDICATOR",
          "INITIAL",
          "INNER",
          "INOUT",
          "INSENSITIVE",
          "INSERT",
          "INT",
          "INTEGER",
          "INTERSECT",
          "INTERSECTION",
          "INTERVAL",
          "INTO",
          "IS",
          "JOIN",
          "JSON_ARRAY",
          "JSON_ARRAYAGG",
          "JSON_EXISTS",
          "JSON_OBJECT",
          "JSON_OBJECTAGG",
          "JSON_QUERY",
          "JSON_VALUE",
          "LAG",
          "LANGUAGE",
          "LARGE",
          "LAST_VALUE",
          "LATERAL",
          "LEAD",
          "LEADING",
          "LEFT",
          "LIKE",
          "LIKE_REGEX",
          "LIMIT",
          "LN",
          "LOCAL",
          "LOCALTIME",
          "LOCALTIMESTAMP",
          "LOWER",
          "MATCH",
          "MATCHES",
          "MATCH_NUMBER",
          "MATCH_RECOGNIZE",
          "MAX",
          "MEASURES",
          "MEMBER",
          "MERGE",
          "METHOD",
          "MIN",
          "MINUS",
          "MINUTE",
          "MOD",
          "MODIFIES",
          "MODULE",
          "MONTH",
          "MULTISET",
          "NATIONAL",
          "NATURAL",
          "NCHAR",
          "NCLOB",
          "NEW",
          "NEXT",
          "NO",
          "NONE",
          "NORMALIZE",
          "NOT",
          "NTH_VALUE",
          "NTILE",
          "NULL",
          "NULLIF",
          "NUMERIC",
          "OCCURRENCES_REGEX",
          "OCTET_LENGTH",
          "OF",
          "OFFSET",
          "OLD",
          "OMIT",
          "ON",
          "ONE",
          "ONLY",
          "OPEN",
          "OR",
          "ORDER",
          "OUT",
          "OUTER",
          "OVER",
          "OVERLAPS",
          "OVERLAY",
          "PARAMETER",
          "PARTITION",
          "PATTERN",
          "PER",
          "PERCENT",
          "PERCENT_RANK",
          "PERCENTILE_CONT",
          "PERCENTILE_DISC",
          "PERIOD",
          "PERMUTE",
          "PORTION",
          "POSITION",
          "POSITION_REGEX",
          "POWER",
          "PRECEDES",
          "PRECISION",
          "PREPARE",
          "PREV",
          "PRIMARY",
          "PROCEDURE",
          "RANGE",
          "RANK",
          "READS",
          "REAL",
          "RECURSIVE",
          "REF",
          "REFERENCES",
          "REFERENCING",
          "REGR_AVGX",
          "REGR_AVGY",
          "REGR_COUNT",
          "REGR_INTERCEPT",
          "REGR_R2",
          "REGR_SLOPE",
          "REGR_SXX",
          "REGR_SXY",
          "REGR_SYY",
          "RELEASE",
          "RESET",
          "RESULT",
          "RETURN",
          "RETURNS",
          "REVOKE",
          "RIGHT",
          "ROLLBACK",
          "ROLLUP",
          "ROW",
          "ROW_NUMBER",
          "ROWS",
          "RUNNING",
          "SAVEPOINT",
          "SCOPE",
          "SCROLL",
          "SEARCH",
          "SECOND",
          "SEEK",
          "SELECT",
          "SENSITIVE",
          "SESSION_USER",
          "SET",
          "SHOW",
          "SIMILAR",
          "SKIP",
          "SMALLINT",
          "SOME",
          "SPECIFIC",
          "SPECIFICTYPE",
          "SQL",
          "SQLEXCEPTION",
          "SQLSTATE",
          "SQLWARNING",
          "SQRT",
          "START",
          "STATIC",
          "STDDEV_POP",
          "STDDEV_SAMP",
          "STREAM",
          "SUBMULTISET",
          "SUBSET",
          "SUBSTRING",
          "SUBSTRING_REGEX",
          "SUCCEEDS",
          "SUM",
          "SYMMETRIC",
          "SYSTEM",
          "SYSTEM_TIME",
          "SYSTEM_USER",
          "TABLE",
          "TABLESAMPLE",
          "THEN",
          "TIME",
          "TIMESTAMP",
          "TIMEZONE_HOUR",
          "TIMEZONE_MINUTE",
          "TINYINT",
          "TO",
          "TRAILING",
          "TRANSLATE",
          "TRANSLATE_REGEX",
          "TRANSLATION",
          "TREAT",
          "TRIGGER",
          "TRIM",
          "TRIM_ARRAY",
          "TRUE",
          "TRUNCATE",
          "UESCAPE",
          "UNION",
          "UNIQUE",
          "UNKNOWN",
          "UNNEST",
          "UPDATE",
          "UPPER",
          "UPSERT",
          "USER",
          "USING",
          "VALUE",
          "VALUES",
          "VALUE_OF",
          "VAR_POP",
          "VAR_SAMP",
          "VARBINARY",
          "VARCHAR",
          "VARYING",
          "VERSIONING",
          "WHEN",
          "WHENEVER",
          "WHERE",
          "WIDTH_BUCKET",
          "WINDOW",
          "WITH",
          "WITHIN",
          "WITHOUT",
          "YEAR");

  private Identifiers() {}

  /**
   * Returns the name an identifier token stands for: a quoted identifier without its quotes and
   * with {@code ""} collapsed, an unquoted one upper-cased.
   */
  public static String normalize(String identifierText) {
    requireNonNull(identifierText, "identifierText is null");
    if (isQuoted(identifierText)) {
      return unquote(identifierText);
    }
    return normalizeUnquoted(identifierText);
  }

  /** Returns the name an unquoted identifier stands for: upper-cased with {@link Locale#ROOT}. */
  public static String normalizeUnquoted(String identifier) {
    requireNonNull(identifier, "identifier is null");
    return identifier.toUpperCase(Locale.ROOT);
  }

  /** Whether the text is a delimited identifier: starts and ends with a double quote. */
  public static boolean isQuoted(String identifierText) {
    requireNonNull(identifierText, "identifierText is null");
    return identifierText.length() >= 2
        && identifierText.charAt(0) == QUOTE
        && identifierText.charAt(identifierText.length() - 1) == QUOTE;
  }

  /** Removes the surrounding double quotes and turns each {@code ""} into {@code "}. */
  public static String unquote(String quotedIdentifier) {
    if (!isQuoted(quotedIdentifier)) {
      throw new IllegalArgumentException(
          "expected a double-quoted identifier, found [" + quotedIdentifier + "]");
    }
    String body = quotedIdentifier.substring(1, quotedIdentifier.length() - 1);
    return body.replace("\"\"", "\"");
  }

  /** Returns the name in double quotes, doubling any double quote inside it. */
  public static String quote(String name) {
    requireNonNull(name, "name is null");
    return QUOTE + name.replace("\"", "\"\"") + QUOTE;
  }

  /**
   * Returns SQL text that reads back as exactly this (normalised) name: the name itself when it is
   * a plain upper-case identifier that is not a reserved word, otherwise the quoted name.
   */
  public static String quoteIfNeeded(String name) {
    requireNonNull(name, "name is null");
    return isPlainUnquoted(name) ? name : quote(name);
  }

  /** Whether the (upper-case) word is reserved and must be quoted to be used as a name. */
  public static boolean isReservedWord(String word) {
    requireNonNull(word, "word is null");
    return RESERVED_WORDS.contains(word.toUpperCase(Locale.ROOT));
  }

  private static boolean isPlainUnquoted(String name) {
    if (name.isEmpty() || RESERVED_WORDS.contains(name)) {
      return false;
    }
    char first = name.charAt(0);
    if (first != '_' && !Character.isLetter(first)) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean allowed = c == '_' || c == '$' || (c >= '0' && c <= '9') || Character.isLetter(c);
      if (!allowed) {
        return false;
      }
    }
    // Upper-casing must be a no-op, or an unquoted name would read back differently.
    return name.toUpperCase(Locale.ROOT).equals(name);
  }
}
