package io.cairn.server.rpc;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.SuppressForbidden;
import io.cairn.core.error.CairnException;
import io.cairn.server.security.PasswordHasher;
import io.cairn.server.security.Users;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/cairn server}: runs a Cairn server until the process is stopped (Ctrl-C, SIGTERM),
 * which shuts it down gracefully. Settings come from {@code --config FILE} (a properties file with
 * the keys of {@link ServerConfig}), overridden by the flags.
 */
@Command(
    name = "cairn server",
    mixinStandardHelpOptions = true,
    versionProvider = ServerMain.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Runs a Cairn server: clients connect with jdbc:cairn://HOST:PORT[/DATABASE].",
      "Settings come from --config FILE (key=value lines, see docs/server.md), overridden by the"
          + " flags. Stop it with Ctrl-C or SIGTERM: it finishes running requests and flushes"
          + " every database.",
    },
    footer = {
      "",
      "Examples:",
      "  bin/cairn server --mem                          in memory, on 127.0.0.1:7575",
      "  bin/cairn server --data ./data --host 0.0.0.0   durable, on every interface",
      "  bin/cairn server --config server.properties --set page.max-rows=1000",
      "  bin/cairn server hash-password --user alice    a user.alice=... line for the file",
    })
public final class ServerMain implements Callable<Integer> {
  static {
    configureLogging(); // before the first logger is made
  }

  private static final Logger LOG = LoggerFactory.getLogger(ServerMain.class);

  /**
   * {@code hash-password}: reads a password (at a prompt, twice, or the first line of standard
   * input when there is no console) and prints its hash, or the {@code user.NAME=HASH} line.
   */
  @Command(
      name = "hash-password",
      mixinStandardHelpOptions = true,
      versionProvider = ServerMain.Version.class,
      description = {
        "Prints the hash of a password for a user.NAME=HASH line of the server's configuration.",
        "Reads the password at a prompt (twice), or the first line of standard input when there"
            + " is no console (e.g. echo secret | bin/cairn server hash-password).",
      })
  static final class HashPassword implements Callable<Integer> {
    private final InputStream in;
    private final boolean useConsole;

    @Spec CommandSpec spec;

    @Option(
        names = "--user",
        paramLabel = "NAME",
        description = "print the whole line, user.NAME=HASH")
    String user;

    @Option(
        names = "--iterations",
        paramLabel = "N",
        description = "PBKDF2 iterations (default ${DEFAULT-VALUE})")
    int iterations = PasswordHasher.DEFAULT_ITERATIONS;

    HashPassword(InputStream in, boolean useConsole) {
      this.in = in;
      this.useConsole = useConsole;
    }

    @Override
    public Integer call() throws IOException {
      char[] password = null;
      try {
        Console console = useConsole ? System.console() : null;
        if (console != null) {
          password = console.readPassword("Password: ");
          char[] again = console.readPassword("Password again: ");
          boolean same = password != null && again != null && Arrays.equals(password, again);
          if (again != null) {
            Arrays.fill(again, '\0');
          }
          if (!same) {
            throw new CommandLine.ParameterException(
                spec.commandLine(), "The two passwords differ");
          }
        } else {
          BufferedReader reader = new BufferedReader(new InputStreamReader(in, UTF_8));
          String line = reader.readLine();
          password = line == null ? null : line.toCharArray();
        }
        if (password == null || password.length == 0) {
          throw new CommandLine.ParameterException(
              spec.commandLine(), "Expected a password, found none");
        }
        String hash = PasswordHasher.hash(password, iterations);
        spec.commandLine().getOut().println(user == null ? hash : Users.PREFIX + user + "=" + hash);
        spec.commandLine().getOut().flush();
        return 0;
      } finally {
        if (password != null) {
          Arrays.fill(password, '\0');
        }
      }
    }
  }

  /** {@code -V}: the server's version. */
  public static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"Cairn server " + CairnServer.version()};
    }
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "properties file of settings (the flags override it)")
  Path configFile;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description =
          "serve the durable databases under DIR: the default one in DIR, database NAME in"
              + " DIR/databases/NAME (created when missing, if create-databases allows)")
  Path data;

  @Option(
      names = "--mem",
      description = "serve in-memory databases, lost when the server stops (the default)")
  boolean mem;

  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "address to listen on (default 127.0.0.1; 0.0.0.0: every interface)")
  String host;

  @Option(
      names = {"-p", "--port"},
      paramLabel = "PORT",
      description = "port to listen on (default 7575; 0: any free port)")
  Integer port;

  @Option(
      names = "--http-host",
      paramLabel = "HOST",
      description = "address of the status page (default 127.0.0.1)")
  String httpHost;

  @Option(
      names = "--http-port",
      paramLabel = "PORT",
      description = "port of the status page (default 7576; 0: any free port; -1: none)")
  Integer httpPort;

  @Option(
      names = "--worker-threads",
      paramLabel = "N",
      description = "threads that run requests (default max(4, 2 x cores))")
  Integer workerThreads;

  @Option(
      names = "--max-frame-bytes",
      paramLabel = "SIZE",
      description = "largest frame read or written (default 16m)")
  String maxFrameBytes;

  @Option(
      names = "--tls-certificate",
      paramLabel = "FILE",
      description = "PEM certificate chain: clients must then use TLS")
  Path tlsCertificate;

  @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM private key (PKCS#8)")
  Path tlsKey;

  @Option(
      names = {"-s", "--set"},
      paramLabel = "KEY=VALUE",
      description = "any setting, e.g. --set page.max-rows=1000 or --set cairn.block-cache.size=2g")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = "--port-file",
      paramLabel = "FILE",
      description = "write the port listened on to FILE once the server accepts connections")
  Path portFile;

  /** The settings: the file's, then the flags'. */
  Map<String, String> properties() {
    Map<String, String> properties = new LinkedHashMap<>();
    if (configFile != null) {
      Properties file = new Properties();
      try (Reader reader = Files.newBufferedReader(configFile, UTF_8)) {
        file.load(reader);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the configuration file " + configFile, e);
      }
      for (String key : file.stringPropertyNames()) {
        properties.put(key, file.getProperty(key));
      }
    }
    if (mem) {
      properties.remove(ServerConfig.DATA);
      properties.put(ServerConfig.MEM, "true");
    }
    if (data != null) {
      properties.remove(ServerConfig.MEM);
      properties.put(ServerConfig.DATA, data.toString());
    }
    put(properties, ServerConfig.HOST, host);
    put(properties, ServerConfig.PORT, port);
    put(properties, ServerConfig.HTTP_HOST, httpHost);
    put(properties, ServerConfig.HTTP_PORT, httpPort);
    put(properties, ServerConfig.WORKER_THREADS, workerThreads);
    put(properties, ServerConfig.MAX_FRAME_BYTES, maxFrameBytes);
    put(properties, ServerConfig.TLS_CERTIFICATE, tlsCertificate);
    put(properties, ServerConfig.TLS_KEY, tlsKey);
    properties.putAll(settings);
    return properties;
  }

  private static void put(Map<String, String> properties, String key, Object value) {
    if (value != null) {
      properties.put(key, value.toString());
    }
  }

  @Override
  public Integer call() throws Exception {
    if (mem && data != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--mem and --data exclude each other");
    }
    ServerConfig config = ServerConfig.from(properties());
    CairnServer server = CairnServer.start(config);
    Thread hook = new Thread(server::close, "cairn-server-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    if (config.inMemory()) {
      LOG.warn("Databases are in memory: they are lost when the server stops (use --data DIR)");
    }
    if (portFile != null) {
      writePortFile(portFile, server.port());
    }
    server.awaitClosed();
    return 0;
  }

  /** Writes the port atomically, so that a reader never sees a partial file. */
  static void writePortFile(Path file, int port) throws IOException {
    Path absolute = file.toAbsolutePath();
    Path temporary = absolute.resolveSibling(absolute.getFileName() + ".tmp");
    Files.writeString(temporary, port + "\n", UTF_8);
    Files.move(
        temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Runs the command line and returns its exit code (0 ok, 1 failure, 2 usage). */
  public static int run(String... args) {
    return run(null, null, null, args);
  }

  /**
   * As {@link #run(String...)}, printing to {@code out} and {@code err} and reading passwords from
   * {@code in} (null: the console).
   */
  static int run(PrintWriter out, PrintWriter err, InputStream in, String... args) {
    CommandLine line = new CommandLine(new ServerMain());
    line.addSubcommand("hash-password", new HashPassword(in == null ? System.in : in, in == null));
    if (out != null) {
      line.setOut(out);
    }
    if (err != null) {
      line.setErr(err);
    }
    line.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          PrintWriter errors = commandLine.getErr();
          if (e instanceof CairnException || e instanceof IllegalArgumentException) {
            errors.println("cairn server: " + e.getMessage());
          } else if (e instanceof UncheckedIOException io) {
            errors.println("cairn server: " + io.getMessage() + ": " + io.getCause());
          } else {
            errors.println("cairn server: failed: " + e);
            e.printStackTrace(errors);
          }
          errors.flush();
          return 1;
        });
    return line.execute(args);
  }

  /** Log lines carry the time and the logger, on stderr (slf4j-simple), unless set otherwise. */
  private static void configureLogging() {
    setDefault("org.slf4j.simpleLogger.showDateTime", "true");
    setDefault("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd HH:mm:ss.SSS");
    setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
    setDefault("org.slf4j.simpleLogger.logFile", "System.err");
  }

  private static void setDefault(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }

  @SuppressForbidden(reason = "command-line entry point: the exit code is the process status")
  public static void main(String[] args) {
    int code = run(args);
    if (code != 0) {
      System.exit(code);
    }
  }
}
