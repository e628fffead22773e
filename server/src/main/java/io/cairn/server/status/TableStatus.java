package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.RegionInfo;
import java.util.List;

/** A table of the store and its regions, in key order. */
public record TableStatus(String name, List<RegionInfo> regions) {
  public TableStatus {
    requireNonNull(name, "name is null");
    regions = List.copyOf(regions);
  }

  /** Files over all regions (split daughters that share a parent's file count it each). */
  public int fileCount() {
    int n = 0;
    for (RegionInfo r : regions) {
      n += r.fileCount();
    }
    return n;
  }

  public long fileBytes() {
    long n = 0;
    for (RegionInfo r : regions) {
      n += r.fileBytes();
    }
    return n;
  }

  public long memstoreBytes() {
    long n = 0;
    for (RegionInfo r : regions) {
      n += r.memstoreBytes();
    }
    return n;
  }
}
