package io.cairn.core.error;

import static java.util.Objects.requireNonNull;

/**
 * The one unchecked exception of Cairn. Messages say what was expected and what was found, with
 * values in brackets, e.g. {@code Value too long for column [NAME VARCHAR(5)]: [6] characters}.
 */
public class CairnException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode errorCode;

  public CairnException(ErrorCode errorCode, String message) {
    super(message);
    this.errorCode = requireNonNull(errorCode, "errorCode is null");
  }

  public CairnException(ErrorCode errorCode, String message, Throwable cause) {
    super(message, cause);
    this.errorCode = requireNonNull(errorCode, "errorCode is null");
  }

  public ErrorCode errorCode() {
    return errorCode;
  }

  /** Shorthand for an internal error: a broken invariant. */
  public static CairnException internal(String message) {
    return new CairnException(ErrorCode.INTERNAL_ERROR, message);
  }
}
