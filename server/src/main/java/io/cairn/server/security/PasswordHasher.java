package io.cairn.server.security;

import static java.util.Objects.requireNonNull;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted, slow password hashes with the JDK's PBKDF2WithHmacSHA256, encoded as {@code
 * pbkdf2-sha256$ITERATIONS$SALT$HASH} (salt and hash in standard Base64 with padding): a 16-byte
 * random salt, a 32-byte hash and {@value #DEFAULT_ITERATIONS} iterations (OWASP's figure for
 * PBKDF2-HMAC-SHA256). A stored hash may use any iteration count from {@value #MIN_ITERATIONS} to
 * {@value #MAX_ITERATIONS}, so hashes made with other counts keep working.
 *
 * <p>Passwords are {@code char[]} so that callers can clear them; this class clears its own copies
 * and derived keys, never the caller's array.
 */
public final class PasswordHasher {
  /** The first field of an encoded hash. */
  public static final String SCHEME = "pbkdf2-sha256";

  public static final int DEFAULT_ITERATIONS = 210_000;
  public static final int MIN_ITERATIONS = 1_000;

  /** A bound against a mistyped count that would make every login take minutes. */
  public static final int MAX_ITERATIONS = 100_000_000;

  static final int SALT_BYTES = 16;
  static final int HASH_BYTES = 32;
  private static final String FORMAT = SCHEME + "$ITERATIONS$SALT_BASE64$HASH_BASE64";
  private static final String JCA_ALGORITHM = "PBKDF2WithHmacSHA256";
  private static final SecureRandom RANDOM = new SecureRandom();

  private PasswordHasher() {}

  /** Hashes {@code password} with a new random salt and {@value #DEFAULT_ITERATIONS} iterations. */
  public static String hash(char[] password) {
    return hash(password, DEFAULT_ITERATIONS);
  }

  /**
   * Hashes {@code password} with a new random salt and {@code iterations} iterations.
   *
   * @throws IllegalArgumentException when {@code iterations} is out of range
   */
  public static String hash(char[] password, int iterations) {
    requireNonNull(password, "password is null");
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw new IllegalArgumentException(
          "Iterations: expected from "
              + MIN_ITERATIONS
              + " to "
              + MAX_ITERATIONS
              + ", found ["
              + iterations
              + "]");
    }
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    byte[] hash = derive(password, salt, iterations, HASH_BYTES);
    try {
      return encode(iterations, salt, hash);
    } finally {
      Arrays.fill(hash, (byte) 0);
    }
  }

  /**
   * Whether {@code password} is the one {@code encoded} was made from. Takes the same time whether
   * or not it is, for a given hash (the comparison is constant-time).
   *
   * @throws IllegalArgumentException when {@code encoded} is malformed (see {@link #check})
   */
  public static boolean verify(char[] password, String encoded) {
    requireNonNull(password, "password is null");
    Parsed p = parse(encoded);
    byte[] actual = derive(password, p.salt, p.iterations, p.hash.length);
    try {
      return MessageDigest.isEqual(actual, p.hash);
    } finally {
      Arrays.fill(actual, (byte) 0);
    }
  }

  /**
   * Checks that {@code encoded} is a hash this class can verify.
   *
   * @throws IllegalArgumentException naming the part that is wrong, what was expected and what was
   *     found (never the hash itself)
   */
  public static void check(String encoded) {
    parse(encoded);
  }

  /** The iteration count of a well-formed encoded hash. */
  static int iterations(String encoded) {
    return parse(encoded).iterations;
  }

  /** An encoded hash of random bytes that no password matches, with {@code iterations}. */
  static String unmatchable(int iterations) {
    byte[] salt = new byte[SALT_BYTES];
    byte[] hash = new byte[HASH_BYTES];
    RANDOM.nextBytes(salt);
    RANDOM.nextBytes(hash);
    return encode(iterations, salt, hash);
  }

  private static String encode(int iterations, byte[] salt, byte[] hash) {
    Base64.Encoder b64 = Base64.getEncoder();
    return SCHEME
        + "$"
        + iterations
        + "$"
        + b64.encodeToString(salt)
        + "$"
        + b64.encodeToString(hash);
  }

  private record Parsed(int iterations, byte[] salt, byte[] hash) {}

  private static Parsed parse(String encoded) {
    requireNonNull(encoded, "encoded is null");
    String[] fields = encoded.split("\\$", -1);
    if (fields.length != 4) {
      throw malformed("4 fields separated by '$' (" + FORMAT + ")", fields.length + " fields");
    }
    if (!fields[0].equals(SCHEME)) {
      throw malformed("the scheme [" + SCHEME + "]", describeScheme(fields[0]));
    }
    int iterations;
    try {
      iterations = Integer.parseInt(fields[1]);
    } catch (NumberFormatException e) {
      throw malformed(
          "an iteration count (a decimal number)", "[" + abbreviate(fields[1]) + "]", e);
    }
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw malformed(
          "an iteration count from " + MIN_ITERATIONS + " to " + MAX_ITERATIONS,
          "[" + iterations + "]");
    }
    byte[] salt = decode("salt", fields[2]);
    if (salt.length < SALT_BYTES) {
      throw malformed("a salt of at least " + SALT_BYTES + " bytes", "[" + salt.length + "] bytes");
    }
    byte[] hash = decode("hash", fields[3]);
    if (hash.length != HASH_BYTES) {
      throw malformed("a hash of " + HASH_BYTES + " bytes", "[" + hash.length + "] bytes");
    }
    return new Parsed(iterations, salt, hash);
  }

  private static byte[] decode(String what, String field) {
    try {
      return Base64.getDecoder().decode(field);
    } catch (IllegalArgumentException e) {
      throw malformed(
          "the " + what + " in standard Base64", "invalid Base64 (" + e.getMessage() + ")", e);
    }
  }

  /** The scheme found, unless it could be something secret (say, a password put there instead). */
  private static String describeScheme(String s) {
    return s.matches("[A-Za-z0-9-]{1,20}") ? "[" + s + "]" : "another value";
  }

  private static String abbreviate(String s) {
    return s.length() <= 20 ? s : s.substring(0, 20) + "...";
  }

  private static IllegalArgumentException malformed(String expected, String found) {
    return malformed(expected, found, null);
  }

  private static IllegalArgumentException malformed(
      String expected, String found, Throwable cause) {
    return new IllegalArgumentException(
        "Malformed password hash: expected " + expected + ", found " + found, cause);
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations, int bytes) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bytes * 8);
    try {
      return SecretKeyFactory.getInstance(JCA_ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      // every Java SE platform has PBKDF2WithHmacSHA256 (a required algorithm)
      throw new IllegalStateException(JCA_ALGORITHM + " is not available", e);
    } finally {
      spec.clearPassword();
    }
  }
}
