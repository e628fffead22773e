package io.cairn.store.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.memstore.Memstore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link MergingCursor} and {@link VisibleRows} over one to four memstores holding random versions
 * of rows, against a model: a map of rows to their versions, newest first.
 */
class TestVisibleRows {
  private record Version(long sequenceId, boolean delete, Bytes value) {}

  @Test
  void mergedSourcesShowTheModelsRows() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      String message = "seed " + seed + ", round " + round;
      int sourceCount = 1 + random.nextInt(4);
      List<Memstore> memstores = new ArrayList<>();
      for (int i = 0; i < sourceCount; i++) {
        memstores.add(new Memstore());
      }
      TreeMap<Bytes, TreeMap<Long, Version>> model = new TreeMap<>();
      int cells = random.nextInt(200);
      for (int i = 0; i < cells; i++) {
        Bytes row = randomRow(random);
        long sequenceId = 1 + random.nextInt(50);
        TreeMap<Long, Version> versions = model.computeIfAbsent(row, r -> new TreeMap<>());
        if (versions.containsKey(sequenceId)) {
          continue; // sequence ids are unique across sources
        }
        boolean delete = random.nextInt(5) == 0;
        Bytes value = delete ? Bytes.EMPTY : randomRow(random);
        versions.put(sequenceId, new Version(sequenceId, delete, value));
        Memstore memstore = memstores.get(random.nextInt(sourceCount));
        if (delete) {
          memstore.delete(row, sequenceId);
        } else {
          memstore.put(row, sequenceId, value);
        }
      }
      model.values().removeIf(Map::isEmpty);

      // nextRow lands on each row's newest cell
      List<Bytes> firstCells = new ArrayList<>();
      try (CellCursor cursor = merged(memstores)) {
        if (cursor.seek(Bytes.EMPTY)) {
          do {
            firstCells.add(cursor.row());
            assertThat(cursor.sequenceId())
                .as(message)
                .isEqualTo(model.get(cursor.row()).lastKey());
          } while (cursor.nextRow());
        }
      }
      assertThat(firstCells).as(message).containsExactlyElementsOf(model.keySet());

      for (int scan = 0; scan < 10; scan++) {
        long readPoint = random.nextInt(55);
        long expiredAtOrBelow = random.nextInt(4) == 0 ? random.nextInt(30) : -1;
        Bytes start = random.nextBoolean() ? Bytes.EMPTY : randomRow(random);
        Bytes stop = random.nextBoolean() ? Bytes.EMPTY : randomRow(random);
        if (!stop.isEmpty() && stop.compareTo(start) < 0) {
          stop = start;
        }
        KeyRange range = new KeyRange(start, stop);
        List<String> expected = new ArrayList<>();
        for (Map.Entry<Bytes, TreeMap<Long, Version>> row : model.entrySet()) {
          if (row.getKey().compareTo(start) < 0
              || (!stop.isEmpty() && row.getKey().compareTo(stop) >= 0)) {
            continue;
          }
          Map.Entry<Long, Version> visible = row.getValue().floorEntry(readPoint);
          if (visible != null
              && !visible.getValue().delete()
              && visible.getKey() > expiredAtOrBelow) {
            expected.add(row.getKey() + "=" + visible.getValue().value());
          }
        }
        List<String> actual = new ArrayList<>();
        try (VisibleRows rows =
            new VisibleRows(merged(memstores), range, readPoint, expiredAtOrBelow)) {
          while (rows.next()) {
            byte[] value = new byte[rows.valueLength()];
            rows.valueBuffer().get(rows.valueOffset(), value);
            actual.add(
                Bytes.copyOf(rows.keyArray(), rows.keyOffset(), rows.keyLength())
                    + "="
                    + Bytes.wrap(value));
          }
        }
        assertThat(actual)
            .as(
                "%s, read point %s, expired at or below %s, %s",
                message, readPoint, expiredAtOrBelow, range)
            .isEqualTo(expected);
      }
    }
  }

  private static CellCursor merged(List<Memstore> memstores) {
    List<CellCursor> sources = new ArrayList<>();
    for (Memstore memstore : memstores) {
      sources.add(memstore.cursor());
    }
    return MergingCursor.of(sources);
  }

  /**
   * Rows over a small alphabet with bytes above 0x7f: short ones (many versions of the same row),
   * and ones of 6 to 12 bytes whose first bytes come from two letters (rows and stop rows sharing
   * their first 8 bytes, or not, or shorter than 8: every case of the stop check).
   */
  private static Bytes randomRow(Random random) {
    boolean longRow = random.nextInt(3) == 0;
    byte[] row = new byte[longRow ? 6 + random.nextInt(7) : random.nextInt(4)];
    for (int i = 0; i < row.length; i++) {
      row[i] =
          longRow && i < 7
              ? (byte) ("a\u00ff".charAt(random.nextInt(2)))
              : (byte) ("ab\u0000\u00ff".charAt(random.nextInt(4)));
    }
    return Bytes.wrap(row);
  }
}
