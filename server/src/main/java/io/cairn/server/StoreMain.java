package io.cairn.server;

import io.cairn.core.SuppressForbidden;
import io.cairn.core.error.CairnException;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.SalvageReport;
import io.cairn.store.StoreConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bin/cairn store check|salvage DIR}: opens a durable store as a connection would, with the
 * checks of docs/format-store.md ("Opening"), and says what it found; {@code salvage} opens it with
 * {@code cairn.open.salvage=true} and lists what was set aside and lost. The store must not be open
 * elsewhere (its lock).
 */
@Command(
    name = "cairn store",
    mixinStandardHelpOptions = true,
    description = "Checks or salvages a durable Cairn store (a jdbc:cairn:file:DIR directory).",
    subcommands = {StoreMain.Check.class, StoreMain.Salvage.class})
public final class StoreMain implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /** Exit 0: the store opened; 1: it did not (the error is printed). */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description = {
        "Opens the store (replaying its log, as a connection would) and closes it. Exit code 0"
            + " when every check passed, 1 with the error otherwise (XX001 names the damaged"
            + " file). A missing or empty DIR is an error, not a new store.",
      })
  static final class Check implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "the store directory")
    Path dir;

    @Override
    public Integer call() {
      return open(spec, dir, false);
    }
  }

  /** Exit 0: the store opened, with what was lost listed; 1: it could not be opened. */
  @Command(
      name = "salvage",
      mixinStandardHelpOptions = true,
      description = {
        "Opens the store with cairn.open.salvage=true: damaged or missing log segments and block"
            + " files are skipped, set aside under DIR/salvaged/ and listed with what is lost;"
            + " afterwards the store opens normally. Work on a copy if the files may still be"
            + " recovered otherwise (docs/format-store.md, \"Salvage\").",
      })
  static final class Salvage implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "the store directory")
    Path dir;

    @Override
    public Integer call() {
      return open(spec, dir, true);
    }
  }

  private static int open(CommandSpec spec, Path dir, boolean salvage) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path store = dir.toAbsolutePath().normalize();
    if (!Files.exists(store.resolve(EmbeddedStore.STORE_MANIFEST))) {
      err.println(
          "cairn store: ["
              + store
              + "] is not a Cairn store: expected a directory with "
              + EmbeddedStore.STORE_MANIFEST);
      err.flush();
      return 1;
    }
    Map<String, String> settings =
        salvage ? Map.of(StoreConfig.OPEN_SALVAGE, "true") : Map.<String, String>of();
    try (EmbeddedStore opened = EmbeddedStore.open(store, StoreConfig.from(settings))) {
      SalvageReport report = opened.salvageReport();
      if (report.isEmpty()) {
        out.println("Store [" + store + "]: every check passed, nothing lost");
      } else {
        out.println(
            "Store ["
                + store
                + "] salvaged: "
                + report.losses().size()
                + " damaged or missing file(s); what they held is lost");
        for (SalvageReport.Loss loss : report.losses()) {
          out.println(
              "- "
                  + loss.file()
                  + loss.keptAt().map(k -> " (kept as " + k + ")").orElse(" (missing)")
                  + ": "
                  + loss.problem());
        }
      }
      out.flush();
      return 0;
    } catch (CairnException e) {
      err.println("cairn store: [" + e.errorCode().sqlState() + "] " + e.getMessage());
      err.flush();
      return 1;
    }
  }

  /** Runs the command line; returns the exit code. */
  static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine line = new CommandLine(new StoreMain());
    line.setOut(out);
    line.setErr(err);
    return line.execute(args);
  }

  @SuppressForbidden(reason = "command-line entry point: the exit code is the process status")
  public static void main(String[] args) {
    CommandLine line = new CommandLine(new StoreMain());
    int code = line.execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }
}
