package io.cairn.server.status;

import io.cairn.kv.RegionInfo;
import io.cairn.store.cache.BlockCacheStats;
import io.cairn.store.cache.BufferPoolStats;
import io.cairn.store.table.CompactionLog;
import java.util.List;

/**
 * A status snapshot as the JSON of {@code GET /status.json}: the same figures as the page, sizes in
 * bytes, durations in milliseconds, times as ISO-8601 instants, keys both as the page writes them
 * ({@code startKey}) and in hexadecimal ({@code startKeyHex}). What the {@link StatusView} hides is
 * left out (the fields, not just their values): keys unless {@code view.keys()}, client addresses
 * and user names unless {@code view.clients()}; {@code view} says which.
 */
final class StatusJson {
  private StatusJson() {}

  static String render(ServerStatus status, StatusView view) {
    Json j = new Json().beginObject();
    j.field("takenAt", status.takenAt().toString());
    j.name("view")
        .beginObject()
        .field("clients", view.clients())
        .field("keys", view.keys())
        .endObject();
    server(j.name("server"), status.server());
    store(j.name("store"), status.store(), view);
    j.name("clients").beginArray();
    for (ClientInfo c : status.clients()) {
      j.beginObject();
      if (view.clients()) {
        j.field("remoteAddress", c.remoteAddress()).field("user", c.user());
      }
      j.field("sessionId", c.sessionId())
          .field("connectedSince", c.connectedSince().toString())
          .field("requestsServed", c.requestsServed())
          .field("openScanners", c.openScanners())
          .field("openSnapshots", c.openSnapshots())
          .field("bytesIn", c.bytesIn())
          .field("bytesOut", c.bytesOut())
          .endObject();
    }
    j.endArray();
    j.name("slowRequests").beginArray();
    for (SlowRequest r : status.slowRequests()) {
      j.beginObject().field("startTime", r.startTime().toString());
      if (view.clients()) {
        j.field("client", r.client());
      }
      j.field("requestType", r.requestType())
          .field("table", r.table())
          .field("durationMillis", r.duration().toMillis())
          .field("rows", r.rows())
          .endObject();
    }
    j.endArray();
    return j.endObject().toString();
  }

  private static void server(Json j, ServerInfo s) {
    j.beginObject()
        .field("version", s.version())
        .field("startTime", s.startTime().toString())
        .field("uptimeMillis", s.uptime().toMillis())
        .field("listenAddress", s.listenAddress())
        .field("tls", s.tls())
        .field("authentication", s.authentication())
        .endObject();
  }

  private static void store(Json j, StoreStatus s, StatusView view) {
    j.beginObject().field("name", s.name()).field("durable", s.durable());
    j.name("tables").beginArray();
    for (TableStatus t : s.tables()) {
      j.beginObject()
          .field("name", t.name())
          .field("fileCount", t.fileCount())
          .field("fileBytes", t.fileBytes())
          .field("memstoreBytes", t.memstoreBytes());
      j.name("regions").beginArray();
      for (RegionInfo r : t.regions()) {
        j.beginObject().field("regionId", r.regionId());
        if (view.keys()) {
          j.field("startKey", Formats.key(r.range().start()))
              .field("stopKey", Formats.key(r.range().stop()))
              .field("startKeyHex", r.range().start().toString())
              .field("stopKeyHex", r.range().stop().toString());
        }
        j.field("fileCount", r.fileCount())
            .field("fileBytes", r.fileBytes())
            .field("memstoreBytes", r.memstoreBytes())
            .endObject();
      }
      j.endArray().endObject();
    }
    j.endArray();
    MemstoreStatus m = s.memstores();
    j.name("memstores")
        .beginObject()
        .field("bytes", m.bytes())
        .field("globalLimitBytes", m.globalLimitBytes())
        .field("flushSizeBytes", m.flushSizeBytes())
        .endObject();
    blockCache(j.name("blockCache"), s.blockCache());
    j.name("compactions").beginObject();
    compactions(j.name("running"), s.runningCompactions());
    compactions(j.name("recent"), s.recentCompactions());
    j.endObject();
    j.endObject();
  }

  private static void blockCache(Json j, BlockCacheStatus b) {
    j.beginObject().name("levels").beginArray();
    for (BlockCacheStats l : b.levels()) {
      j.beginObject()
          .field("level", l.level())
          .field("blocks", l.cachedBlocks())
          .field("bytes", l.cachedBytes())
          .field("usedBytes", l.usedBytes())
          .field("capacityBytes", l.capacityBytes())
          .field("allocatedBytes", l.allocatedBytes())
          .field("hits", l.hits())
          .field("misses", l.misses())
          .field("hitRatio", l.hitRatio())
          .field("evictions", l.evictions())
          .field("evictedBytes", l.evictedBytes())
          .field("notCachedTooLarge", l.notCachedTooLarge())
          .field("notCachedNoSpace", l.notCachedNoSpace())
          .endObject();
    }
    j.endArray();
    BufferPoolStats p = b.bufferPool();
    j.name("bufferPool")
        .beginObject()
        .field("bufferSize", b.bufferSize())
        .field("usedBuffers", p.usedBuffers())
        .field("totalBuffers", p.totalBuffers())
        .field("maxBuffers", p.maxBuffers())
        .field("poolAllocationBytes", p.poolAllocationBytes())
        .field("heapAllocationBytes", p.heapAllocationBytes())
        .field("heapAllocationRatio", p.heapAllocationRatio())
        .endObject();
    j.endObject();
  }

  private static void compactions(Json j, List<CompactionLog.Compaction> list) {
    j.beginArray();
    for (CompactionLog.Compaction c : list) {
      j.beginObject()
          .field("table", c.table())
          .field("regionId", c.regionId())
          .field("major", c.major())
          .field("startTime", c.startTime().toString())
          .field("filesIn", c.filesIn())
          .field("bytesIn", c.bytesIn())
          .field("bytesOut", c.bytesOut())
          .field("durationMillis", c.duration().toMillis())
          .field("outcome", c.outcome().name())
          .endObject();
    }
    j.endArray();
  }
}
