package io.cairn.it.server;

import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.protocol.Response;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A client process that opens scanners and then waits to be killed ({@link TestServerScanRelease}
 * kills it with SIGKILL): {@code PORT TABLE SCANNERS} opens {@code SCANNERS} paged scans of {@code
 * TABLE} (a qualified name) with pages of 10 rows, reads each first page, sends one more ScanNext
 * per scanner without reading its answer, prints {@code READY} and sleeps.
 */
public final class AbandonedScanClient {
  private AbandonedScanClient() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    int port = Integer.parseInt(args[0]);
    String table = args[1];
    int scanners = Integer.parseInt(args[2]);
    RawClient client = RawClient.open(port, "abandoned-scan-client");
    Response catalog = client.call(KvRows.getCatalog());
    TableDescriptor descriptor = null;
    for (var bytes : catalog.getCatalogData().getTablesList()) {
      TableDescriptor t = DescriptorSerializer.deserialize(bytes.toByteArray());
      if (t.qualifiedName().equals(table)) {
        descriptor = t;
      }
    }
    if (descriptor == null) {
      throw new IllegalStateException("no table [" + table + "] in the server's catalog");
    }
    KvRows rows = new KvRows(descriptor);
    long[] ids = new long[scanners];
    for (int i = 0; i < scanners; i++) {
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
