package io.cairn.store.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How the writer opens the files it appends to. A seam for tests: a test double of the operating
 * system (e.g. a channel that fails with "No space left on device" after some bytes) replaces
 * {@link #DEFAULT}.
 */
interface WalFiles {
  WalFiles DEFAULT = new WalFiles() {};

  /** Creates a new, empty segment file to write; fails if it already exists. */
  default FileChannel createSegment(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  /**
   * Forces the directory so that a file created or deleted in it survives a power loss. Best
   * effort: where a directory cannot be opened (not on Linux or macOS) it does nothing.
   */
  default void syncDirectory(Path directory) throws IOException {
    FileChannel channel;
    try {
      channel = FileChannel.open(directory, StandardOpenOption.READ);
    } catch (IOException | UnsupportedOperationException e) {
      return;
    }
    try (channel) {
      channel.force(true);
    }
  }
}
