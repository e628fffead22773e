package io.cairn.tpch.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** Writes benchmark results as pretty-printed JSON (Jackson), with the machine they ran on. */
public final class JsonReport {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

  private JsonReport() {}

  /** The machine and JVM a benchmark ran on. */
  public record MachineInfo(
      int cores,
      long maxHeapBytes,
      String jvmVersion,
      String jvmVendor,
      String osName,
      String osVersion,
      String osArch,
      List<String> jvmArguments) {
    public static MachineInfo current() {
      return new MachineInfo(
          Runtime.getRuntime().availableProcessors(),
          Runtime.getRuntime().maxMemory(),
          System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
          System.getProperty("java.vm.vendor"),
          System.getProperty("os.name"),
          System.getProperty("os.version"),
          System.getProperty("os.arch"),
          currentJvmArguments());
    }

    /** The JVM's options (e.g. -Xmx8g -XX:+AlwaysPreTouch), as the launcher passed them. */
    public static List<String> currentJvmArguments() {
      return List.copyOf(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** One line for humans, e.g. "2 cores, max heap 8192 MiB, OpenJDK ... on Linux ... amd64". */
    public String describe() {
      return String.format(
          Locale.ROOT,
          "%d cores, max heap %d MiB, %s on %s %s %s",
          cores,
          maxHeapBytes >> 20,
          jvmVersion,
          osName,
          osVersion,
          osArch);
    }
  }

  /** The shared mapper (pretty printing on). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** A file name {@code prefix-yyyyMMdd-HHmmss.json} for {@code time}. */
  public static String fileName(String prefix, LocalDateTime time) {
    return prefix + "-" + STAMP.format(time) + ".json";
  }

  /** Writes {@code report} to {@code file}, creating the parent directories. */
  public static Path write(Path file, Object report) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    MAPPER.writeValue(file.toFile(), report);
    return file;
  }
}
