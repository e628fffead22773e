package io.cairn.server.status;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may read the status page and what they see: HTTP basic authentication against the server's
 * users when it has any (docs/server-security.md, "The status page"). Thread-safe.
 *
 * <p>Password checks (PBKDF2, deliberately slow) must not make the page a way to load the server:
 *
 * <ul>
 *   <li>a successful check is remembered for {@link #CACHE_NANOS} (a salted SHA-256 of the
 *       password, per user), so a browser or a script polling the page costs one check a minute;
 *   <li>after a failed check, an address gets 429 without a check for a while, doubling with each
 *       further failure ({@link #FIRST_BACKOFF_NANOS} up to {@link #MAX_BACKOFF_NANOS}), until it
 *       gets in;
 *   <li>one check runs at a time, on the status page's own threads (never the query workers), and a
 *       request that cannot start one within {@link #CHECK_WAIT_MILLIS} gets 503;
 *   <li>a request without credentials costs nothing: 401 at once.
 * </ul>
 */
public final class StatusAccess {
  private static final Logger LOG = LoggerFactory.getLogger(StatusAccess.class);

  /** How long a successful check is remembered. */
  static final long CACHE_NANOS = TimeUnit.SECONDS.toNanos(60);

  static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(30);

  /**
   * How long a request waits for another's check to end: about two checks, so that logins at the
   * same moment both get in, while a flood never holds both of the page's threads (/health).
   */
  static final long CHECK_WAIT_MILLIS = 250;

  /** Past this many addresses with recent failures, the expired ones are forgotten. */
  private static final int MAX_TRACKED_ADDRESSES = 10_000;

  /** The realm of the WWW-Authenticate challenge. */
  static final String CHALLENGE = "Basic realm=\"Cairn status\", charset=\"UTF-8\"";

  /** A viewer let in: the user ("" without authentication) and whether they are an admin. */
  record Viewer(String user, boolean admin) {
    Viewer {
      requireNonNull(user, "user is null");
    }
  }

  /**
   * The answer to a request: a viewer, or the HTTP status to refuse it with (401, 429, 503), a
   * message, and seconds to wait before retrying (0: none said).
   */
  record Decision(Viewer viewer, int status, String message, long retryAfterSeconds) {
    static Decision allow(Viewer viewer) {
      return new Decision(viewer, 200, "", 0);
    }

    static Decision refuse(int status, String message, long retryAfterSeconds) {
      return new Decision(null, status, message, retryAfterSeconds);
    }

    boolean allowed() {
      return viewer != null;
    }
  }

  private record Remembered(byte[] digest, long expiresNanos) {}

  private record Failures(int count, long untilNanos) {}

  private static final StatusAccess OPEN =
      new StatusAccess(false, (u, p) -> true, Set.of(), System::nanoTime);

  private final boolean required;
  private final BiPredicate<String, char[]> passwords;
  private final Set<String> admins;
  private final LongSupplier clock;
  private final byte[] salt = new byte[16];
  private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();
  private final Map<InetAddress, Failures> failures = new ConcurrentHashMap<>();
  private final Semaphore checking = new Semaphore(1);

  private StatusAccess(
      boolean required,
      BiPredicate<String, char[]> passwords,
      Set<String> admins,
      LongSupplier clock) {
    this.required = required;
    this.passwords = requireNonNull(passwords, "passwords is null");
    this.admins = Collections.unmodifiableSet(new TreeSet<>(admins));
    this.clock = requireNonNull(clock, "clock is null");
    new SecureRandom().nextBytes(salt);
  }

  /** No authentication (a server without users): everyone sees what an admin sees. */
  public static StatusAccess open() {
    return OPEN;
  }

  /**
   * Basic authentication: {@code passwords} says whether a user and password are right (the
   * server's users), {@code admins} who sees client information and may ask for keys.
   */
  public static StatusAccess users(BiPredicate<String, char[]> passwords, Set<String> admins) {
    return new StatusAccess(true, passwords, admins, System::nanoTime);
  }

  /** As {@link #users}, on {@code clock} (tests). */
  static StatusAccess users(
      BiPredicate<String, char[]> passwords, Set<String> admins, LongSupplier clock) {
    return new StatusAccess(true, passwords, admins, clock);
  }

  /** True when viewers must log in. */
  public boolean required() {
    return required;
  }

  /**
   * Decides on a request with header {@code authorization} (null when absent) from {@code from}.
   */
  Decision check(String authorization, InetAddress from) {
    if (!required) {
      return Decision.allow(new Viewer("", true));
    }
    if (authorization == null) {
      return Decision.refuse(401, "Authentication required: log in as a user of the server", 0);
    }
    int space = authorization.indexOf(' ');
    if (space < 0 || !authorization.substring(0, space).toLowerCase(Locale.ROOT).equals("basic")) {
      return Decision.refuse(401, "Expected Basic authentication", 0);
    }
    byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(authorization.substring(space + 1).strip());
    } catch (IllegalArgumentException e) {
      return Decision.refuse(401, "Expected Basic authentication (Base64 of user:password)", 0);
    }
    CharBuffer chars = UTF_8.decode(ByteBuffer.wrap(decoded));
    char[] credentials = Arrays.copyOfRange(chars.array(), chars.position(), chars.limit());
    Arrays.fill(chars.array(), '\0');
    Arrays.fill(decoded, (byte) 0);
    try {
      int colon = indexOf(credentials, ':');
      if (colon <= 0) {
        return Decision.refuse(401, "Expected Basic authentication (user:password)", 0);
      }
      String user = new String(credentials, 0, colon);
      char[] password = Arrays.copyOfRange(credentials, colon + 1, credentials.length);
      try {
        return check(user, password, from);
      } finally {
        Arrays.fill(password, '\0');
      }
    } finally {
      Arrays.fill(credentials, '\0');
    }
  }

  private Decision check(String user, char[] password, InetAddress from) {
    long now = clock.getAsLong();
    byte[] digest = digest(password);
    Remembered r = remembered.get(user);
    if (r != null && now - r.expiresNanos() < 0 && MessageDigest.isEqual(r.digest(), digest)) {
      return Decision.allow(viewer(user));
    }
    Failures f = failures.get(from);
    if (f != null && now - f.untilNanos() < 0) {
      return throttled(f.untilNanos() - now);
    }
    boolean acquired;
    try {
      acquired = checking.tryAcquire(CHECK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Decision.refuse(503, "Interrupted", 1);
    }
    if (!acquired) {
      return Decision.refuse(503, "Busy checking other logins: retry", 1);
    }
    boolean ok;
    try {
      ok = passwords.test(user, password);
    } finally {
      checking.release();
    }
    now = clock.getAsLong();
    if (ok) {
      failures.remove(from);
      remembered.put(user, new Remembered(digest, now + CACHE_NANOS));
      return Decision.allow(viewer(user));
    }
    Failures next =
        failures.compute(
            from,
            (a, old) -> {
              int count = old == null ? 1 : Math.min(old.count() + 1, 30);
              long backoff = Math.min(FIRST_BACKOFF_NANOS << (count - 1), MAX_BACKOFF_NANOS);
              return new Failures(count, clock.getAsLong() + backoff);
            });
    if (next.count() == 1) {
      LOG.info("Status page: login failed from {} (further failures back off)", from);
    }
    forgetOldFailures(now);
    return Decision.refuse(401, "Authentication failed: wrong user or password", 0);
  }

  private static Decision throttled(long waitNanos) {
    long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(waitNanos + 999_999_999L));
    return Decision.refuse(
        429, "Too many failed logins from this address: retry in " + seconds + " s", seconds);
  }

  private Viewer viewer(String user) {
    return new Viewer(user, admins.contains(user));
  }

  private void forgetOldFailures(long now) {
    if (failures.size() > MAX_TRACKED_ADDRESSES) {
      failures.values().removeIf(f -> now - f.untilNanos() >= 0);
      if (failures.size() > MAX_TRACKED_ADDRESSES) {
        failures.clear();
      }
    }
  }

  private byte[] digest(char[] password) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    sha.update(salt);
    ByteBuffer bytes = UTF_8.encode(CharBuffer.wrap(password));
    byte[] array = new byte[bytes.remaining()];
    bytes.get(array);
    sha.update(array);
    Arrays.fill(array, (byte) 0);
    return sha.digest();
  }

  private static int indexOf(char[] chars, char c) {
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] == c) {
        return i;
      }
    }
    return -1;
  }
}
