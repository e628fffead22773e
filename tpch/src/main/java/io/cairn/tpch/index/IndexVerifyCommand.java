package io.cairn.tpch.index;

import io.cairn.core.SuppressForbidden;
import io.cairn.sql.Identifiers;
import io.cairn.tpch.cli.Version;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bin/cairn index verify [--url URL] TABLE [INDEX]}: runs {@code CHECK INDEX} for the named
 * index or for each index of the table ({@link DatabaseMetaData#getIndexInfo}), prints one line per
 * index and exits 0 when every index matches its table, 1 when one does not (or the check fails), 2
 * on bad usage (a missing table or index included).
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    sortOptions = false,
    description = {
      "Compares local indexes with their table: for the named index, or for each index of TABLE,"
          + " runs CHECK INDEX name ON table, which reads every row and every index entry, and"
          + " prints one line per index: the rows and entries checked, the entries missing (a"
          + " row without its entry) and extra (an entry no row accounts for: stale, or of a row"
          + " that is gone), and a few sample keys of the differences.",
      "",
      "TABLE is [schema.]table and INDEX a name, both as in SQL: unquoted names are upper-cased,"
          + " \"quoted\" ones kept as written. The check runs where the data is: in this process"
          + " for a jdbc:cairn:file: store (which must not be open in another process), on the"
          + " server for jdbc:cairn://. It reads one snapshot, so writes may go on meanwhile."
    },
    footer = {
      "",
      "Exit status: 0 every index checked is consistent (or the table has none), 1 an index"
          + " differs from its table or the check failed (e.g. the server is unreachable), 2 bad"
          + " usage, a missing table or a missing index.",
      "",
      "Examples:",
      "  bin/cairn index verify --url jdbc:cairn:file:./data LINEITEM",
      "  bin/cairn index verify --url jdbc:cairn://db1:7575/sales --user ann ORDERS"
          + " ORDERS_BY_DATE --password",
      "  bin/cairn index verify --url jdbc:cairn:file:./data 'app.\"Mixed\"' IDX"
    })
public final class IndexVerifyCommand implements Callable<Integer> {
  /** The default URL: a server on this machine. */
  static final String DEFAULT_URL = "jdbc:cairn://127.0.0.1:7575";

  /** SQLState of a missing index ({@code INDEX_NOT_FOUND}). */
  static final String INDEX_NOT_FOUND = "42704";

  /** SQLState of a missing table ({@code TABLE_NOT_FOUND}). */
  static final String TABLE_NOT_FOUND = "42S02";

  /** SQLState of a missing schema ({@code SCHEMA_NOT_FOUND}). */
  static final String SCHEMA_NOT_FOUND = "3F000";

  @Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description =
          "JDBC URL of the database: jdbc:cairn:file:DIR (embedded, durable) or"
              + " jdbc:cairn://HOST[:PORT][/DATABASE] (a server). Default: ${DEFAULT-VALUE}.",
      defaultValue = DEFAULT_URL)
  String url;

  @Option(
      names = "--user",
      paramLabel = "NAME",
      description = "User on the server (none: anonymous). Embedded stores ignore it.")
  String user;

  @Option(
      names = "--password",
      arity = "0..1",
      interactive = true,
      paramLabel = "PASSWORD",
      description =
          "The user's password, as --password=PASSWORD; --password alone (put it after TABLE"
              + " and INDEX, or it takes TABLE as its value) reads it at a prompt, or from the"
              + " first line of standard input when there is no console.")
  char[] password;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: [schema.]table.")
  String table;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "INDEX",
      description = "The index to check. Default: every index of TABLE.")
  String index;

  /** What the command prints to; picocli's own streams unless a test gives others. */
  private final PrintStream out;

  private final PrintStream err;

  @SuppressForbidden(reason = "command-line output: the results on stdout, errors on stderr")
  public IndexVerifyCommand() {
    this(System.out, System.err);
  }

  IndexVerifyCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** One row of CHECK INDEX. */
  record Check(
      String indexName,
      String tableName,
      long rowsChecked,
      long entriesChecked,
      long missing,
      long extra,
      boolean consistent,
      String samples) {
    /** The line printed for this index. */
    String line() {
      StringBuilder b =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%s ON %s: %s, %,d rows and %,d entries checked, %,d missing, %,d extra",
                  indexName,
                  tableName,
                  consistent ? "consistent" : "INCONSISTENT",
                  rowsChecked,
                  entriesChecked,
                  missing,
                  extra));
      if (samples != null && !samples.isBlank()) {
        b.append("; samples: ").append(samples.strip());
      }
      return b.toString();
    }
  }

  /** A [schema.]table name as the catalog holds it: schema null when not given. */
  record TableName(String schema, String table) {
    /** The name as SQL text that reads back as exactly this name. */
    String sql() {
      String t = Identifiers.quoteIfNeeded(table);
      return schema == null ? t : Identifiers.quoteIfNeeded(schema) + "." + t;
    }

    @Override
    public String toString() {
      return schema == null ? table : schema + "." + table;
    }
  }

  @Override
  public Integer call() {
    TableName name = parseTable(table);
    String indexName = index == null ? null : parseIndex(index);
    Properties properties = new Properties();
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (password != null) {
      properties.setProperty("password", new String(password));
      Arrays.fill(password, '\0');
    }
    try (Connection c = DriverManager.getConnection(url, properties)) {
      if (!tableExists(c.getMetaData(), name)) {
        err.printf(Locale.ROOT, "cairn index verify: table [%s] not found at [%s]%n", name, url);
        return 2;
      }
      List<String> names =
          indexName == null ? indexesOf(c.getMetaData(), name) : List.of(indexName);
      if (names.isEmpty()) {
        out.printf(Locale.ROOT, "%s has no indexes: nothing to verify%n", name);
        return 0;
      }
      boolean consistent = true;
      for (String n : names) {
        Check check = check(c, n, name);
        out.println(check.line());
        consistent &= check.consistent();
      }
      return consistent ? 0 : 1;
    } catch (SQLException e) {
      String state = e.getSQLState();
      boolean usage =
          INDEX_NOT_FOUND.equals(state)
              || TABLE_NOT_FOUND.equals(state)
              || SCHEMA_NOT_FOUND.equals(state);
      err.printf(
          Locale.ROOT,
          "cairn index verify: %s%s%n",
          state == null ? "" : state + " ",
          String.valueOf(e.getMessage()).strip());
      return usage ? 2 : 1;
    }
  }

  /** Runs CHECK INDEX for one index and reads its row. */
  static Check check(Connection c, String index, TableName table) throws SQLException {
    String sql = "CHECK INDEX " + Identifiers.quoteIfNeeded(index) + " ON " + table.sql();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      if (!rs.next()) {
        throw new SQLException(sql + " returned no row; expected one");
      }
      return new Check(
          rs.getString("INDEX_NAME"),
          rs.getString("TABLE_NAME"),
          rs.getLong("ROWS_CHECKED"),
          rs.getLong("ENTRIES_CHECKED"),
          rs.getLong("MISSING"),
          rs.getLong("EXTRA"),
          rs.getBoolean("CONSISTENT"),
          rs.getString("SAMPLES"));
    }
  }

  private static boolean tableExists(DatabaseMetaData md, TableName name) throws SQLException {
    try (ResultSet rs = md.getTables(null, name.schema(), name.table(), null)) {
      while (rs.next()) {
        if (name.table().equals(rs.getString("TABLE_NAME"))
            && (name.schema() == null || name.schema().equals(rs.getString("TABLE_SCHEM")))) {
          return true;
        }
      }
    }
    return false;
  }

  /** The names of the table's indexes, in the order the metadata lists them, each once. */
  static List<String> indexesOf(DatabaseMetaData md, TableName name) throws SQLException {
    Set<String> names = new LinkedHashSet<>();
    try (ResultSet rs = md.getIndexInfo(null, name.schema(), name.table(), false, true)) {
      while (rs.next()) {
        String n = rs.getString("INDEX_NAME");
        if (n != null && name.table().equals(rs.getString("TABLE_NAME"))) {
          names.add(n);
        }
      }
    }
    return List.copyOf(names);
  }

  private TableName parseTable(String text) {
    List<String> parts = nameParts(text);
    if (parts.isEmpty() || parts.size() > 2) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Expected TABLE as [schema.]table; found [" + text + "]");
    }
    return parts.size() == 1
        ? new TableName(null, parts.get(0))
        : new TableName(parts.get(0), parts.get(1));
  }

  private String parseIndex(String text) {
    List<String> parts = nameParts(text);
    if (parts.size() != 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Expected INDEX as a name (the index lives in its table's schema); found [" + text + "]");
    }
    return parts.get(0);
  }

  /**
   * The normalised parts of a dotted name ({@link Identifiers#normalize}); dots inside double
   * quotes belong to the part. Empty when a part is empty or a quote is left open.
   */
  static List<String> nameParts(String text) {
    List<String> parts = new ArrayList<>();
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      if (i < text.length() && text.charAt(i) == Identifiers.QUOTE) {
        quoted = !quoted; // "" inside a quoted name toggles twice
      } else if (i == text.length() || (!quoted && text.charAt(i) == '.')) {
        String part = text.substring(start, i).strip();
        if (part.isEmpty() || (i == text.length() && quoted)) {
          return List.of();
        }
        if (part.indexOf(Identifiers.QUOTE) >= 0 && !Identifiers.isQuoted(part)) {
          return List.of();
        }
        parts.add(Identifiers.normalize(part));
        start = i + 1;
      }
    }
    return List.copyOf(parts);
  }
}
