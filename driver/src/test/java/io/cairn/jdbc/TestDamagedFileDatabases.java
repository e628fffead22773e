package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable database with a block file copied over another: connecting fails with XX001 naming the
 * file and both file ids, changing nothing; the connection property {@code cairn.open.salvage=true}
 * opens it without the damaged file (set aside under {@code DIR/salvaged/}), after which it opens
 * normally.
 */
@EmbeddedOnly("damages the files of a jdbc:cairn:file: database opened in this JVM")
class TestDamagedFileDatabases {
  @TempDir Path directory;

  private String url() {
    return "jdbc:cairn:file:" + directory;
  }

  private static long count(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  /** The block files of the table directory holding the largest one (T's), oldest first. */
  private List<Path> filesOfT() throws IOException {
    try (Stream<Path> walk = Files.walk(directory.resolve("tables"))) {
      List<Path> all = walk.filter(p -> p.toString().endsWith(".cbf")).toList();
      Path largest =
          all.stream()
              .max(Comparator.comparingLong(p -> p.toFile().length()))
              .orElseThrow()
              .getParent();
      return all.stream().filter(p -> p.getParent().equals(largest)).sorted().toList();
    }
  }

  @Test
  void aMisplacedBlockFileFailsTheConnectionUntilSalvaged() throws Exception {
    try (Connection c = DriverManager.getConnection(url());
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE T (K INTEGER PRIMARY KEY, V VARCHAR(100))");
      for (int batch = 0; batch < 2; batch++) {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
          int k = batch * 1000 + i;
          values.append(i == 0 ? "" : ", ").append("(").append(k).append(", 'value ").append(k);
          values.append("')");
        }
        s.executeUpdate("UPSERT INTO T VALUES " + values);
        s.executeUpdate("FLUSH TABLE T");
      }
    }
    List<Path> files = filesOfT();
    assertThat(files).hasSize(2);
    Path newer = files.get(1);
    String newerId = newer.getFileName().toString().replaceFirst("^0*", "").replace(".cbf", "");
    String olderId =
        files.get(0).getFileName().toString().replaceFirst("^0*", "").replace(".cbf", "");
    Files.copy(files.get(0), newer, StandardCopyOption.REPLACE_EXISTING);

    assertThatThrownBy(() -> DriverManager.getConnection(url()).close())
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("XX001"))
        .hasMessageContaining(newer.getFileName().toString())
        .hasMessageContaining("expected [" + newerId + "]")
        .hasMessageContaining("found [" + olderId + "]")
        .hasMessageContaining("cairn.open.salvage=true");

    try (Connection c = DriverManager.getConnection(url() + ";cairn.open.salvage=true")) {
      assertThat(count(c)).as("the rows of the older file").isEqualTo(1000);
    }
    assertThat(directory.resolve("salvaged").resolve(directory.relativize(newer).toString()))
        .exists();
    try (Connection c = DriverManager.getConnection(url())) {
      assertThat(count(c)).isEqualTo(1000);
    }
  }
}
