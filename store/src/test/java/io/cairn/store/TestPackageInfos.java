package io.cairn.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of the store has a package-info that says what it owns, which packages of the store
 * it uses and which locks its callers hold, and no class of the store's packages grows past 600
 * lines (one job per class). Read from the sources.
 */
class TestPackageInfos {
  private static final Path ROOT = Path.of("src/main/java/io/cairn/store");

  private static final int MAX_LINES = 600;

  private static final Pattern LOCKS = Pattern.compile("\\blocks?\\b", Pattern.CASE_INSENSITIVE);

  private static final Pattern USES = Pattern.compile("\\buses?\\b", Pattern.CASE_INSENSITIVE);

  @Test
  void everyPackageSaysWhatItUsesAndWhichLocksItsCallersHold() throws IOException {
    List<String> missing = new ArrayList<>();
    for (Path dir : packages()) {
      String pkg = dir.getFileName().toString();
      Path info = dir.resolve("package-info.java");
      if (!Files.exists(info)) {
        missing.add(pkg + ": no package-info.java");
        continue;
      }
      String text = Files.readString(info, UTF_8);
      if (!LOCKS.matcher(text).find()) {
        missing.add(pkg + ": package-info names no locks");
      }
      if (!USES.matcher(text).find()) {
        missing.add(pkg + ": package-info does not say what the package uses");
      }
    }
    assertThat(missing).isEmpty();
  }

  @Test
  void noClassOfAPackageIsLongerThan600Lines() throws IOException {
    List<String> tooLong = new ArrayList<>();
    for (Path dir : packages()) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          long lines = Files.readAllLines(file, UTF_8).size();
          if (lines > MAX_LINES) {
            tooLong.add(dir.getFileName() + "/" + file.getFileName() + " [" + lines + "] lines");
          }
        }
      }
    }
    assertThat(tooLong).isEmpty();
  }

  /** The store's packages: the root one and every sub-package. */
  private static List<Path> packages() throws IOException {
    try (Stream<Path> dirs = Files.list(ROOT)) {
      return Stream.concat(Stream.of(ROOT), dirs.filter(Files::isDirectory).sorted()).toList();
    }
  }
}
