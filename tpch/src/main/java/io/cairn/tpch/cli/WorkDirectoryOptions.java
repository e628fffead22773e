package io.cairn.tpch.cli;

import io.cairn.core.io.FileTrees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * {@code --dir} and {@code --keep}: the work directory of a bench run that writes stores or logs
 * ({@code bench server}, {@code bench cache}, {@code bench footprint}). A picocli {@code @Mixin}. A
 * run never deletes what it did not make: a {@code --dir} that exists already is refused.
 */
public final class WorkDirectoryOptions {
  @Option(
      names = "--dir",
      description =
          "Work directory of the run (its stores and logs); must not exist, deleted afterwards"
              + " unless --keep. Default: a new temporary directory.")
  Path dir;

  @Option(names = "--keep", description = "Keep the work directory after the run.")
  boolean keep;

  /** Whether {@code --keep} was given. */
  public boolean keep() {
    return keep;
  }

  /**
   * Makes the work directory: {@code --dir}, created, when given, else a new temporary directory
   * named after {@code prefix}; an existing {@code --dir} is refused with {@code usage}'s
   * exception.
   */
  public Path create(String prefix, Function<String, ? extends RuntimeException> usage)
      throws IOException {
    return scratchDirectory(dir, prefix, usage);
  }

  /**
   * Deletes {@code root} (what {@link #create} made) unless {@code --keep}; with it, prints {@code
   * kept} followed by {@code shown} (the directory, or the part of it worth keeping).
   */
  public void finish(Path root, PrintStream out, String kept, Path shown) throws IOException {
    if (!keep) {
      FileTrees.deleteRecursively(root);
    } else {
      out.println(kept + shown);
    }
  }

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
