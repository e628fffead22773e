package io.cairn.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
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
  void unknownUserIsVerifiedAgainstTheUsersCommonIterationCount() {
    String a = PasswordHasher.hash("a".toCharArray(), 2000);
    String b = PasswordHasher.hash("b".toCharArray(), 2000);
    String c = PasswordHasher.hash("c".toCharArray(), 3000);
    assertThat(
            Users.fromProperties(Map.of("user.a", a, "user.b", b, "user.c", c))
                .unknownUserIterations())
        .isEqualTo(2000);
    assertThat(Users.fromProperties(Map.of("user.a", a, "user.c", c)).unknownUserIterations())
        .isEqualTo(3000); // a tie: the larger
    assertThat(Users.none().unknownUserIterations()).isEqualTo(PasswordHasher.DEFAULT_ITERATIONS);
  }

  @Test
  void unknownUserTakesAboutAsLongAsAWrongPassword() {
    // enough iterations for the derivation to dominate; interleaved tries, medians compared
    String slow = PasswordHasher.hash("pw".toCharArray(), 20_000);
    Users users = Users.fromProperties(Map.of("user.alice", slow));
    Runnable wrongPassword = () -> users.authenticate("alice", "nope".toCharArray());
    Runnable unknownUser = () -> users.authenticate("mallory", "nope".toCharArray());
    for (int i = 0; i < 5; i++) {
      wrongPassword.run();
      unknownUser.run();
    }
    long[] wrong = new long[9];
    long[] unknown = new long[9];
    for (int i = 0; i < wrong.length; i++) {
      wrong[i] = nanos(wrongPassword);
      unknown[i] = nanos(unknownUser);
    }
    Arrays.sort(wrong);
    Arrays.sort(unknown);
    long w = wrong[wrong.length / 2];
    long u = unknown[unknown.length / 2];
    assertThat((double) u)
        .as("median of unknown user %d ns vs wrong password %d ns", u, w)
        .isBetween(w / 3.0, w * 3.0);
  }

  private static long nanos(Runnable r) {
    long start = System.nanoTime();
    r.run();
    return System.nanoTime() - start;
  }
}
