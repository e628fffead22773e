package io.cairn.store.io;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The errors a file of the store reports, each naming the file: corruption (with the byte offset
 * where the check failed), an unsupported format version (expected vs found), an I/O failure.
 */
public final class FileErrors {
  private FileErrors() {}

  /** {@link ErrorCode#DATA_CORRUPTED}: a check failed at {@code offset} of {@code path}. */
  public static CairnException corrupted(Path path, long offset, String message) {
    return new CairnException(
        ErrorCode.DATA_CORRUPTED,
        "Corrupt file [" + path + "] at offset [" + offset + "]: " + message);
  }

  /** As {@link #corrupted(Path, long, String)}, keeping the exception that revealed it. */
  public static CairnException corrupted(Path path, long offset, String message, Throwable cause) {
    return new CairnException(
        ErrorCode.DATA_CORRUPTED,
        "Corrupt file [" + path + "] at offset [" + offset + "]: " + message,
        cause);
  }

  /** {@link ErrorCode#UNSUPPORTED_FORMAT_VERSION}: the file was written by another version. */
  public static CairnException unsupportedVersion(
      Path path, String format, int expected, int found) {
    return new CairnException(
        ErrorCode.UNSUPPORTED_FORMAT_VERSION,
        "Unsupported "
            + format
            + " version in file ["
            + path
            + "]: expected ["
            + expected
            + "], found ["
            + found
            + "]");
  }

  /**
   * {@link ErrorCode#UNSUPPORTED_FORMAT_VERSION}: the file's version is not in {@code [oldest,
   * newest]}, the versions this reader reads.
   */
  public static CairnException unsupportedVersion(
      Path path, String format, int oldest, int newest, int found) {
    return new CairnException(
        ErrorCode.UNSUPPORTED_FORMAT_VERSION,
        "Unsupported "
            + format
            + " version in file ["
            + path
            + "]: expected ["
            + oldest
            + "] to ["
            + newest
            + "], found ["
            + found
            + "]"
            + (found > newest ? " (written by a newer Cairn?)" : ""));
  }

  /** {@link ErrorCode#IO_ERROR}: {@code action} (e.g. "read") failed on {@code path}. */
  public static CairnException ioError(Path path, String action, IOException cause) {
    return new CairnException(
        ErrorCode.IO_ERROR, "Cannot " + action + " file [" + path + "]: " + cause, cause);
  }
}
