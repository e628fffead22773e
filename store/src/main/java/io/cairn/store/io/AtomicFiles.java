package io.cairn.store.io;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Small text files replaced atomically (manifests): written to a temporary file, forced, renamed
 * over the old one, and the directory forced, so a crash leaves the old or the new file, never a
 * mix. The last line is {@code crc32c <hex>} over every byte before it; readers check it.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /** Replaces {@code path} with {@code lines} (plus the checksum line). */
  public static void write(Path path, List<String> lines) {
    StringBuilder text = new StringBuilder();
    for (String line : lines) {
      text.append(line).append('\n');
    }
    byte[] body = text.toString().getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(body);
    byte[] trailer =
        ("crc32c " + Long.toHexString(crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
    Path temp = path.resolveSibling(path.getFileName() + ".tmp");
    try {
      try (FileChannel ch =
          FileChannel.open(
              temp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.allocate(body.length + trailer.length);
        buf.put(body).put(trailer).flip();
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      try {
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
      }
      forceDirectory(path.getParent());
    } catch (IOException e) {
      throw new CairnException(ErrorCode.IO_ERROR, "Cannot write " + path + ": " + describe(e), e);
    }
  }

  /**
   * The lines of a file written by {@link #write}, checksum line removed.
   *
   * @throws CairnException DATA_CORRUPTED when the checksum is missing or wrong
   */
  public static List<String> read(Path path) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new CairnException(ErrorCode.IO_ERROR, "Cannot read " + path + ": " + describe(e), e);
    }
    int end = bytes.length;
    if (end > 0 && bytes[end - 1] == '\n') {
      end--;
    }
    int lastLine = end;
    while (lastLine > 0 && bytes[lastLine - 1] != '\n') {
      lastLine--;
    }
    String trailer = new String(bytes, lastLine, end - lastLine, StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, lastLine);
    String expected = "crc32c " + Long.toHexString(crc.getValue());
    if (!trailer.equals(expected)) {
      throw new CairnException(
          ErrorCode.DATA_CORRUPTED,
          "Corrupt file "
              + path
              + " at offset "
              + lastLine
              + ": expected checksum line ["
              + expected
              + "], found ["
              + trailer
              + "]");
    }
    List<String> lines = new ArrayList<>();
    for (String line : new String(bytes, 0, lastLine, StandardCharsets.UTF_8).split("\n", -1)) {
      if (!line.isEmpty()) {
        lines.add(line);
      }
    }
    return lines;
  }

  /** Forces a directory's entries (new, renamed and deleted files) to the device. */
  public static void forceDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some file systems cannot open directories; the rename is still atomic there
      if (!Files.isDirectory(dir)) {
        throw e;
      }
    }
  }

  /** Hex of bytes, "-" for none (manifest fields). */
  public static String hex(byte[] bytes) {
    return bytes.length == 0 ? "-" : HexFormat.of().formatHex(bytes);
  }

  /** Inverse of {@link #hex}. */
  public static byte[] unhex(String text) {
    return text.equals("-") ? new byte[0] : HexFormat.of().parseHex(text);
  }

  /** An exception's message, or its class when it has none (e.g. "No space left on device"). */
  public static String describe(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
