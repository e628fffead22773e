package io.cairn.store.file;

import java.util.Locale;

/**
 * What identifies one written block file beyond its id: its length and the checksum of its trailer
 * (which covers the offsets of its file info, index and bloom, and its file id). The table manifest
 * lists each file's seal, so a valid block file that is not the one the manifest means (one of
 * another table with the same file number, an older copy) is refused on open.
 *
 * @param bytes the file's length
 * @param trailerChecksum the crc32c stored at the end of the trailer
 */
public record FileSeal(long bytes, int trailerChecksum) {
  /** The checksum as 8 hex digits, as the manifest writes it. */
  public String checksumHex() {
    return String.format(Locale.ROOT, "%08x", trailerChecksum);
  }

  @Override
  public String toString() {
    return bytes + " bytes, trailer checksum " + checksumHex();
  }
}
