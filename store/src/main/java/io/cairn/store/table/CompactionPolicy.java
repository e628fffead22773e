package io.cairn.store.table;

import io.cairn.store.region.StoreFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Picks the files of a minor compaction by size ratio (as HBase's ratio-based policy): walking from
 * the oldest file, a file is skipped while it is more than {@code ratio} times the size of the
 * newer files that would join it, so big old files are rewritten rarely and small new ones often.
 * The pick is contiguous in age, so merging it never reorders versions.
 */
public final class CompactionPolicy {
  private CompactionPolicy() {}

  /**
   * @param files newest first
   * @return the files to merge (newest first), or empty when fewer than {@code minFiles} qualify
   */
  public static List<StoreFile> select(
      List<StoreFile> files, int minFiles, int maxFiles, double ratio) {
    List<StoreFile> oldestFirst = new ArrayList<>(files);
    Collections.reverse(oldestFirst);
    int n = oldestFirst.size();
    int start = 0;
    while (n - start >= minFiles) {
      int end = Math.min(start + maxFiles, n);
      long newer = 0;
      for (int i = start + 1; i < end; i++) {
        newer += oldestFirst.get(i).sizeBytes();
      }
      if (oldestFirst.get(start).sizeBytes() <= ratio * newer) {
        break;
      }
      start++;
    }
    if (n - start < minFiles) {
      return List.of();
    }
    List<StoreFile> picked =
        new ArrayList<>(oldestFirst.subList(start, Math.min(start + maxFiles, n)));
    Collections.reverse(picked);
    return picked;
  }
}
