package io.cairn.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The store's packages follow the data path bottom-up (DESIGN.md, "Storage engine"): a package
 * imports only the packages below it. Read from the sources, so that a new upward import fails here
 * rather than in a review.
 */
class TestPackageLayers {
  /** Each package and the server packages it may import. */
  private static final Map<String, Set<String>> ALLOWED =
      Map.ofEntries(
          Map.entry("io", Set.of()),
          Map.entry("cache", Set.of("io")),
          Map.entry("cell", Set.of()),
          Map.entry("wal", Set.of("io")),
          Map.entry("memstore", Set.of("cell")),
          Map.entry("file", Set.of("io", "cell", "cache")),
          Map.entry("scan", Set.of("cell", "memstore")),
          Map.entry("region", Set.of("io", "cell", "memstore", "cache", "file", "scan")),
          Map.entry("coprocessor", Set.of("cell", "memstore", "scan")),
          // statistics of regions: collected, merged, persisted
          Map.entry("stats", Set.of("cell", "memstore", "file", "region")),
          // a table's regions and manifest, the jobs that change them, its writes and scans
          Map.entry(
              "table", Set.of("io", "cell", "wal", "memstore", "file", "scan", "region", "stats")));

  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?io\\.cairn\\.store\\.([a-z]+)\\.", Pattern.MULTILINE);

  @Test
  void packagesImportOnlyTheLayersBelowThem() throws IOException {
    Path root = Path.of("src/main/java/io/cairn/store");
    List<String> violations = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path dir : dirs.filter(Files::isDirectory).toList()) {
        String pkg = dir.getFileName().toString();
        assertThat(ALLOWED).as("layer of package %s (add it to ALLOWED)", pkg).containsKey(pkg);
        try (Stream<Path> files = Files.list(dir)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
            Matcher m = IMPORT.matcher(Files.readString(file, UTF_8));
            while (m.find()) {
              String used = m.group(1);
              if (!used.equals(pkg) && !ALLOWED.get(pkg).contains(used)) {
                violations.add(file.getFileName() + " (" + pkg + ") imports " + used);
              }
            }
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }
}
