package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.CellCursor;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reads the golden files of every released format version (see {@link GoldenBlockFiles}) and checks
 * their exact contents: a change that breaks old files fails the build.
 */
class TestBlockFileGolden {
  @Test
  void readsTheFilesOfEveryVersion() throws Exception {
    for (int version = BlockFileFormat.OLDEST_READABLE_VERSION;
        version <= BlockFileFormat.VERSION;
        version++) {
      readsFilesOf(version);
    }
  }

  private static void readsFilesOf(int version) throws Exception {
    List<TestingCell> cells = GoldenBlockFiles.cells();
    for (BlockFileOptions options : GoldenBlockFiles.OPTIONS) {
      Path path = resource(GoldenBlockFiles.fileName(version, options));
      try (BlockFileReader reader = BlockFileReader.open(path);
          CellCursor cursor = reader.cursor()) {
        FileInfo info = reader.info();
        assertThat(info.fileId()).isEqualTo(GoldenBlockFiles.FILE_ID);
        assertThat(info.formatVersion()).isEqualTo(version);
        assertThat(info.options()).isEqualTo(options);
        assertThat(info.cellCount()).isEqualTo(cells.size());
        assertThat(info.deleteCount())
            .isEqualTo(cells.stream().filter(TestingCell::delete).count());
        assertThat(info.firstRow()).isEqualTo(cells.get(0).row());
        assertThat(info.lastRow()).isEqualTo(cells.get(cells.size() - 1).row());
        assertThat(info.fileBytes()).isEqualTo(Files.size(path));
        assertThat(info.guidePosts()).isNotEmpty();
        assertThat(reader.indexLevels()).isGreaterThanOrEqualTo(2);
        assertThat(TestingCell.drain(cursor, cursor.seek(Bytes.EMPTY))).isEqualTo(cells);
        for (int i = 0; i < cells.size(); i += 7) {
          Bytes row = cells.get(i).row();
          assertThat(cursor.seek(row)).isTrue();
          assertThat(TestingCell.current(cursor))
              .isEqualTo(cells.get(TestingCell.lowerBound(cells, row)));
          assertThat(reader.mightContainRow(row)).isTrue();
        }
      }
    }
  }

  private static Path resource(String name) throws URISyntaxException {
    URL url = TestBlockFileGolden.class.getResource("/golden/" + name);
    assertThat(url).as("golden file %s", name).isNotNull();
    return Path.of(url.toURI());
  }
}
