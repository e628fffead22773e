package io.cairn.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class TestPasswordHasher {
  private static final int FAST = PasswordHasher.MIN_ITERATIONS;

  @Test
  void hashesAndVerifies() {
    String hash = PasswordHasher.hash("s3cret!".toCharArray(), FAST);
    assertThat(hash).startsWith("pbkdf2-sha256$1000$");
    assertThat(PasswordHasher.verify("s3cret!".toCharArray(), hash)).isTrue();
    assertThat(PasswordHasher.verify("s3cret?".toCharArray(), hash)).isFalse();
    assertThat(PasswordHasher.verify(new char[0], hash)).isFalse();
  }

  @Test
  void defaultFormatHasSixteenByteSaltAndThirtyTwoByteHash() {
    String hash = PasswordHasher.hash("pw".toCharArray());
    String[] fields = hash.split("\\$");
    assertThat(fields).hasSize(4);
    assertThat(fields[0]).isEqualTo("pbkdf2-sha256");
    assertThat(fields[1]).isEqualTo("210000");
    assertThat(Base64.getDecoder().decode(fields[2])).hasSize(16);
    assertThat(Base64.getDecoder().decode(fields[3])).hasSize(32);
    assertThat(PasswordHasher.verify("pw".toCharArray(), hash)).isTrue();
  }

  @Test
  void saltsDiffer() {
    String a = PasswordHasher.hash("same".toCharArray(), FAST);
    String b = PasswordHasher.hash("same".toCharArray(), FAST);
    assertThat(a).isNotEqualTo(b);
    assertThat(PasswordHasher.verify("same".toCharArray(), a)).isTrue();
    assertThat(PasswordHasher.verify("same".toCharArray(), b)).isTrue();
  }

  @Test
  void leavesTheCallersPasswordAlone() {
    char[] password = "keep me".toCharArray();
    String hash = PasswordHasher.hash(password, FAST);
    assertThat(password).containsExactly("keep me".toCharArray());
    PasswordHasher.verify(password, hash);
    assertThat(password).containsExactly("keep me".toCharArray());
  }

  @Test
  void verifiesHashesOfOtherIterationCounts() {
    String hash = PasswordHasher.hash("pw".toCharArray(), 1234);
    assertThat(hash).contains("$1234$");
    assertThat(PasswordHasher.verify("pw".toCharArray(), hash)).isTrue();
  }

  @Test
  void refusesIterationCountsOutOfRange() {
    assertThatThrownBy(() -> PasswordHasher.hash("pw".toCharArray(), 999))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Iterations: expected from 1000 to 100000000, found [999]");
  }

  @Test
  void malformedHashesSayWhatWasExpected() {
    String salt = Base64.getEncoder().encodeToString(new byte[16]);
    String hash = Base64.getEncoder().encodeToString(new byte[32]);
    assertMalformed("secret", "expected 4 fields separated by '$'", "found 1 fields");
    assertMalformed(
        "md5$1000$" + salt + "$" + hash, "expected the scheme [pbkdf2-sha256], found [md5]");
    assertMalformed(
        "not a scheme!$1000$" + salt + "$" + hash,
        "expected the scheme [pbkdf2-sha256], found another value");
    assertMalformed(
        "pbkdf2-sha256$many$" + salt + "$" + hash,
        "expected an iteration count (a decimal number), found [many]");
    assertMalformed(
        "pbkdf2-sha256$10$" + salt + "$" + hash,
        "expected an iteration count from 1000 to 100000000, found [10]");
    assertMalformed(
        "pbkdf2-sha256$1000$***$" + hash, "expected the salt in standard Base64, found invalid");
    assertMalformed(
        "pbkdf2-sha256$1000$" + Base64.getEncoder().encodeToString(new byte[8]) + "$" + hash,
        "expected a salt of at least 16 bytes, found [8] bytes");
    assertMalformed(
        "pbkdf2-sha256$1000$" + salt + "$" + Base64.getEncoder().encodeToString(new byte[20]),
        "expected a hash of 32 bytes, found [20] bytes");
    assertMalformed("pbkdf2-sha256$1000$" + salt + "$", "expected a hash of 32 bytes, found [0]");
  }

  private static void assertMalformed(String encoded, String... fragments) {
    assertThatThrownBy(() -> PasswordHasher.check(encoded))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Malformed password hash: ")
        .hasMessageContainingAll(fragments);
    assertThatThrownBy(() -> PasswordHasher.verify("pw".toCharArray(), encoded))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
