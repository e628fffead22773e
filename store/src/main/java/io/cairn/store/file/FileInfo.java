package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import java.util.List;

/**
 * What a block file holds, written in its file info block: the options it was written with, its key
 * range (both {@link Bytes#EMPTY} when it holds no cell), the largest sequence id, cell and delete
 * counts, raw bytes (sum of row and value lengths), the file's length, and the guide posts: a row
 * key after about every {@code options.guidePostWidth()} raw bytes, for parallel scans.
 */
public record FileInfo(
    long fileId,
    int formatVersion,
    BlockFileOptions options,
    Bytes firstRow,
    Bytes lastRow,
    long maxSequenceId,
    long cellCount,
    long deleteCount,
    long rawBytes,
    long fileBytes,
    List<Bytes> guidePosts) {
  public FileInfo {
    requireNonNull(options, "options is null");
    requireNonNull(firstRow, "firstRow is null");
    requireNonNull(lastRow, "lastRow is null");
    guidePosts = List.copyOf(requireNonNull(guidePosts, "guidePosts is null"));
  }
}
