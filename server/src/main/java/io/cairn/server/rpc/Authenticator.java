package io.cairn.server.rpc;

/**
 * Checks the user and password of a Hello. When {@link #required()}, every connection must give a
 * user and password that {@link #authenticate} accepts; else anyone may connect and the user is
 * only recorded. Implementations are thread-safe and must not say which of the two was wrong.
 */
public interface Authenticator {
  /** Authentication off: every Hello is accepted. */
  Authenticator NONE =
      new Authenticator() {
        @Override
        public boolean required() {
          return false;
        }

        @Override
        public boolean authenticate(String user, char[] password) {
          return true;
        }
      };

  boolean required();

  /** True when {@code user} exists and {@code password} is theirs. */
  boolean authenticate(String user, char[] password);
}
