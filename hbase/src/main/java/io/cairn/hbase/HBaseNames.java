package io.cairn.hbase;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.TableName;

/**
 * The HBase table that holds a Cairn table: in Cairn's namespace, its name kept where HBase allows
 * the characters (letters, digits, '-' and '.', not first) and each other byte of its UTF-8 written
 * as '_' and two hex digits, so that two Cairn names never share an HBase table.
 */
final class HBaseNames {
  private HBaseNames() {}

  /** Whether {@code name} is a namespace HBase accepts: letters, digits and '_'. */
  static boolean isNamespace(String name) {
    return name != null && name.matches("[A-Za-z0-9_]{1,128}");
  }

  /** The HBase table of Cairn table {@code name} in {@code namespace}. */
  static TableName table(String namespace, String name) {
    StringBuilder out = new StringBuilder(name.length() + 8);
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xFF;
      boolean plain =
          (b >= 'a' && b <= 'z')
              || (b >= 'A' && b <= 'Z')
              || (b >= '0' && b <= '9')
              || (i > 0 && (b == '-' || b == '.'));
      if (plain) {
        out.append((char) b);
      } else {
        out.append('_')
            .append(Character.forDigit(b >> 4, 16))
            .append(Character.forDigit(b & 15, 16));
      }
    }
    return TableName.valueOf(namespace, out.toString());
  }

  /**
   * Cairn's id of an HBase region: the first 60 bits of its encoded name (a hash of the region's
   * whole name). Not HBase's region id, a creation time that both daughters of a split share.
   */
  static long regionId(org.apache.hadoop.hbase.client.RegionInfo region) {
    return Long.parseUnsignedLong(region.getEncodedName().substring(0, 15), 16);
  }
}
