package io.cairn.hbase.server;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Cairn error raised in a region server (a scan program's division by zero, overflow or bad cast)
 * crosses HBase's RPC as an exception message: HBase hands the client the remote exception's class
 * and message, not its fields. The region server writes the error's code into the message ({@link
 * #message}); the client finds it again in the exception it gets, however HBase wrapped it ({@link
 * #find}), so a statement fails on HBase with the SQLState it fails with embedded.
 */
public final class RemoteErrors {
  private RemoteErrors() {}

  private static final Pattern MARKED = Pattern.compile("\\[cairn:(\\d{1,6})\\] ([^\\n]*)");

  /** The message that carries {@code e}'s code and text through HBase's RPC. */
  public static String message(CairnException e) {
    return message(e.errorCode(), e.getMessage());
  }

  /** The message that carries {@code code} and {@code text} through HBase's RPC. */
  public static String message(ErrorCode code, String text) {
    return "[cairn:" + code.code() + "] " + text.replace('\n', ' ');
  }

  /**
   * The Cairn error a region server raised, if {@code failure} or one of its causes carries one;
   * else null. HBase's wrappers keep the remote message, sometimes behind a prefix of their own.
   */
  public static CairnException find(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String text = t.getMessage();
      if (text == null) {
        continue;
      }
      Matcher m = MARKED.matcher(text);
      if (m.find()) {
        return new CairnException(
            ErrorCode.fromCode(Integer.parseInt(m.group(1))), m.group(2), failure);
      }
    }
    return null;
  }
}
