package io.cairn.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.SuppressForbidden;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * The Java side of {@code bin/cairn} for commands that are not sqlline: today only {@code version}.
 * Also the Main-Class of the self-contained JDBC jar, so {@code java -jar cairn-jdbc-VERSION.jar}
 * says what it is.
 */
public final class CairnMain {
  static final String VERSION_RESOURCE = "version.properties";

  private CairnMain() {}

  /**
   * Runs one command and returns its exit code; usage errors give 2.
   *
   * @param args the command and its arguments; none means {@code version}
   */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    String command = args.isEmpty() ? "version" : args.get(0);
    if (command.equals("version") && args.size() <= 1) {
      out.println("Cairn " + version());
      out.println(
          "Java "
              + System.getProperty("java.version")
              + " ("
              + System.getProperty("java.vendor")
              + ")");
      return 0;
    }
    err.println("usage: io.cairn.cli.CairnMain [version]   (found: " + args + ")");
    return 2;
  }

  /** The Cairn version this class was built as, or "unknown" when run from unbuilt sources. */
  public static String version() {
    try (InputStream in = CairnMain.class.getResourceAsStream(VERSION_RESOURCE)) {
      if (in != null) {
        Properties properties = new Properties();
        try (Reader reader = new InputStreamReader(in, UTF_8)) {
          properties.load(reader);
        }
        String version = properties.getProperty("version", "");
        if (!version.isEmpty() && !version.startsWith("${")) {
          return version;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + VERSION_RESOURCE, e);
    }
    String fromManifest = CairnMain.class.getPackage().getImplementationVersion();
    return fromManifest != null ? fromManifest : "unknown";
  }

  /**
   * Command-line entry point. A failing command ends in an exception (the JVM exits with 1) because
   * System.exit is forbidden in Cairn; bin/cairn checks usage before it gets here.
   */
  @SuppressForbidden(reason = "command-line entry point: prints to the terminal")
  public static void main(String[] args) {
    int code = run(List.of(args), System.out, System.err);
    if (code != 0) {
      throw new IllegalArgumentException("io.cairn.cli.CairnMain failed with exit code " + code);
    }
  }
}
