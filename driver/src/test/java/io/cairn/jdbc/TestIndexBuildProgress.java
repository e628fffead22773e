package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.jdbc.internal.CairnStatement;
import io.cairn.jdbc.internal.engine.BuildProgress;
import io.cairn.jdbc.internal.engine.ProgressListener;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The progress of CREATE INDEX and ALTER INDEX ... REBUILD, embedded and over a server (the
 * contract suite runs this class both ways): the update count is the rows indexed, and the
 * statement's progress listener hears the rows indexed while the build runs, then a final report.
 * The store reports every 65,536 rows, so a table of {@value #ROWS} rows gives exactly one report
 * before the end; a listener with a zero interval hears each one.
 */
class TestIndexBuildProgress {
  private static final int ROWS = 70_000;

  /** Where the store's build reports rows indexed (IndexBuilder: every 2^16 rows). */
  private static final long STORE_REPORT = 65_536;

  @RegisterExtension final TestingDatabase db = new TestingDatabase("index-progress");

  /** Every report, in order. */
  private static final class Recording implements ProgressListener {
    final List<BuildProgress> reports = new CopyOnWriteArrayList<>();
    private final Duration interval;

    Recording(Duration interval) {
      this.interval = interval;
    }

    @Override
    public void progress(BuildProgress progress) {
      reports.add(progress);
    }

    @Override
    public Duration interval() {
      return interval;
    }

    BuildProgress last() {
      return reports.get(reports.size() - 1);
    }
  }

  /** {@value #ROWS} rows in a few statements (a server gets a few requests, not one per row). */
  @BeforeEach
  void load() throws SQLException {
    db.execute("CREATE TABLE T (ID INTEGER PRIMARY KEY, V INTEGER)");
    StringBuilder values = new StringBuilder("UPSERT INTO T VALUES ");
    for (int i = 0; i < 1000; i++) {
      values.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i).append(')');
    }
    db.execute(values.toString());
    for (int rows = 1000; rows < 64_000; rows *= 2) {
      db.execute("UPSERT INTO T SELECT ID + " + rows + ", V FROM T");
    }
    db.execute("UPSERT INTO T SELECT ID + 64000, V FROM T WHERE ID < " + (ROWS - 64_000));
    assertThat(db.rows("SELECT COUNT(*), COUNT(DISTINCT V) FROM T"))
        .containsExactly(ROWS + ",1000");
  }

  private long update(String sql, ProgressListener listener) throws SQLException {
    try (Statement s = db.connection().createStatement()) {
      s.unwrap(CairnStatement.class).setProgressListener(listener);
      assertThat(s.unwrap(CairnStatement.class).getProgressListener()).isSameAs(listener);
      return s.executeLargeUpdate(sql);
    }
  }

  private static void assertReports(Recording recording, String index) {
    assertThat(recording.reports).as("reports").hasSizeGreaterThanOrEqualTo(2);
    // while the build ran: the store's report at 65,536 rows, not yet finished
    assertThat(recording.reports)
        .filteredOn(p -> !p.finished())
        .extracting(BuildProgress::rowsIndexed)
        .contains(STORE_REPORT);
    assertThat(recording.reports.subList(0, recording.reports.size() - 1))
        .allSatisfy(p -> assertThat(p.finished()).isFalse());
    BuildProgress last = recording.last();
    assertThat(last.finished()).isTrue();
    assertThat(last.rowsIndexed()).isEqualTo(ROWS);
    assertThat(last.index()).isEqualTo(index);
    assertThat(last.table()).isEqualTo("PUBLIC.T");
    assertThat(last.percent()).isEqualTo(100);
    assertThat(last.describe())
        .startsWith("Built index " + index + " on PUBLIC.T: 70,000 rows in ");
    // rows only grow, and so does the time
    for (int i = 1; i < recording.reports.size(); i++) {
      BuildProgress before = recording.reports.get(i - 1);
      BuildProgress after = recording.reports.get(i);
      assertThat(after.rowsIndexed()).isGreaterThanOrEqualTo(before.rowsIndexed());
      assertThat(after.elapsed()).isGreaterThanOrEqualTo(before.elapsed());
    }
  }

  @Test
  void createAndRebuildReportTheRowsIndexed() throws SQLException {
    Recording created = new Recording(Duration.ZERO);
    assertThat(update("CREATE INDEX I_V ON T (V)", created)).isEqualTo(ROWS);
    assertReports(created, "I_V");

    Recording rebuilt = new Recording(Duration.ZERO);
    assertThat(update("ALTER INDEX I_V ON T REBUILD", rebuilt)).isEqualTo(ROWS);
    assertReports(rebuilt, "I_V");
    assertThat(db.rows("CHECK INDEX I_V ON T"))
        .containsExactly("I_V,PUBLIC.T,70000,70000,0,0,true,");
  }

  @Test
  void aLongIntervalGivesOnlyTheFinalReport() throws SQLException {
    Recording recording = new Recording(Duration.ofHours(1));
    assertThat(update("CREATE INDEX I_V ON T (V)", recording)).isEqualTo(ROWS);
    assertThat(recording.reports).hasSize(1);
    assertThat(recording.last().finished()).isTrue();
    assertThat(recording.last().rowsIndexed()).isEqualTo(ROWS);
  }

  @Test
  void aFailingListenerDoesNotStopTheBuild() throws SQLException {
    ProgressListener failing =
        new ProgressListener() {
          @Override
          public void progress(BuildProgress progress) {
            throw new IllegalStateException("listener failed");
          }

          @Override
          public Duration interval() {
            return Duration.ZERO;
          }
        };
    assertThat(update("CREATE INDEX I_V ON T (V)", failing)).isEqualTo(ROWS);
    assertThat(db.rows("SELECT STATE FROM SYSTEM.INDEXES WHERE INDEX_NAME = 'I_V'"))
        .containsExactly("ACTIVE");
  }

  @Test
  void withoutAListenerTheCountStillComes() throws SQLException {
    assertThat(db.update("CREATE INDEX I_V ON T (V)")).isEqualTo(ROWS);
    // IF NOT EXISTS of an existing index builds nothing: no report, count 0
    Recording recording = new Recording(Duration.ZERO);
    assertThat(update("CREATE INDEX IF NOT EXISTS I_V ON T (ID)", recording)).isZero();
    assertThat(recording.reports).isEmpty();
  }

  @Test
  void aRefusedStatementSendsNoReport() throws SQLException {
    Recording recording = new Recording(Duration.ZERO);
    try (Statement s = db.connection().createStatement()) {
      s.unwrap(CairnStatement.class).setProgressListener(recording);
      SQLException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              SQLException.class, () -> s.executeUpdate("CREATE INDEX I_V ON T (NOPE)"));
      assertThat(e.getSQLState()).isEqualTo("42S22");
    }
    assertThat(recording.reports).isEmpty();
  }
}
