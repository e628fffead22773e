package io.cairn.tpch.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** What the bench commands undo when they end: their connections and their scratch directories. */
public final class Cleanup {
  private Cleanup() {}

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
