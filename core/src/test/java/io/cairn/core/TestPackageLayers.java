package io.cairn.core;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * core's packages, the root one and the KV SPI included, form layers: a package uses only the
 * packages listed before it, and nothing of Cairn outside core (no protocol, no store). Read from
 * the sources (imports and fully-qualified names in code), so that a new upward reference or a new
 * package without a place here fails in this test rather than in a review.
 */
class TestPackageLayers {
  /** Each package, bottom-up, and the core packages it may use (each one listed before it). */
  private static final Map<String, Set<String>> LAYERS = new LinkedHashMap<>();

  static {
    LAYERS.put("io.cairn.core", Set.of());
    LAYERS.put("io.cairn.core.bytes", Set.of());
    LAYERS.put("io.cairn.core.io", Set.of());
    LAYERS.put("io.cairn.core.error", Set.of());
    LAYERS.put("io.cairn.core.type", Set.of("io.cairn.core.error"));
    LAYERS.put("io.cairn.core.memory", Set.of("io.cairn.core.error"));
    LAYERS.put(
        "io.cairn.core.encoding",
        Set.of("io.cairn.core.bytes", "io.cairn.core.error", "io.cairn.core.type"));
    LAYERS.put(
        "io.cairn.core.expr",
        Set.of("io.cairn.core.error", "io.cairn.core.type", "io.cairn.core.encoding"));
    LAYERS.put(
        "io.cairn.core.agg",
        Set.of(
            "io.cairn.core.bytes",
            "io.cairn.core.error",
            "io.cairn.core.type",
            "io.cairn.core.memory",
            "io.cairn.core.expr"));
    // the KV SPI: scan programs carry row layouts, expressions and aggregate calls
    LAYERS.put(
        "io.cairn.kv",
        Set.of(
            "io.cairn.core.bytes",
            "io.cairn.core.error",
            "io.cairn.core.memory",
            "io.cairn.core.encoding",
            "io.cairn.core.expr",
            "io.cairn.core.agg"));
    LAYERS.put(
        "io.cairn.core.catalog",
        Set.of(
            "io.cairn.core.bytes",
            "io.cairn.core.error",
            "io.cairn.core.type",
            "io.cairn.core.encoding",
            "io.cairn.core.expr",
            "io.cairn.kv"));
  }

  /** Upward references left on purpose, class by class: none since Bytes moved to core.bytes. */
  private static final Map<String, Set<String>> KNOWN_UPWARD = Map.of();

  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?((io\\.cairn(?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]\\w*)");

  private static final Pattern QUALIFIED =
      Pattern.compile("\\b((io\\.cairn(?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]\\w*)");

  private static final Path SOURCES = Path.of("src/main/java");

  @Test
  void layersListOnlyLowerPackages() {
    List<String> seen = new ArrayList<>();
    for (Map.Entry<String, Set<String>> layer : LAYERS.entrySet()) {
      assertThat(seen).as("packages below %s", layer.getKey()).containsAll(layer.getValue());
      seen.add(layer.getKey());
    }
    for (Map.Entry<String, Set<String>> known : KNOWN_UPWARD.entrySet()) {
      assertThat(LAYERS).containsKey(known.getKey());
    }
  }

  @Test
  void everyPackageUsesOnlyTheLayersBelowIt() throws IOException {
    Set<String> packages = new TreeSet<>();
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String pkg = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
        packages.add(pkg);
        if (!LAYERS.containsKey(pkg)) {
          continue;
        }
        for (String used : references(file)) {
          String usedPackage = used.substring(0, used.lastIndexOf('.'));
          if (usedPackage.equals(pkg)
              || LAYERS.get(pkg).contains(usedPackage)
              || KNOWN_UPWARD.getOrDefault(pkg, Set.of()).contains(used)) {
            continue;
          }
          violations.add(SOURCES.relativize(file) + " (" + pkg + ") uses " + used);
        }
      }
    }
    assertThat(packages)
        .as("core's packages (give a new one its layer)")
        .isEqualTo(LAYERS.keySet());
    assertThat(violations).isEmpty();
  }

  /** The Cairn classes a source file names in imports or in code outside comments. */
  private static Set<String> references(Path file) throws IOException {
    Set<String> used = new TreeSet<>();
    boolean inComment = false;
    for (String line : Files.readAllLines(file, UTF_8)) {
      String code = line.strip();
      if (inComment) {
        int end = code.indexOf("*/");
        if (end < 0) {
          continue;
        }
        inComment = false;
        code = code.substring(end + 2);
      }
      if (code.startsWith("package ")) {
        continue;
      }
      Matcher imported = IMPORT.matcher(code);
      if (imported.find()) {
        used.add(imported.group(1));
        continue;
      }
      int lineComment = code.indexOf("//");
      if (lineComment >= 0) {
        code = code.substring(0, lineComment);
      }
      int start = code.indexOf("/*");
      if (start >= 0) {
        int end = code.indexOf("*/", start + 2);
        inComment = end < 0;
        code = code.substring(0, start) + (end < 0 ? "" : code.substring(end + 2));
      }
      Matcher qualified = QUALIFIED.matcher(code);
      while (qualified.find()) {
        used.add(qualified.group(1));
      }
    }
    return used;
  }
}
