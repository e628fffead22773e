package io.cairn.it.server;

import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.protocol.Response;
import io.cairn.relocated.protobuf.ByteString;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A client process that opens scanners and then waits to be killed ({@link TestServerScanRelease}
 * kills it with SIGKILL): {@code PORT SCANNERS TABLE...} opens {@code SCANNERS} paged scans of the
 * tables (qualified names, taken in turn) with pages of 10 rows, reads each first page, sends one
 * more ScanNext per scanner without reading its answer, prints {@code READY} and sleeps.
 */
public final class AbandonedScanClient {
  private AbandonedScanClient() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    int port = Integer.parseInt(args[0]);
    int scanners = Integer.parseInt(args[1]);
    List<String> names = List.of(args).subList(2, args.length);
    RawClient client = RawClient.open(port, "abandoned-scan-client");
    Response catalog = client.call(KvRows.getCatalog());
    List<KvRows> tables = new ArrayList<>();
    for (String name : names) {
      for (ByteString bytes : catalog.getCatalogData().getTablesList()) {
        TableDescriptor t = DescriptorSerializer.deserialize(bytes.toByteArray());
        if (t.qualifiedName().equals(name)) {
          tables.add(new KvRows(t));
        }
      }
    }
    if (tables.size() != names.size()) {
      throw new IllegalStateException("not every table of " + names + " is in the catalog");
    }
    long[] ids = new long[scanners];
    for (int i = 0; i < scanners; i++) {
      KvRows rows = tables.get(i % tables.size());
      Response page = RawClient.ok(client.call(KvRows.openScan(rows.fullScan(), 10, 0)));
      if (page.getScanPage().getDone()) {
        throw new IllegalStateException("the scan ended on its first page: too few rows");
      }
      ids[i] = page.getScanPage().getScannerId();
      out.println("OPEN " + ids[i]);
    }
    for (long id : ids) {
      client.send(KvRows.scanNext(id, 10, 0));
    }
    out.println("READY");
    while (true) {
      Thread.sleep(60_000);
    }
  }
}
