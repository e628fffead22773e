package io.cairn.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TestUsers {
  private static final String ALICE = PasswordHasher.hash("alice-pw".toCharArray(), 1000);
  private static final String BOB = PasswordHasher.hash("bob-pw".toCharArray(), 1000);

  @Test
  void authenticatesKnownUsersOnly() {
    Users users =
        Users.fromProperties(
            Map.of("user.alice", ALICE, "user.bob", BOB, "tls.key", "/etc/key.pem"));
    assertThat(users.isEmpty()).isFalse();
    assertThat(users.names()).containsExactly("alice", "bob");
    assertThat(users.authenticate("alice", "alice-pw".toCharArray())).isTrue();
    assertThat(users.authenticate("bob", "bob-pw".toCharArray())).isTrue();
    assertThat(users.authenticate("alice", "bob-pw".toCharArray())).isFalse();
    assertThat(users.authenticate("carol", "alice-pw".toCharArray())).isFalse();
    assertThat(users.authenticate(null, "alice-pw".toCharArray())).isFalse();
    assertThat(users.authenticate("", new char[0])).isFalse();
  }

  @Test
  void noUsers() {
    assertThat(Users.none().isEmpty()).isTrue();
    assertThat(Users.none().names()).isEmpty();
    assertThat(Users.none().authenticate("anyone", "pw".toCharArray())).isFalse();
    assertThat(Users.fromProperties(Map.of("http.port", "8080")).isEmpty()).isTrue();
  }

  @Test
  void malformedHashIsRefusedWhenLoadedNamingTheKey() {
    assertThatThrownBy(() -> Users.fromProperties(Map.of("user.alice", "plain-text-password")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Property [user.alice]: Malformed password hash: expected 4 fields")
        .hasMessageNotContaining("plain-text-password");
    assertThatThrownBy(() -> Users.fromProperties(Map.of("user.", ALICE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Property [user.]: expected a user name after [user.], found none");
  }

  @Test
  void toleratesSurroundingWhitespaceOfAHash() {
    Users users = Users.fromProperties(Map.of("user.alice", " " + ALICE + "\n"));
    assertThat(users.authenticate("alice", "alice-pw".toCharArray())).isTrue();
  }

  @Test
  void usersAreImmutableAndHashesStayOutOfToString() {
    Users users = Users.fromProperties(Map.of("user.alice", ALICE));
    assertThatThrownBy(() -> users.names().add("mallory"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(users.toString()).isEqualTo("Users[alice]").doesNotContain("pbkdf2");
  }

  @Test
  void unknownUserTakesAboutAsLongAsAWrongPassword() {
    // hashes with many iterations so that the derivation dominates; the medians of several tries
    String slow = PasswordHasher.hash("pw".toCharArray(), 50_000);
    Users users = Users.fromProperties(Map.of("user.alice", slow));
    long wrongPassword = medianNanos(() -> users.authenticate("alice", "nope".toCharArray()));
    long unknownUser = medianNanos(() -> users.authenticate("mallory", "nope".toCharArray()));
    assertThat((double) unknownUser)
        .as("unknown user %d ns vs wrong password %d ns", unknownUser, wrongPassword)
        .isBetween(wrongPassword * 0.5, wrongPassword * 2.0);
  }

  private static long medianNanos(Runnable r) {
    long[] times = new long[7];
    r.run(); // warm up
    for (int i = 0; i < times.length; i++) {
      long start = System.nanoTime();
      r.run();
      times[i] = System.nanoTime() - start;
    }
    java.util.Arrays.sort(times);
    return times[times.length / 2];
  }
}
