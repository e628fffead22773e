package io.cairn.tpch.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The scratch directory of the bench commands (they delete it with {@link
 * io.cairn.core.io.FileTrees#deleteRecursively} and close their connections with {@link
 * io.cairn.core.io.Closeables}).
 */
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
}
