package io.cairn.server.status;

import static io.cairn.server.status.Formats.html;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.RegionInfo;
import io.cairn.store.cache.BlockCacheStats;
import io.cairn.store.cache.BufferPoolStats;
import io.cairn.store.table.CompactionLog;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A status snapshot as the HTML of {@code GET /}: one page in the manner of HBase's region server
 * UI, sections Server, Tables and regions, Memstores, Block cache, Compactions, Clients, Slow
 * requests. Every value is HTML-escaped; sizes are shown in binary units with the exact byte count
 * in the cell's title. No script. What the {@link StatusView} hides (keys, client addresses and
 * user names) is not in the page at all: its cells say "hidden".
 */
final class StatusPage {
  private static final String STYLE =
      "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}"
          + "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
          + "h3{font-size:1em}table{border-collapse:collapse;margin:.5em 0}"
          + "th,td{border:1px solid #ddd;padding:.2em .6em;text-align:left}"
          + "th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}"
          + "td.k{font-family:monospace}nav a{margin-right:1em}.none{color:#777}"
          + "footer{margin-top:2em;color:#777;font-size:.9em}";

  private static final String HIDDEN = "hidden";

  private final StringBuilder out = new StringBuilder(8192);
  private final StatusView view;

  private StatusPage(StatusView view) {
    this.view = view;
  }

  static String render(ServerStatus status, StatusView view) {
    return new StatusPage(view).page(status);
  }

  private String page(ServerStatus s) {
    ServerInfo server = s.server();
    out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>Cairn server ")
        .append(html(server.listenAddress()))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head><body>\n<h1>Cairn server ")
        .append(html(server.listenAddress()))
        .append(
            "</h1>\n<nav><a href=\"#server\">Server</a><a href=\"#tables\">Tables and regions</a>")
        .append("<a href=\"#memstores\">Memstores</a><a href=\"#block-cache\">Block cache</a>")
        .append("<a href=\"#compactions\">Compactions</a><a href=\"#clients\">Clients</a>")
        .append("<a href=\"#slow-requests\">Slow requests</a><a href=\"/status.json\">JSON</a>")
        .append("</nav>\n");
    server(server, s.store());
    tables(s.store().tables());
    memstores(s.store());
    blockCache(s.store().blockCache());
    compactions(s.store());
    clients(s.clients());
    slowRequests(s.slowRequests());
    out.append("<footer>Snapshot taken at ")
        .append(html(time(s.takenAt())))
        .append(". Reload for a new one; the same figures as JSON: ")
        .append("<a href=\"/status.json\">/status.json</a>.</footer>\n</body></html>\n");
    return out.toString();
  }

  private void server(ServerInfo s, StoreStatus store) {
    section("server", "Server");
    out.append("<table>\n");
    pair("Version", s.version());
    pair("Started", time(s.startTime()));
    pair("Uptime", Formats.duration(s.uptime()));
    pair("Listening on", s.listenAddress());
    pair("TLS", s.tls() ? "on" : "off");
    pair("Authentication", s.authentication() ? "on" : "off");
    pair("Store", store.name() + (store.durable() ? "" : " (in memory)"));
    out.append("</table>\n");
  }

  private void tables(List<TableStatus> tables) {
    section("tables", "Tables and regions");
    if (!view.keys()) {
      none(
          "Keys (region boundaries) are hidden: they are values of the tables' primary keys."
              + (view.clients() ? " Show them with ?keys=1." : " An administrator can show them."));
    }
    if (tables.isEmpty()) {
      none("No tables.");
      return;
    }
    for (TableStatus t : tables) {
      out.append("<h3>")
          .append(html(t.name()))
          .append("</h3>\n<p>")
          .append(t.regions().size())
          .append(t.regions().size() == 1 ? " region, " : " regions, ")
          .append(t.fileCount())
          .append(t.fileCount() == 1 ? " file of " : " files of ")
          .append(html(Formats.bytes(t.fileBytes())))
          .append(", memstores ")
          .append(html(Formats.bytes(t.memstoreBytes())))
          .append("</p>\n<table>\n");
      header("Region", "Start key", "Stop key", "Files", "File size", "Memstore");
      for (RegionInfo r : t.regions()) {
        out.append("<tr>");
        number(r.regionId());
        if (view.keys()) {
          key(r.range().start(), "(first)");
          key(r.range().stop(), "(last)");
        } else {
          cell("k none", HIDDEN, null);
          cell("k none", HIDDEN, null);
        }
        number(r.fileCount());
        size(r.fileBytes());
        size(r.memstoreBytes());
        out.append("</tr>\n");
      }
      out.append("</table>\n");
    }
  }

  private void memstores(StoreStatus store) {
    section("memstores", "Memstores");
    MemstoreStatus m = store.memstores();
    out.append("<table>\n<tr><th>All memstores</th>");
    size(m.bytes());
    out.append("</tr>\n<tr><th>Global limit (cairn.memstore.global-size)</th>");
    size(m.globalLimitBytes());
    out.append("</tr>\n<tr><th>Flush size of a region (cairn.memstore.flush-size)</th>");
    size(m.flushSizeBytes());
    out.append("</tr>\n</table>\n");
    if (!store.tables().isEmpty()) {
      out.append("<table>\n");
      header("Table", "Memstores", "Largest region's");
      for (TableStatus t : store.tables()) {
        long largest = 0;
        for (RegionInfo r : t.regions()) {
          largest = Math.max(largest, r.memstoreBytes());
        }
        out.append("<tr>");
        text(t.name());
        size(t.memstoreBytes());
        size(largest);
        out.append("</tr>\n");
      }
      out.append("</table>\n");
    }
  }

  private void blockCache(BlockCacheStatus b) {
    section("block-cache", "Block cache");
    if (b.levels().isEmpty()) {
      none("No block cache (an in-memory store reads no files).");
    } else {
      out.append("<table>\n");
      header(
          "Level",
          "Blocks",
          "Cached",
          "Used",
          "Capacity",
          "Hits",
          "Misses",
          "Hit ratio",
          "Evictions",
          "Evicted");
      for (BlockCacheStats l : b.levels()) {
        out.append("<tr>");
        text(l.level());
        number(l.cachedBlocks());
        size(l.cachedBytes());
        size(l.usedBytes());
        size(l.capacityBytes());
        number(l.hits());
        number(l.misses());
        cell("n", Formats.percent(l.hitRatio()), null);
        number(l.evictions());
        size(l.evictedBytes());
        out.append("</tr>\n");
      }
      out.append("</table>\n");
    }
    if (b.bufferSize() > 0) {
      BufferPoolStats p = b.bufferPool();
      out.append("<h3>Read buffers</h3>\n<table>\n");
      header(
          "Buffer size",
          "In use",
          "Created",
          "Most",
          "Served from the pool",
          "Served from the heap");
      out.append("<tr>");
      size(b.bufferSize());
      number(p.usedBuffers());
      number(p.totalBuffers());
      number(p.maxBuffers());
      size(p.poolAllocationBytes());
      cell(
          "n",
          Formats.bytes(p.heapAllocationBytes())
              + " ("
              + Formats.percent(p.heapAllocationRatio())
              + ")",
          p.heapAllocationBytes() + " bytes");
      out.append("</tr>\n</table>\n");
    }
  }

  private void compactions(StoreStatus store) {
    section("compactions", "Compactions");
    out.append("<h3>Running</h3>\n");
    compactionTable(store.runningCompactions(), "None running.");
    out.append("<h3>Recent</h3>\n");
    compactionTable(store.recentCompactions(), "None since the store opened.");
  }

  private void compactionTable(List<CompactionLog.Compaction> list, String empty) {
    if (list.isEmpty()) {
      none(empty);
      return;
    }
    out.append("<table>\n");
    header(
        "Started",
        "Table",
        "Region",
        "Kind",
        "Files in",
        "Bytes in",
        "Bytes out",
        "Duration",
        "Outcome");
    for (CompactionLog.Compaction c : list) {
      out.append("<tr>");
      text(time(c.startTime()));
      text(c.table());
      number(c.regionId());
      text(c.major() ? "major" : "minor");
      number(c.filesIn());
      size(c.bytesIn());
      if (c.outcome() == CompactionLog.Outcome.SUCCEEDED) {
        size(c.bytesOut());
      } else {
        text("");
      }
      cell("n", Formats.duration(c.duration()), null);
      text(c.outcome().name().toLowerCase(java.util.Locale.ROOT));
      out.append("</tr>\n");
    }
    out.append("</table>\n");
  }

  private void clients(List<ClientInfo> clients) {
    section("clients", "Clients");
    if (clients.isEmpty()) {
      none("No clients connected.");
      return;
    }
    out.append("<table>\n");
    header(
        "Remote address",
        "User",
        "Session",
        "Connected since",
        "Requests",
        "Open scanners",
        "Open snapshots",
        "Bytes in",
        "Bytes out");
    for (ClientInfo c : clients) {
      out.append("<tr>");
      text(view.clients() ? c.remoteAddress() : HIDDEN);
      text(view.clients() ? c.user() : HIDDEN);
      number(c.sessionId());
      text(time(c.connectedSince()));
      number(c.requestsServed());
      number(c.openScanners());
      number(c.openSnapshots());
      size(c.bytesIn());
      size(c.bytesOut());
      out.append("</tr>\n");
    }
    out.append("</table>\n");
  }

  private void slowRequests(List<SlowRequest> requests) {
    section("slow-requests", "Slow requests");
    if (requests.isEmpty()) {
      none("No slow requests.");
      return;
    }
    out.append("<table>\n");
    header("Started", "Client", "Request", "Table", "Duration", "Rows");
    for (SlowRequest r : requests) {
      out.append("<tr>");
      text(time(r.startTime()));
      text(view.clients() ? r.client() : HIDDEN);
      text(r.requestType());
      text(r.table());
      cell("n", Formats.duration(r.duration()), r.duration().toMillis() + " ms");
      number(r.rows());
      out.append("</tr>\n");
    }
    out.append("</table>\n");
  }

  // ---- pieces ----

  /** An instant in UTC to the millisecond (JSON has the full precision). */
  private static String time(Instant t) {
    return t.truncatedTo(ChronoUnit.MILLIS).toString();
  }

  private void section(String id, String title) {
    out.append("<h2 id=\"").append(id).append("\">").append(html(title)).append("</h2>\n");
  }

  private void none(String message) {
    out.append("<p class=\"none\">").append(html(message)).append("</p>\n");
  }

  private void header(String... names) {
    out.append("<tr>");
    for (String n : names) {
      out.append("<th>").append(html(n)).append("</th>");
    }
    out.append("</tr>\n");
  }

  private void pair(String name, String value) {
    out.append("<tr><th>").append(html(name)).append("</th>");
    text(value);
    out.append("</tr>\n");
  }

  private void text(String value) {
    cell(null, value, null);
  }

  private void number(long n) {
    cell("n", Long.toString(n), null);
  }

  private void size(long bytes) {
    cell("n", Formats.bytes(bytes), bytes + " bytes");
  }

  /** A key as printable text with escapes, its hex in the title; {@code empty} for no key. */
  private void key(Bytes key, String empty) {
    if (key.isEmpty()) {
      cell("k none", empty, null);
    } else {
      cell("k", Formats.key(key), key.toString());
    }
  }

  private void cell(String cssClass, String value, String title) {
    out.append("<td");
    if (cssClass != null) {
      out.append(" class=\"").append(html(cssClass)).append('"');
    }
    if (title != null) {
      out.append(" title=\"").append(html(title)).append('"');
    }
    out.append('>').append(html(value)).append("</td>");
  }
}
