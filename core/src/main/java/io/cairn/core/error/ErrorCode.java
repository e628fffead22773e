package io.cairn.core.error;

import static io.cairn.core.error.ErrorType.EXTERNAL;
import static io.cairn.core.error.ErrorType.INSUFFICIENT_RESOURCES;
import static io.cairn.core.error.ErrorType.USER_ERROR;

/**
 * Every error Cairn reports. The numeric {@link #code()} is persistent (it reaches clients and
 * logs); never renumber. {@link #sqlState()} follows SQL:2016 / ODBC classes.
 */
public enum ErrorCode {
  // 42: syntax and access rules
  SYNTAX_ERROR(1, "42601", USER_ERROR),
  TABLE_NOT_FOUND(2, "42S02", USER_ERROR),
  TABLE_ALREADY_EXISTS(3, "42S01", USER_ERROR),
  COLUMN_NOT_FOUND(4, "42S22", USER_ERROR),
  DUPLICATE_COLUMN(5, "42S21", USER_ERROR),
  TYPE_MISMATCH(6, "42804", USER_ERROR),
  VALIDATION_ERROR(7, "42000", USER_ERROR),
  INVALID_TABLE_DEFINITION(8, "42P16", USER_ERROR),
  UNKNOWN_TABLE_OPTION(9, "42601", USER_ERROR),
  INVALID_TABLE_OPTION_VALUE(10, "22023", USER_ERROR),
  SCHEMA_NOT_FOUND(11, "3F000", USER_ERROR),
  /** The user lacks a privilege (e.g. creating a database on a server): names the rule. */
  PERMISSION_DENIED(12, "42501", USER_ERROR),
  /** An index that does not exist (DROP INDEX, ALTER INDEX, an INDEX hint names it). */
  INDEX_NOT_FOUND(13, "42704", USER_ERROR),
  /** CREATE INDEX of a name an index of the schema already has. */
  INDEX_ALREADY_EXISTS(14, "42710", USER_ERROR),
  // 23: integrity constraints
  DUPLICATE_KEY(20, "23505", USER_ERROR),
  NOT_NULL_VIOLATION(21, "23502", USER_ERROR),
  // 22: data exceptions
  STRING_TOO_LONG(30, "22001", USER_ERROR),
  NUMERIC_OUT_OF_RANGE(31, "22003", USER_ERROR),
  DIVISION_BY_ZERO(32, "22012", USER_ERROR),
  INVALID_CAST(33, "22018", USER_ERROR),
  INVALID_DATETIME(34, "22007", USER_ERROR),
  INVALID_ARGUMENT(35, "22023", USER_ERROR),
  SUBQUERY_MULTIPLE_ROWS(36, "21000", USER_ERROR),
  INVALID_ESCAPE(37, "22025", USER_ERROR),
  // 07 / 0A / 08 / 25: dynamic SQL, features, connections, transactions
  PARAMETER_NOT_SET(40, "07001", USER_ERROR),
  INVALID_PARAMETER_INDEX(41, "07009", USER_ERROR),
  NOT_SUPPORTED(42, "0A000", USER_ERROR),
  INVALID_URL(43, "08001", USER_ERROR),
  CONNECTION_CLOSED(44, "08003", USER_ERROR),
  OBJECT_CLOSED(45, "HY010", USER_ERROR),
  INVALID_CURSOR_STATE(46, "24000", USER_ERROR),
  NOT_A_QUERY(47, "07003", USER_ERROR),
  NOT_AN_UPDATE(48, "07003", USER_ERROR),
  // 57: operator intervention
  QUERY_CANCELED(60, "57014", USER_ERROR),
  QUERY_TIMEOUT(61, "57014", INSUFFICIENT_RESOURCES),
  // 53 / 58 / XX: resources, system, internal
  /**
   * Query state (aggregation groups, sorts, hash tables, pages held for a client) beyond a memory
   * budget of the query, the connection, the database or the server: names the budget, its limit
   * and the setting that raises it ({@link io.cairn.core.memory.MemoryPool}).
   */
  MEMORY_LIMIT_EXCEEDED(70, "53200", INSUFFICIENT_RESOURCES),
  IO_ERROR(80, "58030", EXTERNAL),
  /** A file of the store failed a check (checksum, length, magic): names the file and offset. */
  DATA_CORRUPTED(81, "XX001", EXTERNAL),
  /** The store directory is locked by another process or another open store of this JVM. */
  STORE_IN_USE(82, "55006", USER_ERROR),
  /** The directory is not a Cairn store (or not an empty directory to create one in). */
  NOT_A_STORE(83, "58P01", USER_ERROR),
  /** A file or store written by a newer (or unknown) format version. */
  UNSUPPORTED_FORMAT_VERSION(84, "0A000", USER_ERROR),
  // 08 / 28: the network server and its clients
  /** The server cannot be reached (refused, unknown host, handshake timed out). */
  CONNECTION_FAILED(100, "08001", EXTERNAL),
  /** An established connection to the server broke (the server died, restarted, or closed it). */
  CONNECTION_LOST(101, "08006", EXTERNAL),
  /** Client and server speak different protocol versions: names both. */
  PROTOCOL_VERSION_MISMATCH(102, "08004", USER_ERROR),
  /** Wrong user or password (the message never says which). */
  AUTHENTICATION_FAILED(103, "28P01", USER_ERROR),
  /** A request arrived before a successful handshake. */
  AUTHENTICATION_REQUIRED(104, "28000", USER_ERROR),
  /** A frame that cannot be read: truncated, not a message, an unknown request type. */
  PROTOCOL_ERROR(105, "08P01", USER_ERROR),
  /** A frame longer than the maximum frame size: names both. */
  FRAME_TOO_LARGE(106, "54000", INSUFFICIENT_RESOURCES),
  /** The server's work queue or a per-connection limit is full; retry later. */
  SERVER_BUSY(107, "53300", INSUFFICIENT_RESOURCES),
  /** A request got no answer within the client's request timeout. */
  REQUEST_TIMEOUT(108, "HYT00", INSUFFICIENT_RESOURCES),
  /** The server is shutting down. */
  SERVER_SHUTTING_DOWN(109, "57P01", EXTERNAL),
  /** A scanner id the connection does not hold (closed, expired or never opened). */
  UNKNOWN_SCANNER(110, "24000", USER_ERROR),
  /** Broadcast hash caches beyond the server's memory limit: names the limit. */
  HASH_CACHE_TOO_LARGE(111, "53200", INSUFFICIENT_RESOURCES),
  /**
   * A grouped aggregation (in the store or the driver) needs more memory than its limit: names the
   * limit and the setting that raises it.
   */
  AGGREGATE_MEMORY_EXCEEDED(112, "53200", INSUFFICIENT_RESOURCES),
  /**
   * A write conflicts with a concurrent one: a row this statement or transaction read and changed
   * was changed by another commit since its read point (first committer wins). Retry.
   */
  WRITE_CONFLICT(113, "40001", USER_ERROR),
  /**
   * A read point (a statement's or transaction's snapshot) is older than the store keeps versions
   * for: names its age and the setting that bounds it.
   */
  SNAPSHOT_TOO_OLD(114, "72000", USER_ERROR),
  /** A write (DML or DDL) in a read-only connection. */
  READ_ONLY_TRANSACTION(115, "25006", USER_ERROR),
  /** A statement nested or wide beyond what can be planned or run (depth, terms). */
  STATEMENT_TOO_COMPLEX(116, "54001", INSUFFICIENT_RESOURCES),
  /** A date or time value outside the supported range (years 0001 to 9999). */
  DATETIME_OUT_OF_RANGE(117, "22008", USER_ERROR),
  /**
   * A scan probes a broadcast hash cache (a join's build side) that its store or connection does
   * not hold: never put, already removed, or lost with a reconnect.
   */
  HASH_CACHE_NOT_FOUND(118, "55000", EXTERNAL),
  /**
   * A write from a client whose catalog is older than a change another client made that the write
   * depends on (a table's local indexes on HBase): the driver reads the catalog again; run the
   * statement again.
   */
  CATALOG_OUT_OF_DATE(119, "55000", USER_ERROR),
  INTERNAL_ERROR(90, "XX000", ErrorType.INTERNAL_ERROR);

  private final int code;
  private final String sqlState;
  private final ErrorType type;

  ErrorCode(int code, String sqlState, ErrorType type) {
    this.code = code;
    this.sqlState = sqlState;
    this.type = type;
  }

  /** The error with persistent code {@code code}, or INTERNAL_ERROR for a code this build lacks. */
  public static ErrorCode fromCode(int code) {
    for (ErrorCode e : values()) {
      if (e.code == code) {
        return e;
      }
    }
    return INTERNAL_ERROR;
  }

  /** Persistent numeric code, also used as the JDBC vendor code. */
  public int code() {
    return code;
  }

  public String sqlState() {
    return sqlState;
  }

  public ErrorType type() {
    return type;
  }
}
