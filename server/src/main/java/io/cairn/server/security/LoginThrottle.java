package io.cairn.server.security;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Failed logins per client address, and the backoff they earn: once an address has {@code
 * failuresBeforeBackoff} failures with less than a minute between them, every further attempt from
 * it is refused, without a password check, for {@value #FIRST_BACKOFF_MILLIS} ms after its last
 * failure, doubling with each further failure up to {@code maxBackoff}. A success resets the
 * address. It also keeps what {@link #summarize} logs: one line per address and period rather than
 * one per failure. Times are {@link System#nanoTime()} values passed in, so that tests choose them.
 * Thread-safe.
 */
public final class LoginThrottle {
  /** Failures further apart than this start the count again. */
  public static final Duration WINDOW = Duration.ofMinutes(1);

  static final long FIRST_BACKOFF_MILLIS = 1000;

  /** User names kept per address for the summary. */
  private static final int USERS_SHOWN = 5;

  /** Addresses given a line of their own in one summary. */
  private static final int ADDRESSES_SHOWN = 10;

  private final int failuresBeforeBackoff;
  private final long maxBackoffNanos;
  private final Map<String, Entry> addresses = new ConcurrentHashMap<>();

  /**
   * @param failuresBeforeBackoff failures within {@link #WINDOW} of each other before the backoff
   * @param maxBackoff the longest refusal; zero turns the backoff off (failures are still counted
   *     for the summary)
   */
  public LoginThrottle(int failuresBeforeBackoff, Duration maxBackoff) {
    if (failuresBeforeBackoff < 1) {
      throw new IllegalArgumentException(
          "failuresBeforeBackoff: expected at least 1, found [" + failuresBeforeBackoff + "]");
    }
    this.failuresBeforeBackoff = failuresBeforeBackoff;
    this.maxBackoffNanos = requireNonNull(maxBackoff, "maxBackoff is null").toNanos();
  }

  private static final class Entry {
    int failures; // in the current run, each within WINDOW of the previous
    long lastFailureNanos;
    long refusedUntilNanos;
    boolean backingOff;
    // since the last summary
    long failedSinceSummary;
    long refusedSinceSummary;
    final TreeSet<String> users = new TreeSet<>();
  }

  /**
   * Whether an attempt from {@code address} at {@code nowNanos} must be refused: 0 when it may go
   * on, else how many nanoseconds remain of the address's backoff (the refusal is counted).
   */
  public long refusal(String address, long nowNanos) {
    Entry e = addresses.get(address);
    if (e == null) {
      return 0;
    }
    synchronized (e) {
      if (e.backingOff && nowNanos - e.refusedUntilNanos < 0) {
        e.refusedSinceSummary++;
        return e.refusedUntilNanos - nowNanos;
      }
      return 0;
    }
  }

  /** Records a failed login of {@code user} from {@code address}. */
  public void failed(String address, String user, long nowNanos) {
    Entry e = addresses.computeIfAbsent(address, a -> new Entry());
    synchronized (e) {
      if (e.failures > 0 && nowNanos - e.lastFailureNanos > WINDOW.toNanos()) {
        e.failures = 0;
        e.backingOff = false;
      }
      e.failures++;
      e.lastFailureNanos = nowNanos;
      e.failedSinceSummary++;
      if (e.users.size() < USERS_SHOWN) {
        e.users.add(user);
      }
      if (maxBackoffNanos > 0 && e.failures >= failuresBeforeBackoff) {
        int doublings = Math.min(40, e.failures - failuresBeforeBackoff);
        long backoff =
            Math.min(
                maxBackoffNanos, TimeUnit.MILLISECONDS.toNanos(FIRST_BACKOFF_MILLIS) << doublings);
        if (backoff <= 0) {
          backoff = maxBackoffNanos;
        }
        e.backingOff = true;
        e.refusedUntilNanos = nowNanos + backoff;
      }
    }
  }

  /** Records a successful login from {@code address}: its failures and backoff are forgotten. */
  public void succeeded(String address) {
    Entry e = addresses.get(address);
    if (e == null) {
      return;
    }
    synchronized (e) {
      e.failures = 0;
      e.backingOff = false;
    }
  }

  /**
   * The lines to log for the failures and refusals since the previous call, one per address (the
   * most active first, at most {@value #ADDRESSES_SHOWN} and a line for the rest), and forgets the
   * addresses quiet for a {@link #WINDOW} and not backing off.
   *
   * @param period what "since the previous call" is, for the text
   */
  public List<String> summarize(long nowNanos, Duration period) {
    record Line(
        String address, long failed, long refused, List<String> users, long backoffMillis) {}
    List<Line> lines = new ArrayList<>();
    for (Map.Entry<String, Entry> m : addresses.entrySet()) {
      Entry e = m.getValue();
      synchronized (e) {
        if (e.failedSinceSummary > 0 || e.refusedSinceSummary > 0) {
          long backoff =
              e.backingOff && nowNanos - e.refusedUntilNanos < 0
                  ? TimeUnit.NANOSECONDS.toMillis(e.refusedUntilNanos - nowNanos)
                  : 0;
          lines.add(
              new Line(
                  m.getKey(),
                  e.failedSinceSummary,
                  e.refusedSinceSummary,
                  List.copyOf(e.users),
                  backoff));
          e.failedSinceSummary = 0;
          e.refusedSinceSummary = 0;
          e.users.clear();
        } else if (nowNanos - e.lastFailureNanos > WINDOW.toNanos()
            && !(e.backingOff && nowNanos - e.refusedUntilNanos < 0)) {
          addresses.remove(m.getKey(), e);
        }
      }
    }
    lines.sort(Comparator.comparingLong((Line l) -> -(l.failed() + l.refused())));
    List<String> text = new ArrayList<>();
    long otherFailed = 0;
    long otherRefused = 0;
    for (int i = 0; i < lines.size(); i++) {
      Line l = lines.get(i);
      if (i >= ADDRESSES_SHOWN) {
        otherFailed += l.failed();
        otherRefused += l.refused();
        continue;
      }
      text.add(
          l.failed()
              + " failed login(s) from ["
              + l.address()
              + "] in the last "
              + period.toSeconds()
              + " s (users "
              + l.users()
              + ")"
              + (l.refused() > 0
                  ? ", " + l.refused() + " further attempt(s) refused while it backs off"
                  : "")
              + (l.backoffMillis() > 0
                  ? "; refused for another [" + l.backoffMillis() + "] ms"
                  : ""));
    }
    if (lines.size() > ADDRESSES_SHOWN) {
      text.add(
          otherFailed
              + " failed and "
              + otherRefused
              + " refused login(s) from "
              + (lines.size() - ADDRESSES_SHOWN)
              + " other address(es) in the last "
              + period.toSeconds()
              + " s");
    }
    return text;
  }

  /** Addresses remembered now (tests). */
  int addresses() {
    return addresses.size();
  }
}
