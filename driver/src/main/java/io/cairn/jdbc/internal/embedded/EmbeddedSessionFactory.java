package io.cairn.jdbc.internal.embedded;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.engine.Session;
import io.cairn.jdbc.internal.engine.SessionFactory;
import java.util.Properties;

/** Opens sessions on embedded databases: {@code mem:NAME}. */
public final class EmbeddedSessionFactory implements SessionFactory {
  public static final EmbeddedSessionFactory INSTANCE = new EmbeddedSessionFactory();

  private EmbeddedSessionFactory() {}

  @Override
  public Session open(String storeName, Properties info) {
    if (!storeName.startsWith("mem:") || storeName.length() == "mem:".length()) {
      throw new CairnException(
          ErrorCode.INVALID_URL,
          "Unsupported embedded store: expected [mem:NAME], found [" + storeName + "]");
    }
    return new EmbeddedSession(EmbeddedDatabase.open(storeName));
  }
}
