package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.protocol.Call;
import io.cairn.protocol.Error;
import io.cairn.protocol.Expr;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.wire.WirePrograms;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deep expressions over the network (issue 15, "requests fail alone"): 50, 250 and 1,000 levels of
 * {@code ||}, chained {@code + 1} and nested CASE run on a real server process with the answers the
 * embedded engine gives (expressions deeper than a protobuf tree can nest travel flat); past the
 * planner's limit both say 54001; and a whole frame the server cannot parse fails only its own
 * request, while a scan on the same connection keeps reading.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerDeepExpressions {
  private static final int[] DEPTHS = {50, 250, 1_000};

  /** Rows of W, the wide table a half-read scan reads while deep statements run beside it. */
  private static final int W_ROWS = 20_000;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path temp;

  private static ServerProcess server;
  private static String remoteUrl;
  private static String embeddedUrl;

  @BeforeAll
  static void start() throws Exception {
    server = ServerProcess.options(temp).name("deep-expressions").start();
    remoteUrl = "jdbc:cairn://127.0.0.1:" + server.port() + ";connectTimeout=5s;requestTimeout=60s";
    embeddedUrl = "jdbc:cairn:mem:deep-" + UUID.randomUUID();
    for (String url : List.of(remoteUrl, embeddedUrl)) {
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE D (K INTEGER PRIMARY KEY, S VARCHAR(40), N INTEGER)");
        s.execute("UPSERT INTO D VALUES (1, 'a', 1), (2, 'bb', 2), (3, NULL, 30), (4, 'd', NULL)");
        s.execute("UPSERT INTO D VALUES (5, 'e', 700), (6, 'f', 2000)");
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      try {
        ServerChecks.stopAndAssertNoLeaks(server);
      } finally {
        server.close();
      }
    }
  }

  private static String concat(int depth) {
    return "SELECT K, S" + " || 'x'".repeat(depth) + " FROM D ORDER BY K";
  }

  private static String plus(int depth) {
    String chain = "N" + " + 1".repeat(depth);
    return "SELECT K, " + chain + " FROM D WHERE " + chain + " > " + (depth + 1) + " ORDER BY K";
  }

  /** CASE WHEN N > 0 THEN CASE WHEN N > 1 THEN ... ELSE 1 END ELSE 0 END: min(N, depth) */
  private static String nestedCase(int depth) {
    StringBuilder sql = new StringBuilder("SELECT K, ");
    for (int i = 0; i < depth; i++) {
      sql.append("CASE WHEN N > ").append(i).append(" THEN ");
    }
    sql.append(depth);
    for (int i = depth - 1; i >= 0; i--) {
      sql.append(" ELSE ").append(i).append(" END");
    }
    return sql.append(" FROM D WHERE K <> 4 ORDER BY K").toString();
  }

  private static List<String> rows(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      return rows(c, sql);
    }
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(rs.getString(1) + "," + rs.getString(2));
      }
      return rows;
    }
  }

  /** The statement's rows over the network, which must be the embedded engine's. */
  private static List<String> sameAsEmbedded(String sql) throws SQLException {
    List<String> embedded = rows(embeddedUrl, sql);
    assertThat(rows(remoteUrl, sql)).as("remote rows").isEqualTo(embedded);
    return embedded;
  }

  @Test
  void chainedConcatenationRunsRemotelyAsEmbedded() throws SQLException {
    for (int depth : DEPTHS) {
      String x = "x".repeat(depth);
      assertThat(sameAsEmbedded(concat(depth)))
          .as("depth %s", depth)
          .containsExactly("1,a" + x, "2,bb" + x, "3,null", "4,d" + x, "5,e" + x, "6,f" + x);
    }
  }

  @Test
  void chainedPlusRunsRemotelyAsEmbedded() throws SQLException {
    for (int depth : DEPTHS) {
      assertThat(sameAsEmbedded(plus(depth)))
          .as("depth %s", depth)
          .containsExactly(
              "2," + (2 + depth), "3," + (30 + depth), "5," + (700 + depth), "6," + (2000 + depth));
    }
  }

  @Test
  void nestedCaseRunsRemotelyAsEmbedded() throws SQLException {
    for (int depth : DEPTHS) {
      assertThat(sameAsEmbedded(nestedCase(depth)))
          .as("depth %s", depth)
          .containsExactly(
              "1,1", "2,2", "3,30", "5," + Math.min(700, depth), "6," + Math.min(2000, depth));
    }
  }

  @Test
  void pastThePlannersLimitBothSay54001() {
    String tooDeep = "SELECT N" + " + 1".repeat(1_300) + " FROM D";
    for (String url : List.of(embeddedUrl, remoteUrl)) {
      assertThatThrownBy(() -> rows(url, tooDeep))
          .as(url)
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("54001");
                assertThat(e.getMessage()).contains("nested deeper than").hasSizeLessThan(4096);
              });
    }
  }

  /**
   * Statements of several JDBC connections share one network connection: a scan half read on one
   * goes on reading while another runs deep statements, and one too deep to plan.
   */
  @Test
  void aHalfReadScanKeepsReadingWhileDeepStatementsRunBesideIt() throws SQLException {
    try (Connection reader = DriverManager.getConnection(remoteUrl);
        Connection deep = DriverManager.getConnection(remoteUrl)) {
      try (Statement s = reader.createStatement()) {
        s.execute("CREATE TABLE W (K INTEGER PRIMARY KEY, V VARCHAR(20))");
      }
      try (PreparedStatement p = reader.prepareStatement("UPSERT INTO W VALUES (?, ?)")) {
        for (int k = 0; k < W_ROWS; k++) {
          p.setInt(1, k);
          p.setString(2, "w" + k);
          p.addBatch();
          if (k % 2_000 == 1_999) {
            p.executeBatch();
          }
        }
      }
      try (Statement s = reader.createStatement();
          ResultSet rs = s.executeQuery("SELECT K, V FROM W")) {
        int read = 0;
        for (; read < 100; read++) {
          assertThat(rs.next()).isTrue();
        }
        assertThat(rows(deep, concat(1_000))).hasSize(6);
        assertThat(rows(deep, plus(1_000))).hasSize(4);
        assertThatThrownBy(() -> rows(deep, "SELECT N" + " + 1".repeat(1_300) + " FROM D"))
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("54001"));
        long sum = 0;
        while (rs.next()) {
          sum += rs.getInt(1);
          read++;
        }
        assertThat(read).isEqualTo(W_ROWS);
        assertThat(sum).isEqualTo((long) W_ROWS * (W_ROWS - 1) / 2 - 99L * 100 / 2);
      }
    }
  }

  /**
   * Raw frames on one connection with a paged scan open: a whole frame that is not a request, and a
   * request whose scan program nests deeper than the server's parser allows, each get
   * PROTOCOL_ERROR for their own id; the scan then reads to its end on the same connection.
   */
  @Test
  void aGarbageButFramedRequestFailsAloneWhileAScanKeepsReading() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "garbage-beside-a-scan")) {
      KvRows rows = new KvRows(KvRows.created(client.call(KvRows.createTable("RAW_SCAN"))));
      RawClient.ok(client.call(rows.upsertRange(0, 100, 10)));
      Response first = client.call(KvRows.openScan(rows.fullScan(), 10, 0));
      assertThat(KvRows.rows(first).length).isEqualTo(10);
      long scanner = first.getScanPage().getScannerId();

      long garbage = client.sendUnparsableRequest();
      Error e = assertError(client.await(garbage), ErrorCode.PROTOCOL_ERROR);
      assertThat(e.getMessage()).contains("[" + garbage + "]").hasSizeLessThan(400);

      // 600 NOTs as a tree of messages: 1,200 levels, past the parser's 1,000
      TableDescriptor table = rows.table();
      io.cairn.protocol.DataType bool = WirePrograms.toProto(DataType.BOOLEAN);
      Expr tree =
          Expr.newBuilder()
              .setType(bool)
              .setCall(
                  Call.newBuilder()
                      .setOp(Op.IS_NULL.id())
                      .addOperands(
                          Expr.newBuilder()
                              .setType(WirePrograms.toProto(table.columns().get(2).type()))
                              .setColumn(2)))
              .build();
      for (int i = 0; i < 600; i++) {
        tree =
            Expr.newBuilder()
                .setType(bool)
                .setCall(Call.newBuilder().setOp(Op.NOT.id()).addOperands(tree))
                .build();
      }
      ScanSpec spec = rows.fullScan();
      ScanSpec nested =
          spec.toBuilder().setProgram(spec.getProgram().toBuilder().setFilter(tree)).build();
      e = assertError(client.call(KvRows.get(nested)), ErrorCode.PROTOCOL_ERROR);
      assertThat(e.getMessage()).contains("could not be read").hasSizeLessThan(400);

      int read = 10;
      Response page = first;
      while (!page.getScanPage().getDone()) {
        page = client.call(KvRows.scanNext(scanner, 10, 0));
        read += KvRows.rows(page).length;
      }
      assertThat(read).isEqualTo(100);
      assertThat(client.call(KvRows.ping()).hasPong()).isTrue();
    }
  }
}
