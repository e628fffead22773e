package io.cairn.jdbc.internal;

import io.cairn.core.catalog.Catalog;
import io.cairn.jdbc.internal.session.DatabaseSession;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The catalog behind a JDBC connection of either engine (the embedded database's, or the copy of a
 * server's whose DDL goes to the server), for tests that change it without SQL.
 */
public final class TestingCatalogs {
  private TestingCatalogs() {}

  public static Catalog catalog(Connection connection) throws SQLException {
    return ((DatabaseSession) connection.unwrap(CairnConnection.class).session())
        .database()
        .catalog();
  }
}
