package io.cairn.tpch;

import io.cairn.core.SuppressForbidden;
import io.cairn.tpch.bench.LineitemCommand;
import io.cairn.tpch.cache.CacheCommand;
import io.cairn.tpch.cli.Version;
import io.cairn.tpch.footprint.FootprintCommand;
import io.cairn.tpch.index.IndexVerifyCommand;
import io.cairn.tpch.load.LoadCommand;
import io.cairn.tpch.pe.PeCommand;
import io.cairn.tpch.queries.TpchQueriesCommand;
import io.cairn.tpch.server.ServerBenchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code bin/cairn tpch|bench|pe|index}: measuring tools with trustworthy output,
 * and the index check.
 */
@Command(
    name = "cairn",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Cairn's measuring tools and the index check.",
    subcommands = {
      CairnTool.Tpch.class,
      CairnTool.Bench.class,
      PeCommand.class,
      CairnTool.Index.class
    })
public final class CairnTool implements Runnable {
  /** {@code bin/cairn tpch ...}: TPC-H data. */
  @Command(
      name = "tpch",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description = "TPC-H data: create the tables and load them.",
      subcommands = {LoadCommand.class})
  static final class Tpch implements Runnable {
    @Override
    public void run() {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "Missing command: expected [load]");
    }
  }

  /** {@code bin/cairn bench ...}: benchmark suites. */
  @Command(
      name = "bench",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description =
          "Benchmark suites: the LINEITEM suite, the 22 TPC-H queries, bytes on disk, the block"
              + " cache and the network server.",
      subcommands = {
        LineitemCommand.class,
        TpchQueriesCommand.class,
        FootprintCommand.class,
        CacheCommand.class,
        ServerBenchCommand.class
      })
  static final class Bench implements Runnable {
    @Override
    public void run() {
      throw new CommandLine.ParameterException(
          new CommandLine(this),
          "Missing command: expected [lineitem, tpch, footprint, cache, server]");
    }
  }

  /** {@code bin/cairn index ...}: local indexes. */
  @Command(
      name = "index",
      mixinStandardHelpOptions = true,
      versionProvider = Version.class,
      description = "Local indexes: verify compares indexes with their table.",
      subcommands = {IndexVerifyCommand.class})
  static final class Index implements Runnable {
    @Override
    public void run() {
      throw new CommandLine.ParameterException(
          new CommandLine(this), "Missing command: expected [verify]");
    }
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        new CommandLine(this), "Missing command: expected [tpch, bench, pe, index]");
  }

  /** Runs the command line and returns its exit code (0 ok, 1 failure, 2 usage). */
  public static int run(String... args) {
    return new CommandLine(new CairnTool()).execute(args);
  }

  @SuppressForbidden(reason = "command-line entry point: the exit code is the process status")
  public static void main(String[] args) {
    System.exit(run(args));
  }
}
