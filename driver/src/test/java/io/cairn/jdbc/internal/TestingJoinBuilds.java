package io.cairn.jdbc.internal;

import io.cairn.jdbc.internal.exec.JoinBuildCache;
import io.cairn.jdbc.internal.session.DatabaseSession;
import java.sql.Connection;
import java.sql.SQLException;

/** Reaches a connection's kept join build sides ({@link JoinBuildCache}) from the SQL tests. */
public final class TestingJoinBuilds {
  private TestingJoinBuilds() {}

  /** The connection's cache, or null when it kept nothing yet. */
  public static JoinBuildCache of(Connection connection) throws SQLException {
    CairnConnection c = connection.unwrap(CairnConnection.class);
    return ((DatabaseSession) c.session()).joinBuildCache();
  }

  /** The bytes the connection's pool holds now (its queries' and its kept build sides'). */
  public static long connectionMemory(Connection connection) throws SQLException {
    CairnConnection c = connection.unwrap(CairnConnection.class);
    return ((DatabaseSession) c.session()).memory().used();
  }
}
