package io.cairn.tpch.footprint;

import io.cairn.core.SuppressForbidden;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.error.CairnException;
import io.cairn.store.StoreDirectory;
import io.cairn.tpch.cli.WorkDirectoryOptions;
import io.cairn.tpch.load.TpchLoader;
import io.cairn.tpch.report.TextTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/cairn bench footprint}: bytes on disk per data block encoding and compression, for the
 * seed table {@code (pk INTEGER PRIMARY KEY, v1 FLOAT, v2 FLOAT)} and for TPC-H LINEITEM. Loads
 * each table once into a durable store, then for every setting rewrites it with {@code ALTER TABLE
 * ... SET} and {@code MAJOR_COMPACT TABLE} and sums the sizes of the table's block files.
 */
@Command(
    name = "footprint",
    mixinStandardHelpOptions = true,
    versionProvider = io.cairn.tpch.cli.Version.class,
    description = {
      "Bytes on disk for each DATA_BLOCK_ENCODING x COMPRESSION: the table (pk INTEGER PRIMARY"
          + " KEY, v1 FLOAT, v2 FLOAT) with --rows rows (pk from a sequence, v1 and v2 random) and"
          + " TPC-H LINEITEM at --sf. Each table is loaded once into a durable store in --dir,"
          + " then rewritten by ALTER TABLE ... SET and MAJOR_COMPACT TABLE for every setting."
    })
public final class FootprintCommand implements Callable<Integer> {
  /**
   * Apache HBase/Phoenix MiB for the seed table with 32 Mi rows (ANCHORS.md); bytes/row = MiB / 32.
   */
  private static final Map<String, Integer> HBASE_SEED_MB =
      Map.of(
          "NONE/NONE",
          2922,
          "PREFIX/NONE",
          1739,
          "NONE/SNAPPY",
          993,
          "FAST_DIFF/NONE",
          875,
          "NONE/GZIP",
          595);

  @Option(
      names = "--rows",
      description = "Rows of the seed table (0 skips it). Default: ${DEFAULT-VALUE} (32M).",
      defaultValue = "33554432")
  long rows;

  @Option(
      names = "--sf",
      description = "LINEITEM scale factor (0 skips it). Default: ${DEFAULT-VALUE}.",
      defaultValue = "1")
  double scaleFactor;

  @Option(
      names = "--encodings",
      split = ",",
      description = "Encodings to try. Default: NONE,PREFIX,FAST_DIFF,ROW_INDEX.")
  List<String> encodings = List.of("NONE", "PREFIX", "FAST_DIFF", "ROW_INDEX");

  @Option(
      names = "--compressions",
      split = ",",
      description = "Compressions to try. Default: NONE,LZ4,SNAPPY,ZSTD,GZIP.")
  List<String> compressions = List.of("NONE", "LZ4", "SNAPPY", "ZSTD", "GZIP");

  @Mixin WorkDirectoryOptions workDirectory;

  @Option(
      names = "--seed",
      description = "Random seed. Default: ${DEFAULT-VALUE}.",
      defaultValue = "42")
  long seed;

  @Override
  @SuppressForbidden(reason = "command-line output")
  public Integer call() throws Exception {
    PrintStream out = System.out;
    if (rows < 0 || scaleFactor < 0) {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "--rows and --sf: expected >= 0");
    }
    encodings = checked("--encodings", "DATA_BLOCK_ENCODING", encodings);
    compressions = checked("--compressions", "COMPRESSION", compressions);
    Path root =
        workDirectory.create(
            "cairn-footprint",
            message -> new CommandLine.ParameterException(new CommandLine(this), message));
    try {
      if (rows > 0) {
        Path store = root.resolve("seed");
        String url = "jdbc:cairn:file:" + store;
        out.printf(Locale.ROOT, "Seed table: %,d rows into %s%n", rows, store);
        long start = System.nanoTime();
        try (Connection c = connect(url)) {
          loadSeed(c);
          out.printf(Locale.ROOT, "  loaded in %.1f s%n", (System.nanoTime() - start) / 1e9);
          report(out, c, store, "FP", rows, true);
        }
      }
      if (scaleFactor > 0) {
        Path store = root.resolve("lineitem");
        String url = "jdbc:cairn:file:" + store;
        out.printf(Locale.ROOT, "LINEITEM SF %s into %s%n", scaleFactor, store);
        try (Connection c = connect(url)) {
          long start = System.nanoTime();
          List<TpchLoader.TableResult> loaded =
              TpchLoader.load(
                  url + ";durability=SKIP",
                  scaleFactor,
                  List.of("LINEITEM"),
                  Runtime.getRuntime().availableProcessors(),
                  n -> {});
          long n = loaded.get(0).rows();
          out.printf(
              Locale.ROOT, "  loaded %,d rows in %.1f s%n", n, (System.nanoTime() - start) / 1e9);
          report(out, c, store, "LINEITEM", n, false);
        }
      }
    } finally {
      workDirectory.finish(root, out, "Stores kept in ", root);
    }
    return 0;
  }

  /** The values canonicalised, or a usage error naming the accepted ones. */
  private List<String> checked(String option, String tableOption, List<String> values) {
    List<String> result = new ArrayList<>();
    for (String v : values) {
      try {
        result.add(TableOptions.validate(Map.of(tableOption, v)).get(tableOption));
      } catch (CairnException e) {
        throw new CommandLine.ParameterException(
            new CommandLine(this), option + ": " + e.getMessage());
      }
    }
    return result;
  }

  private static Connection connect(String url) throws SQLException {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("durability", "SKIP");
    return DriverManager.getConnection(url, p);
  }

  private void loadSeed(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE FP (PK INTEGER PRIMARY KEY, V1 FLOAT, V2 FLOAT)");
    }
    c.setAutoCommit(false);
    SplittableRandom random = new SplittableRandom(seed);
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO FP VALUES (?, ?, ?)")) {
      for (long i = 0; i < rows; i++) {
        ps.setInt(1, (int) i);
        ps.setFloat(2, (float) random.nextDouble());
        ps.setFloat(3, (float) random.nextDouble());
        ps.addBatch();
        if ((i + 1) % 10_000 == 0 || i + 1 == rows) {
          ps.executeBatch();
          c.commit();
        }
      }
    }
    c.setAutoCommit(true);
  }

  private void report(
      PrintStream out, Connection c, Path store, String table, long rowCount, boolean seedTable)
      throws SQLException, IOException {
    TextTable t =
        new TextTable("encoding", "compression", "MiB", "bytes/row", "rewrite s", "HBase bytes/row")
            .alignLeft(1);
    try (Statement s = c.createStatement()) {
      s.execute("FLUSH TABLE " + table);
      for (String encoding : encodings) {
        for (String compression : compressions) {
          s.execute(
              "ALTER TABLE "
                  + table
                  + " SET DATA_BLOCK_ENCODING='"
                  + encoding
                  + "', COMPRESSION='"
                  + compression
                  + "'");
          long start = System.nanoTime();
          s.execute("MAJOR_COMPACT TABLE " + table);
          double seconds = (System.nanoTime() - start) / 1e9;
          long bytes = largestTableBytes(store);
          Integer hbase = seedTable ? HBASE_SEED_MB.get(encoding + "/" + compression) : null;
          t.addRow(
              encoding,
              compression,
              String.format(Locale.ROOT, "%,.1f", bytes / (double) (1 << 20)),
              String.format(Locale.ROOT, "%.2f", (double) bytes / rowCount),
              String.format(Locale.ROOT, "%.1f", seconds),
              hbase == null ? "" : String.format(Locale.ROOT, "%.1f", hbase / 32.0));
          out.printf(Locale.ROOT, "  %s/%s done%n", encoding, compression);
        }
      }
      // back to the defaults, as a new user would have them
      s.execute("ALTER TABLE " + table + " SET DATA_BLOCK_ENCODING='FAST_DIFF'");
    }
    out.println(t.render());
  }

  /**
   * Bytes of block files of the table directory holding the most (the data table, not the catalog).
   */
  private static long largestTableBytes(Path store) throws IOException {
    return StoreDirectory.blockFileBytesByTable(store).values().stream()
        .mapToLong(Long::longValue)
        .max()
        .orElse(0);
  }
}
