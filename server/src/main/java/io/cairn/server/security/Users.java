package io.cairn.server.security;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The server's users: an immutable map from user name to a {@link PasswordHasher} hash, read from
 * the server's configuration as {@code user.NAME=HASH}. Every hash is checked when the users are
 * loaded, so a malformed one stops the server from starting rather than failing a login.
 *
 * <p>{@link #authenticate} takes about as long for an unknown user as for a known one with a wrong
 * password: it verifies the password against a hash no password matches, made with the iteration
 * count most of the users' hashes have, so the time of a failed login does not tell which user
 * names exist.
 */
public final class Users {
  /** The prefix of the configuration keys that define users. */
  public static final String PREFIX = "user.";

  private static final Users NONE = new Users(Map.of());

  private final Map<String, String> hashes;
  private final String unknownUserHash;

  private Users(Map<String, String> hashes) {
    this.hashes = Collections.unmodifiableMap(new TreeMap<>(hashes));
    this.unknownUserHash = PasswordHasher.unmatchable(commonIterations(hashes));
  }

  /** No users: the server does not authenticate. */
  public static Users none() {
    return NONE;
  }

  /**
   * The users defined by the keys of {@code properties} that start with {@value #PREFIX}; other
   * keys are ignored.
   *
   * @throws IllegalArgumentException naming the key, when a user name is empty or a hash malformed
   */
  public static Users fromProperties(Map<String, String> properties) {
    requireNonNull(properties, "properties is null");
    Map<String, String> hashes = new HashMap<>();
    for (Map.Entry<String, String> e : properties.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      String user = key.substring(PREFIX.length());
      if (user.isEmpty()) {
        throw new IllegalArgumentException(
            "Property [" + key + "]: expected a user name after [" + PREFIX + "], found none");
      }
      String hash = requireNonNull(e.getValue(), "value of " + key + " is null").strip();
      try {
        PasswordHasher.check(hash);
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException("Property [" + key + "]: " + ex.getMessage(), ex);
      }
      hashes.put(user, hash);
    }
    return hashes.isEmpty() ? NONE : new Users(hashes);
  }

  /**
   * Whether {@code user} exists and {@code password} is theirs. A null or unknown user is refused
   * after the same work as a wrong password.
   */
  public boolean authenticate(String user, char[] password) {
    requireNonNull(password, "password is null");
    String hash = user == null ? null : hashes.get(user);
    if (hash == null) {
      PasswordHasher.verify(password, unknownUserHash);
      return false;
    }
    return PasswordHasher.verify(password, hash);
  }

  /** True when no user is defined: the server then lets every client in without a password. */
  public boolean isEmpty() {
    return hashes.isEmpty();
  }

  /** The user names, sorted. */
  public Set<String> names() {
    return hashes.keySet();
  }

  /** The iteration count of the hash unknown users are verified against. */
  int unknownUserIterations() {
    return PasswordHasher.iterations(unknownUserHash);
  }

  /** The iteration count most hashes use (the larger on a tie); the default when there are none. */
  private static int commonIterations(Map<String, String> hashes) {
    Map<Integer, Integer> counts = new HashMap<>();
    for (String hash : hashes.values()) {
      counts.merge(PasswordHasher.iterations(hash), 1, Integer::sum);
    }
    int best = PasswordHasher.DEFAULT_ITERATIONS;
    int bestCount = 0;
    for (Map.Entry<Integer, Integer> e : counts.entrySet()) {
      if (e.getValue() > bestCount || (e.getValue() == bestCount && e.getKey() > best)) {
        best = e.getKey();
        bestCount = e.getValue();
      }
    }
    return best;
  }

  /** The user names only: hashes stay out of logs. */
  @Override
  public String toString() {
    return "Users" + hashes.keySet();
  }
}
