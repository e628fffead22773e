package io.cairn.core.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TestFileTrees {
  @TempDir Path temp;

  @Test
  void deletesATreeWithItsRoot() throws Exception {
    Path root = temp.resolve("root");
    Files.createDirectories(root.resolve("a/b/c"));
    Files.writeString(root.resolve("top.txt"), "x", UTF_8);
    Files.writeString(root.resolve("a/b/c/deep.txt"), "y", UTF_8);
    Files.createDirectories(root.resolve("empty"));

    FileTrees.deleteRecursively(root);

    assertThat(root).doesNotExist();
    assertThat(temp).isEmptyDirectory();
  }

  @Test
  void deletesASingleFile() throws Exception {
    Path file = Files.writeString(temp.resolve("file"), "x", UTF_8);
    FileTrees.deleteRecursively(file);
    assertThat(file).doesNotExist();
  }

  @Test
  void aMissingRootIsNothingToDo() throws Exception {
    FileTrees.deleteRecursively(temp.resolve("missing"));
    assertThat(temp).isEmptyDirectory();
  }

  @Test
  void linksAreDeletedNotFollowed() throws Exception {
    Path outside = Files.createDirectories(temp.resolve("outside"));
    Path kept = Files.writeString(outside.resolve("kept.txt"), "x", UTF_8);
    Path root = Files.createDirectories(temp.resolve("root"));
    Files.createSymbolicLink(root.resolve("link"), outside);

    FileTrees.deleteRecursively(root);

    assertThat(root).doesNotExist();
    assertThat(kept).exists();
  }
}
