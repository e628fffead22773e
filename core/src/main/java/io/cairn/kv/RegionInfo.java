package io.cairn.kv;

import static java.util.Objects.requireNonNull;

/**
 * One region of a KV table as the store reports it: its id, key range, bytes in files, bytes in the
 * memstore and number of files.
 */
public record RegionInfo(
    long regionId, KeyRange range, long fileBytes, long memstoreBytes, int fileCount) {
  public RegionInfo {
    requireNonNull(range, "range is null");
  }
}
