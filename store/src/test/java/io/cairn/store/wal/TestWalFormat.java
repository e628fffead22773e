package io.cairn.store.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestWalFormat {
  @TempDir Path dir;

  private static Bytes hex(String hex) {
    return Bytes.wrap(HexFormat.of().parseHex(hex));
  }

  @Test
  void frameOfTheDocumentedExample() {
    byte[] frame =
        WalFormat.encodeFrame(new WalRecord(5, List.of(WalEdit.put(7, hex("61"), hex("6263")))));
    assertThat(HexFormat.of().formatHex(frame)).isEqualTo("00000009a3382e88050107010161026263");
  }

  @Test
  void header() {
    byte[] header = new byte[WalFormat.HEADER_BYTES];
    WalFormat.encodeHeader(1).get(header);
    assertThat(HexFormat.of().formatHex(header))
        .isEqualTo("434149524e57414c" + "00000001" + "0000000000000001" + "599b084c");
  }

  @Test
  void segmentNames() {
    assertThat(WalFormat.segmentFileName(1)).isEqualTo("wal-00000000000000000001.log");
    assertThat(WalFormat.parseSegmentNumber("wal-00000000000000000042.log")).isEqualTo(42);
    assertThat(WalFormat.parseSegmentNumber("wal-42.log")).isEqualTo(-1);
    assertThat(WalFormat.parseSegmentNumber("wal-00000000000000000042.log.tmp")).isEqualTo(-1);
  }

  /** A segment written by hand from the specification (format version 1); never regenerate. */
  @Test
  void readsGoldenVersion1Segment() throws IOException {
    String name = "wal-00000000000000000001.log";
    try (InputStream in = getClass().getResourceAsStream("golden-v1/" + name)) {
      assertThat(in).isNotNull();
      Files.copy(in, dir.resolve(name));
    }
    List<WalRecord> records = new ArrayList<>();
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      assertThat(wal.replay(records::add)).isEqualTo(300);
    }
    assertThat(records)
        .containsExactly(
            new WalRecord(5, List.of(WalEdit.put(7, hex("61"), hex("6263")))),
            new WalRecord(3, List.of(WalEdit.delete(2, hex("6b")))),
            new WalRecord(
                300,
                List.of(
                    WalEdit.put(-1, Bytes.EMPTY, hex("00ff")), WalEdit.delete(0, hex("010203")))));
  }
}
