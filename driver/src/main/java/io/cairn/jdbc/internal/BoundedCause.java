package io.cairn.jdbc.internal;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for an exception in the cause chain of an SQLException whose causes' messages together
 * were too long (a chain that quoted the statement's text at each of hundreds of levels): it keeps
 * the class name, the start of the message and the stack trace of the exception it replaces. {@link
 * #of} keeps the first and the last exceptions of such a chain and says how many it left out.
 */
final class BoundedCause extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The characters kept of each replaced exception's message. */
  static final int MESSAGE_CHARS = 512;

  /** The exceptions kept from the start of a long chain (the last one is kept too). */
  static final int KEPT = 4;

  private BoundedCause(String message, StackTraceElement[] stack, Throwable cause) {
    super(message, cause, false, true);
    setStackTrace(stack);
  }

  /**
   * {@code cause} when the messages of its chain are at most {@code maxChars} together; else a
   * chain of BoundedCauses standing for its first {@value #KEPT} and its last exception.
   */
  static Throwable of(Throwable cause, int maxChars) {
    if (cause == null) {
      return null;
    }
    List<Throwable> chain = new ArrayList<>();
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    long chars = 0;
    for (Throwable t = cause; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
      chain.add(t);
      String m = t.getMessage();
      chars += m == null ? 0 : m.length();
    }
    if (chars <= maxChars) {
      return cause;
    }
    List<Throwable> kept = new ArrayList<>(chain.subList(0, Math.min(KEPT, chain.size())));
    int leftOut = chain.size() - kept.size() - 1;
    if (leftOut >= 0) {
      kept.add(chain.get(chain.size() - 1));
    }
    Throwable result = null;
    for (int i = kept.size() - 1; i >= 0; i--) {
      Throwable t = kept.get(i);
      String m = t.getMessage();
      String text =
          t.getClass().getName() + (m == null ? "" : ": " + JdbcErrors.bounded(m, MESSAGE_CHARS));
      if (i == KEPT - 1 && leftOut > 0) {
        text += " (then [" + leftOut + "] causes left out)";
      }
      result = new BoundedCause(text, t.getStackTrace(), result);
    }
    return result;
  }
}
