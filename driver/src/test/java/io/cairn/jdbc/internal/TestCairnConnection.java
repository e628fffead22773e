package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestCairnConnection {
  TestingSession session;
  Connection connection;

  @BeforeEach
  void setUp() {
    session = new TestingSession();
    session.query(
        "SELECT N",
        List.of(new ColumnInfo("N", "N", "", "", DataType.INTEGER)),
        List.<Object[]>of(new Object[] {1}));
    Properties info = new Properties();
    info.setProperty("user", "alice");
    connection = new CairnConnection(session, "jdbc:cairn:mem:test", info);
  }

  @Test
  void transactionsDelegateToTheSession() throws SQLException {
    assertThat(connection.getAutoCommit()).isTrue();
    connection.setAutoCommit(false);
    assertThat(session.autoCommit).isFalse();
    assertThat(connection.getAutoCommit()).isFalse();
    connection.commit();
    connection.rollback();
    assertThat(session.commits).isEqualTo(1);
    assertThat(session.rollbacks).isEqualTo(1);
    connection.setAutoCommit(true);
    assertThat(session.commits).as("switching autocommit on commits").isEqualTo(2);
  }

  @Test
  void isolationAndHoldability() throws SQLException {
    assertThat(connection.getTransactionIsolation())
        .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
    connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    assertThat(connection.getTransactionIsolation())
        .as("snapshot isolation serves READ_COMMITTED")
        .isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
    assertThatThrownBy(
            () -> connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE))
        .isInstanceOf(SQLFeatureNotSupportedException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("0A000");
    assertThat(connection.getHoldability()).isEqualTo(ResultSet.HOLD_CURSORS_OVER_COMMIT);
    assertThatThrownBy(() -> connection.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(connection::setSavepoint)
        .isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void onlyForwardOnlyReadOnlyStatements() throws SQLException {
    connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY).close();
    assertThatThrownBy(
            () ->
                connection.createStatement(
                    ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY))
        .isInstanceOf(SQLFeatureNotSupportedException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("0A000");
    assertThatThrownBy(
            () ->
                connection.prepareStatement(
                    "SELECT N", ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    PreparedStatement ps = connection.prepareStatement("SELECT N", Statement.RETURN_GENERATED_KEYS);
    assertThat(ps.executeQuery().next()).isTrue();
    assertThat(ps.getGeneratedKeys().next()).isFalse();
    connection.prepareStatement("SELECT N", new String[] {"ID"}).close();
    assertThatThrownBy(() -> connection.prepareCall("CALL X()"))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void closeClosesStatementsResultSetsAndSession() throws SQLException {
    Statement st = connection.createStatement();
    ResultSet rs = st.executeQuery("SELECT N");
    PreparedStatement ps = connection.prepareStatement("SELECT N");
    connection.close();
    connection.close();
    assertThat(connection.isClosed()).isTrue();
    assertThat(st.isClosed()).isTrue();
    assertThat(ps.isClosed()).isTrue();
    assertThat(rs.isClosed()).isTrue();
    assertThat(session.cursors.get(0).closed).isTrue();
    assertThat(session.closes).isEqualTo(1);
    assertThat(connection.isValid(0)).isFalse();
    for (TestCairnResultSet.ThrowingCall call :
        List.<TestCairnResultSet.ThrowingCall>of(
            connection::createStatement,
            () -> connection.prepareStatement("SELECT N"),
            connection::commit,
            connection::getAutoCommit,
            connection::getMetaData,
            connection::getSchema,
            () -> connection.setReadOnly(true))) {
      assertThatThrownBy(call::run)
          .isInstanceOf(SQLNonTransientConnectionException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("08003");
    }
    assertThatThrownBy(() -> st.executeQuery("SELECT N"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("08003");
  }

  @Test
  void closingAStatementForgetsIt() throws SQLException {
    for (int i = 0; i < 100; i++) {
      connection.createStatement().close();
    }
    connection.close();
    assertThat(session.closes).isEqualTo(1);
  }

  @Test
  void settings() throws SQLException {
    assertThat(connection.isValid(1)).isTrue();
    assertThatThrownBy(() -> connection.isValid(-1))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22023");
    assertThat(connection.isReadOnly()).isFalse();
    connection.setReadOnly(true);
    assertThat(connection.isReadOnly()).isTrue();
    assertThat(connection.getSchema()).isEqualTo("PUBLIC");
    connection.setSchema("SALES");
    assertThat(connection.getSchema()).isEqualTo("SALES");
    connection.setCatalog("ignored");
    assertThat(connection.getCatalog()).isNull();
    assertThat(connection.nativeSQL("SELECT 1")).isEqualTo("SELECT 1");
    assertThat((Object) connection.getWarnings()).isNull();
    connection.clearWarnings();
    assertThat(connection.getTypeMap()).isEmpty();
    connection.setTypeMap(Map.of());
    assertThatThrownBy(() -> connection.setTypeMap(Map.of("T", String.class)))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(connection::createBlob).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(connection::getNetworkTimeout)
        .isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void clientInfo() throws SQLException {
    connection.setClientInfo("ApplicationName", "report");
    assertThat(connection.getClientInfo("ApplicationName")).isEqualTo("report");
    assertThat(connection.getClientInfo().getProperty("ApplicationName")).isEqualTo("report");
    connection.setClientInfo("ApplicationName", null);
    assertThat(connection.getClientInfo("ApplicationName")).isNull();
    assertThatThrownBy(() -> connection.setClientInfo("Nope", "x"))
        .isInstanceOf(SQLClientInfoException.class)
        .hasMessageContaining("[Nope]");
  }

  @Test
  void wrapper() throws SQLException {
    assertThat(connection.isWrapperFor(CairnConnection.class)).isTrue();
    assertThat(connection.unwrap(CairnConnection.class)).isSameAs(connection);
    assertThat(connection.isWrapperFor(String.class)).isFalse();
    assertThatThrownBy(() -> connection.unwrap(String.class)).isInstanceOf(SQLException.class);
  }

  @Test
  void abortClosesThroughTheExecutor() throws SQLException {
    connection.abort(Runnable::run);
    assertThat(connection.isClosed()).isTrue();
    assertThat(session.closes).isEqualTo(1);
  }
}
