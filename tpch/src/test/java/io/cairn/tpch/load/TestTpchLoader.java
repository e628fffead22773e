package io.cairn.tpch.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.tpch.CairnTool;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestTpchLoader {
  private static final double SF = 0.001;

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void loadsEveryTableWithTheSpecifiedRowCounts() throws SQLException {
    String url = "jdbc:cairn:mem:tpch-loader-test";
    AtomicLong progress = new AtomicLong();
    List<TpchLoader.TableResult> results =
        TpchLoader.load(url, SF, TpchSchema.TABLES, 2, progress::addAndGet);
    assertThat(results).hasSize(8);
    long total = results.stream().mapToLong(TpchLoader.TableResult::rows).sum();
    assertThat(progress.get()).isEqualTo(total);
    try (Connection c = DriverManager.getConnection(url)) {
      for (String table : TpchSchema.TABLES) {
        assertThat(TpchLoader.isLoaded(c, table, SF)).as(table).isTrue();
      }
      assertThat(count(c, "SELECT COUNT(*) FROM ORDERS")).isEqualTo(1500);
      // Every line item belongs to an order, as the generator promises.
      assertThat(
              count(
                  c,
                  "SELECT COUNT(*) FROM LINEITEM L WHERE NOT EXISTS"
                      + " (SELECT 1 FROM ORDERS O WHERE O.O_ORDERKEY = L.L_ORDERKEY)"))
          .isZero();
    }
    // Already loaded: nothing to do.
    assertThat(TpchLoader.ensureLoaded(url, SF, List.of("ORDERS"), 1, n -> {})).isEmpty();
  }

  @Test
  void aFileStoreKeepsEveryRowLoadedByManyWritersAfterItIsOpenedAgain(@TempDir Path dir)
      throws SQLException {
    // each writer's batches are atomic writes of their own (autocommit), logged before they return
    String file = "jdbc:cairn:file:" + dir.resolve("store");
    String mem = "jdbc:cairn:mem:tpch-loader-file";
    TpchLoader.load(file, 0.01, List.of("LINEITEM"), 4, n -> {});
    TpchLoader.load(mem, 0.01, List.of("LINEITEM"), 1, n -> {});
    String sql =
        "SELECT COUNT(*), SUM(L_EXTENDEDPRICE), SUM(L_ORDERKEY * 7 + L_LINENUMBER),"
            + " COUNT(DISTINCT L_COMMENT) FROM LINEITEM";
    List<Object> expected = row(mem, sql);
    assertThat(expected.get(0)).isEqualTo(60_175L);
    assertThat(row(file, sql)).isEqualTo(expected);
  }

  private static List<Object> row(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      List<Object> out = new java.util.ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.add(rs.getObject(i));
      }
      return out;
    }
  }

  @Test
  void sameDataInAnotherDatabase() throws SQLException {
    String cairn = "jdbc:cairn:mem:tpch-loader-h2";
    String h2 = "jdbc:h2:mem:tpch-loader;DB_CLOSE_DELAY=-1";
    TpchLoader.load(cairn, SF, List.of("PART"), 1, n -> {});
    TpchLoader.load(h2, SF, List.of("PART"), 1, n -> {});
    String sql = "SELECT SUM(P_RETAILPRICE * P_SIZE) FROM PART WHERE P_BRAND = 'Brand#13'";
    try (Connection a = DriverManager.getConnection(cairn);
        Connection b = DriverManager.getConnection(h2);
        Statement x = a.createStatement();
        Statement y = b.createStatement();
        ResultSet ra = x.executeQuery(sql);
        ResultSet rb = y.executeQuery(sql)) {
      ra.next();
      rb.next();
      assertThat(ra.getBigDecimal(1)).isEqualByComparingTo(rb.getBigDecimal(1));
    }
  }

  @Test
  void rejectsUnknownTablesAndBadScaleFactors() {
    assertThatThrownBy(() -> TpchSchema.ddl("NOPE")).hasMessageContaining("NOPE");
    assertThatThrownBy(() -> TpchLoader.load("jdbc:cairn:mem:x", 0, List.of("PART"), 1, n -> {}))
        .hasMessageContaining("Scale factor");
    assertThat(CairnTool.run("tpch", "load", "--tables", "nope", "--sf", "0.001")).isEqualTo(2);
    assertThat(CairnTool.run("tpch", "load", "--sf", "0")).isEqualTo(2);
    assertThat(CairnTool.run("tpch", "load", "--threads", "0", "--sf", "0.001")).isEqualTo(2);
  }
}
