package io.cairn.it.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A Cairn network server ({@code io.cairn.server.rpc.ServerMain}) running as a separate JVM on the
 * classpath that the it module's build writes ({@code target/server-classpath.txt}: the Cairn
 * modules of this reactor, never jars from ~/.m2). It listens on a free port of 127.0.0.1 (written
 * to a port file once it is listening), has no status page, and runs with paranoid leak detection
 * of both Cairn's pooled buffers and Netty's buffers; its log (stderr) goes to a file that {@link
 * #leakReports()} reads. The tests read its figures over JMX (the attach API starts the server's
 * local management agent), so that they see exactly what the server holds. It starts and stops the
 * server with the one launcher, {@link io.cairn.server.rpc.ServerProcess}.
 */
final class ServerProcess implements AutoCloseable {
  static final String MAIN = io.cairn.server.rpc.ServerProcess.MAIN_CLASS;

  /** How long a server may take to start listening or to stop after SIGTERM. */
  static final Duration START_PATIENCE = Duration.ofSeconds(60);

  static final Duration STOP_PATIENCE = Duration.ofSeconds(60);

  /** Lines of the log that report a leak: Cairn's LeakDetector and BufferPool, Netty's detector. */
  private static final Pattern LEAK =
      Pattern.compile("\\bLEAK\\b|\\bLeak:|pooled buffer\\(s\\) still out|leaked", 0);

  private final io.cairn.server.rpc.ServerProcess server;
  private JMXConnector jmx;

  private ServerProcess(io.cairn.server.rpc.ServerProcess server) {
    this.server = server;
  }

  /** What to start: settings (server keys such as {@code max-frame-bytes}) and JVM options. */
  static final class Options {
    private final Path workDir;
    private Path data;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private String heap = "256m";
    private String name = "server";
    private int fileDescriptorLimit;

    Options(Path workDir) {
      this.workDir = requireNonNull(workDir, "workDir is null");
    }

    /** A durable server on {@code dir}; without it, every database is in memory. */
    Options data(Path dir) {
      this.data = requireNonNull(dir, "dir is null");
      return this;
    }

    /** A server setting ({@code io.cairn.server.rpc.ServerConfig} keys, {@code cairn.*}). */
    Options set(String key, String value) {
      settings.put(requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
      return this;
    }

    Options heap(String size) {
      this.heap = requireNonNull(size, "size is null");
      return this;
    }

    Options jvm(String option) {
      jvmOptions.add(requireNonNull(option, "option is null"));
      return this;
    }

    /**
     * Starts the server under {@code ulimit -n LIMIT} (through {@code /bin/sh}, which then execs
     * the JVM: the process is the server's), so that a test can exhaust its file descriptors.
     */
    Options fileDescriptorLimit(int limit) {
      this.fileDescriptorLimit = limit;
      return this;
    }

    /** Names the log files (several servers may share a work directory). */
    Options name(String fileName) {
      this.name = requireNonNull(fileName, "fileName is null");
      return this;
    }

    ServerProcess start() throws IOException, InterruptedException {
      return ServerProcess.start(this);
    }
  }

  static Options options(Path workDir) {
    return new Options(workDir);
  }

  private static ServerProcess start(Options options) throws IOException, InterruptedException {
    Path dir = options.workDir;
    Files.createDirectories(dir);
    Path config = dir.resolve(options.name + ".properties");
    io.cairn.server.rpc.ServerProcess.Builder builder =
        io.cairn.server.rpc.ServerProcess.builder(classpath())
            .jvmOptions(jvmOptions(options.heap, options.jvmOptions))
            .arguments(arguments(options, config))
            .portFile(dir.resolve(options.name + ".port"))
            .output(dir.resolve(options.name + ".log"), dir.resolve(options.name + ".out"))
            .directory(dir)
            .noInput()
            .removeEnvironment("JAVA_TOOL_OPTIONS")
            .removeEnvironment("JAVA_OPTS")
            .startTimeout(START_PATIENCE)
            .stopTimeout(STOP_PATIENCE);
    if (options.fileDescriptorLimit > 0) {
      builder.wrapper(
          List.of(
              "/bin/sh",
              "-c",
              "ulimit -n " + options.fileDescriptorLimit + " && exec \"$@\"",
              "sh"));
    }
    try {
      return new ServerProcess(builder.start());
    } catch (IllegalStateException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /**
   * The arguments of ServerMain: {@code --port 0}, no status page, every setting through a
   * properties file ({@code --config}), {@code --data DIR} or {@code --mem} (the launcher adds the
   * port file).
   */
  private static List<String> arguments(Options options, Path config) throws IOException {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("http.port", "-1");
    settings.putAll(options.settings);
    StringBuilder text = new StringBuilder();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      text.append(e.getKey()).append('=').append(e.getValue()).append('\n');
    }
    Files.writeString(config, text.toString(), UTF_8);
    List<String> arguments = new ArrayList<>();
    arguments.addAll(List.of("--config", config.toString()));
    arguments.addAll(List.of("--port", "0"));
    if (options.data != null) {
      arguments.addAll(List.of("--data", options.data.toString()));
    } else {
      arguments.add("--mem");
    }
    return arguments;
  }

  /**
   * {@code java} with the server's JVM options and classpath, up to the main class: a bounded heap,
   * paranoid leak detection of Cairn's pooled buffers and cached blocks and of Netty's buffers.
   */
  static List<String> javaCommand(String heap, List<String> jvmOptions) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions(heap, jvmOptions));
    command.add("-cp");
    command.add(classpath());
    return command;
  }

  /** The server's JVM options: see {@link #javaCommand}. */
  private static List<String> jvmOptions(String heap, List<String> extra) {
    List<String> options = new ArrayList<>();
    options.add("-Xmx" + heap);
    options.add("-XX:+UseSerialGC");
    options.add("-Dcairn.leakDetection=paranoid");
    options.add("-Dio.netty.leakDetection.level=paranoid");
    options.add("-Dorg.slf4j.simpleLogger.showThreadName=true");
    options.addAll(extra);
    return options;
  }

  /** This module's test classes and the server's classpath file (see it/pom.xml). */
  static String classpath() throws IOException {
    Path classpathFile = Path.of(requiredProperty("cairn.it.serverClasspathFile"));
    if (!Files.isRegularFile(classpathFile)) {
      throw new IllegalStateException(
          "no classpath file at ["
              + classpathFile
              + "]: the it module's build writes it (dependency:build-classpath)");
    }
    Path testClasses;
    try {
      testClasses =
          Path.of(ServerProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return testClasses
        + java.io.File.pathSeparator
        + Files.readString(classpathFile, UTF_8).strip();
  }

  private static String requiredProperty(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(
          "system property [" + name + "] is not set: run the it module through Maven");
    }
    return value;
  }

  int port() {
    return server.port();
  }

  long pid() {
    return server.pid();
  }

  boolean isAlive() {
    return server.isAlive();
  }

  Path log() {
    return server.log();
  }

  // --- JMX -------------------------------------------------------------------------------------

  /**
   * The server's MBeans, through its local management agent (started on first use). The agent's
   * address comes from the child process this test started, never from outside input.
   */
  @SuppressWarnings("BanJNDI")
  synchronized MBeanServerConnection jmx() throws IOException {
    if (jmx == null) {
      String address;
      try {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(server.pid()));
        try {
          address = vm.startLocalManagementAgent();
        } finally {
          vm.detach();
        }
      } catch (AttachNotSupportedException e) {
        throw new IOException("cannot attach to the server process " + server.pid(), e);
      }
      jmx = JMXConnectorFactory.connect(new JMXServiceURL(address));
    }
    return jmx.getMBeanServerConnection();
  }

  /** An attribute of the server's own bean, {@code io.cairn:type=Server,port=PORT}. */
  long serverMetric(String attribute) throws IOException {
    return number(objectName("io.cairn:type=Server,port=" + server.port()), attribute);
  }

  /**
   * The sum of {@code attribute} over the buffer pools of every open store ({@code
   * io.cairn:type=BufferPool,store=*}); 0 when no store is open.
   */
  long bufferPoolSum(String attribute) throws IOException {
    long sum = 0;
    for (ObjectName name : queryNames("io.cairn:type=BufferPool,*")) {
      sum += number(name, attribute);
    }
    return sum;
  }

  /** The names of the server's beans that match {@code pattern}. */
  Set<ObjectName> queryNames(String pattern) throws IOException {
    return jmx().queryNames(objectName(pattern), null);
  }

  /** Heap in use, in bytes, right after a full GC of the server. */
  long heapUsedAfterGc() throws IOException {
    ObjectName memory = objectName("java.lang:type=Memory");
    try {
      jmx().invoke(memory, "gc", new Object[0], new String[0]);
      CompositeData usage = (CompositeData) jmx().getAttribute(memory, "HeapMemoryUsage");
      return (Long) usage.get("used");
    } catch (JMException e) {
      throw new IOException("reading the server's heap usage", e);
    }
  }

  /** Runs a full GC in the server, so that Netty's and Cairn's detectors see unreachable leaks. */
  void gc() throws IOException {
    try {
      jmx().invoke(objectName("java.lang:type=Memory"), "gc", new Object[0], new String[0]);
    } catch (JMException e) {
      throw new IOException("running a GC in the server", e);
    }
  }

  private long number(ObjectName name, String attribute) throws IOException {
    try {
      return ((Number) jmx().getAttribute(name, attribute)).longValue();
    } catch (JMException e) {
      throw new IOException("reading " + name + " " + attribute, e);
    }
  }

  private static ObjectName objectName(String name) {
    try {
      return new ObjectName(name);
    } catch (JMException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  // --- stopping --------------------------------------------------------------------------------

  /**
   * Graceful stop: SIGTERM ({@link Process#destroy()}), which must flush every memstore, close
   * every connection and exit; fails when the server is still running after {@link #STOP_PATIENCE}.
   *
   * @return the exit code
   */
  int stop() throws InterruptedException {
    closeJmx();
    server.terminate();
    if (!server.waitFor(STOP_PATIENCE)) {
      String threads = threadDump();
      server.kill();
      throw new AssertionError(
          "hang: the server did not exit within "
              + STOP_PATIENCE
              + " of SIGTERM\n--- threads ---\n"
              + threads
              + "\n--- log ---\n"
              + tail(server.log(), 80));
    }
    return server.exitValue();
  }

  /** SIGKILL, then waits for the process. */
  void kill() throws InterruptedException {
    closeJmx();
    server.kill();
  }

  /** Writes the server's threads to a file next to its log, for hang reports; returns the file. */
  Path dumpThreads() {
    Path log = server.log();
    Path file = log.resolveSibling(log.getFileName() + ".threads-" + System.nanoTime());
    try {
      Files.writeString(file, threadDump(), UTF_8);
    } catch (IOException e) {
      return Path.of("(cannot write " + file + ": " + e + ")");
    }
    return file;
  }

  /** The server's threads ({@code jcmd PID Thread.print}), for hang reports. */
  String threadDump() {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process dump =
          new ProcessBuilder(jcmd.toString(), Long.toString(server.pid()), "Thread.print")
              .redirectErrorStream(true)
              .start();
      dump.getOutputStream().close();
      byte[] text = dump.getInputStream().readAllBytes();
      dump.waitFor(30, TimeUnit.SECONDS);
      return new String(text, UTF_8);
    } catch (IOException e) {
      return "(no thread dump: " + e + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(no thread dump: interrupted)";
    }
  }

  private void closeJmx() {
    JMXConnector c;
    synchronized (this) {
      c = jmx;
      jmx = null;
    }
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        // the server may already be gone
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    closeJmx();
    if (server.isAlive()) {
      kill();
    }
  }

  // --- the log ---------------------------------------------------------------------------------

  /** Every line of the server's log that reports a leaked buffer (Cairn's or Netty's). */
  List<String> leakReports() {
    return leakReports(server.log());
  }

  /** Every line of {@code log} that reports a leaked buffer (Cairn's or Netty's). */
  static List<String> leakReports(Path log) {
    try {
      List<String> lines = Files.exists(log) ? Files.readAllLines(log, UTF_8) : List.of();
      return lines.stream().filter(l -> LEAK.matcher(l).find()).collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<String> logLines() {
    try {
      return Files.exists(server.log()) ? Files.readAllLines(server.log(), UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Command, state and log tail, for failure messages. */
  String describe() {
    return String.format(
        "server pid [%s] port [%s] %s: %s%n--- log tail (%s) ---%n%s",
        server.pid(),
        server.port(),
        server.isAlive() ? "alive" : "exit code [" + server.exitValue() + "]",
        String.join(
            " ", server.command().subList(server.command().indexOf(MAIN), server.command().size())),
        server.log(),
        tail(server.log(), 60));
  }

  static String tail(Path file, int maxLines) {
    try {
      if (!Files.exists(file)) {
        return "(no file " + file + ")";
      }
      List<String> all = Files.readAllLines(file, UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - maxLines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e + ")";
    }
  }
}
