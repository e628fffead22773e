package io.cairn.tpch.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/** What the bench commands undo when they end: their connections and their scratch directories. */
public final class Cleanup {
  private Cleanup() {}

  /**
   * The scratch directory of a bench run: {@code dir} (the command's {@code --dir}), created, when
   * given, else a new temporary directory named after {@code prefix}. A {@code dir} that exists
   * already is refused with {@code usage}'s exception, so a run never deletes what it did not make.
   */
  public static Path scratchDirectory(
      Path dir, String prefix, Function<String, ? extends RuntimeException> usage)
      throws IOException {
    if (dir == null) {
      return Files.createTempDirectory(prefix);
    }
    if (Files.exists(dir)) {
      throw usage.apply("--dir: expected a path that does not exist, found [" + dir + "]");
    }
    Files.createDirectories(dir);
    return dir;
  }

  /** Closes every connection; throws the first failure, the others suppressed in it. */
  public static void closeAll(List<Connection> connections) throws SQLException {
    SQLException failure = null;
    for (Connection c : connections) {
      try {
        c.close();
      } catch (SQLException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Deletes {@code root} and everything below it; nothing when it does not exist. */
  public static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> all = new ArrayList<>(walk.toList());
      all.sort(Comparator.reverseOrder());
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    }
  }
}
